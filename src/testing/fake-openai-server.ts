import type { ServerResponse } from 'node:http';
import type { GenerateContentResponse, Part } from '@google/genai';
import { mergeChunks, toReply, type FakeGeminiReply } from './fake-gemini-script.js';
import { LoopbackServer, sendJson, type LoopbackRequest } from './loopback-server.js';

/** A request the fake received. */
export interface FakeOpenAIRequest extends LoopbackRequest {
  /** `chat.completions`, `embeddings`, `models` or `unknown`. */
  endpoint: string;
  /** Parsed JSON body. */
  body: Record<string, unknown> | undefined;
}

/**
 * A scripted answer: Gemini chunks (the same `textTurn` / `callTurn` as every other fake — converted to Chat
 * Completions chunks), raw Chat Completions chunks (`{ openai: [...] }`), a reply with an error status or a
 * connection reset, or a function of the request.
 */
export type FakeOpenAITurn =
  | GenerateContentResponse[]
  | FakeGeminiReply
  | { openai: unknown[] }
  | ((
      request: FakeOpenAIRequest,
    ) => GenerateContentResponse[] | FakeGeminiReply | { openai: unknown[] });

/** Options of {@link FakeOpenAIServer}. */
export interface FakeOpenAIServerOptions {
  turns?: FakeOpenAITurn[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401, as OpenAI answers). */
  apiKey?: string;
}

const FINISH: Record<string, string> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
};

/**
 * A loopback OpenAI-compatible server (`/v1/chat/completions` streamed and not, `/v1/embeddings`, `/v1/models`),
 * for testing the OpenAI-compatible provider with the real `openai` client. Gemini-form turns are converted the
 * way such servers answer: text as `delta.content`, thoughts as `delta.reasoning_content`, each function call
 * as `tool_calls` fragments (id and name first, the arguments in two pieces), the finish reason (`tool_calls`
 * when calls were made), and usage in a last chunk without choices when `stream_options.include_usage` is on.
 * Point `openAICompatible({ baseURL: server.baseUrl + '/v1' })` at it.
 */
export class FakeOpenAIServer {
  /** Every request, in order. */
  readonly requests: FakeOpenAIRequest[] = [];
  private readonly turns: FakeOpenAITurn[];
  private readonly options: FakeOpenAIServerOptions;
  private readonly loopback = new LoopbackServer((req, res) => this.handle(req, res));
  private ids = 0;

  constructor(options: FakeOpenAIServerOptions = {}) {
    this.options = options;
    this.turns = [...(options.turns ?? [])];
  }

  /** `http://127.0.0.1:<port>` (the API is under `/v1`). */
  get baseUrl(): string {
    return this.loopback.baseUrl;
  }

  /** Turns not yet requested. */
  get remaining(): number {
    return this.turns.length;
  }

  /** The chat completion requests' bodies. */
  get chatBodies(): Array<Record<string, unknown>> {
    return this.requests.filter((r) => r.endpoint === 'chat.completions').map((r) => r.body ?? {});
  }

  /** Adds turns. */
  enqueue(...turns: FakeOpenAITurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** Starts listening; returns the base URL. */
  start(): Promise<string> {
    return this.loopback.start();
  }

  /** Stops listening. */
  close(): Promise<void> {
    return this.loopback.close();
  }

  private async handle(req: LoopbackRequest, res: ServerResponse): Promise<void> {
    const path = new URL(req.path, 'http://127.0.0.1').pathname;
    const endpoint =
      path === '/v1/chat/completions'
        ? 'chat.completions'
        : path === '/v1/embeddings'
          ? 'embeddings'
          : path === '/v1/models'
            ? 'models'
            : 'unknown';
    let body: Record<string, unknown> | undefined;
    try {
      body = req.text ? (JSON.parse(req.text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const request: FakeOpenAIRequest = { ...req, endpoint, body };
    this.requests.push(request);
    if (
      this.options.apiKey !== undefined &&
      req.headers['authorization'] !== `Bearer ${this.options.apiKey}`
    ) {
      return sendJson(res, 401, openAIError('Incorrect API key provided.', 'invalid_api_key'));
    }
    if (endpoint === 'models') return sendJson(res, 200, { object: 'list', data: [] });
    if (endpoint === 'embeddings') {
      const input = body?.['input'];
      const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
      // The openai client asks for base64 unless told otherwise; answer in the encoding asked for.
      const base64 = body?.['encoding_format'] === 'base64';
      const vector = (t: string, index: number) => {
        const values = [t.length, index, 1];
        return base64 ? Buffer.from(new Float32Array(values).buffer).toString('base64') : values;
      };
      return sendJson(res, 200, {
        object: 'list',
        data: texts.map((t, index) => ({
          object: 'embedding',
          index,
          embedding: vector(t, index),
        })),
        model: body?.['model'],
        usage: { prompt_tokens: texts.length, total_tokens: texts.length },
      });
    }
    if (endpoint !== 'chat.completions') {
      return sendJson(
        res,
        404,
        openAIError(`Unknown request URL: ${req.method} ${path}.`, 'unknown_url'),
      );
    }
    const turn = this.turns.shift();
    if (turn === undefined)
      return sendJson(res, 400, openAIError('FakeOpenAIServer: no scripted turn left.', 'no_turn'));
    const value = typeof turn === 'function' ? turn(request) : structuredClone(turn);
    const raw = 'openai' in value ? (value as { openai: unknown[] }).openai : undefined;
    const reply = raw ? {} : toReply(value as GenerateContentResponse[] | FakeGeminiReply);
    if (reply.resetBeforeResponse) {
      res.destroy();
      return;
    }
    const status = reply.status ?? 200;
    if (status < 200 || status > 299) {
      return sendJson(
        res,
        status,
        reply.body ?? openAIError(`injected ${status} error`, 'injected'),
        reply.headers,
      );
    }
    const id = `chatcmpl-fake-${++this.ids}`;
    const model = String(body?.['model'] ?? 'fake-model');
    const chunks = raw ?? toOpenAIChunks(reply.chunks ?? [], id, model);
    if (body?.['stream'] !== true)
      return sendJson(res, 200, raw ? raw[0] : toCompletion(reply.chunks ?? [], id, model));
    const includeUsage =
      (body['stream_options'] as { include_usage?: unknown } | undefined)?.include_usage === true;
    res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
    let sent = 0;
    for (const c of chunks) {
      const isUsage = (c as { choices?: unknown[] }).choices?.length === 0;
      if (isUsage && !includeUsage && !raw) continue;
      if (reply.resetAfterChunks === sent) {
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(c)}\n\n`);
      sent++;
    }
    res.end('data: [DONE]\n\n');
  }
}

function openAIError(message: string, code: string): unknown {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

/** Gemini chunks as Chat Completions stream chunks (see {@link FakeOpenAIServer}). */
export function toOpenAIChunks(
  chunks: GenerateContentResponse[],
  id: string,
  model: string,
): unknown[] {
  const out: unknown[] = [];
  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model };
  let calls = 0;
  let finish: string | null = null;
  let usage: unknown;
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    for (const part of (candidate?.content?.parts ?? []) as Part[]) {
      if (part.functionCall) {
        const index = calls++;
        const args = JSON.stringify(part.functionCall.args ?? {});
        const half = Math.floor(args.length / 2);
        const callId = part.functionCall.id ?? `call_fake_${index}`;
        out.push({
          ...base,
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index,
                    id: callId,
                    type: 'function',
                    function: { name: part.functionCall.name, arguments: '' },
                  },
                ],
              },
              finish_reason: null,
            },
          ],
        });
        out.push({
          ...base,
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] },
              finish_reason: null,
            },
          ],
        });
        out.push({
          ...base,
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] },
              finish_reason: null,
            },
          ],
        });
      } else if (typeof part.text === 'string' && part.text !== '') {
        const delta = part.thought ? { reasoning_content: part.text } : { content: part.text };
        out.push({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
      }
    }
    if (candidate?.finishReason) finish = FINISH[String(candidate.finishReason)] ?? 'stop';
    if (chunk.usageMetadata) usage = toUsage(chunk.usageMetadata);
  }
  out.push({
    ...base,
    choices: [
      { index: 0, delta: {}, finish_reason: calls > 0 ? 'tool_calls' : (finish ?? 'stop') },
    ],
  });
  if (usage) out.push({ ...base, choices: [], usage });
  return out;
}

function toUsage(u: NonNullable<GenerateContentResponse['usageMetadata']>): unknown {
  const thoughts = u.thoughtsTokenCount ?? 0;
  const completion = (u.candidatesTokenCount ?? 0) + thoughts;
  return {
    prompt_tokens: u.promptTokenCount ?? 0,
    completion_tokens: completion,
    total_tokens: u.totalTokenCount ?? (u.promptTokenCount ?? 0) + completion,
    ...(thoughts ? { completion_tokens_details: { reasoning_tokens: thoughts } } : {}),
    ...(u.cachedContentTokenCount
      ? { prompt_tokens_details: { cached_tokens: u.cachedContentTokenCount } }
      : {}),
  };
}

function toCompletion(chunks: GenerateContentResponse[], id: string, model: string): unknown {
  const merged = mergeChunks(chunks);
  const candidate = merged.candidates?.[0];
  const parts = (candidate?.content?.parts ?? []) as Part[];
  const text = parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
  const reasoning = parts
    .filter((p) => p.thought)
    .map((p) => p.text)
    .join('');
  const calls = parts
    .filter((p) => p.functionCall)
    .map((p, i) => ({
      id: p.functionCall?.id ?? `call_fake_${i}`,
      type: 'function',
      function: {
        name: p.functionCall?.name,
        arguments: JSON.stringify(p.functionCall?.args ?? {}),
      },
    }));
  return {
    id,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || null,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(calls.length ? { tool_calls: calls } : {}),
        },
        finish_reason: calls.length
          ? 'tool_calls'
          : (FINISH[String(candidate?.finishReason)] ?? 'stop'),
      },
    ],
    ...(merged.usageMetadata ? { usage: toUsage(merged.usageMetadata) } : {}),
  };
}
