import type {
  CountTokensParameters,
  FinishReason,
  CountTokensResponse,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from '@google/genai';
import { InternalError } from '../errors.js';
import { abortableSleep, throwIfAborted } from '../core/abort.js';
import type { ContentGenerator } from '../model/content-generator.js';

/** One scripted model turn: the chunks to stream, or a function computing them from the request. */
export type ScriptedTurn =
  | GenerateContentResponse[]
  | ((
      request: GenerateContentParameters,
    ) => GenerateContentResponse[] | Promise<GenerateContentResponse[]>);

/** A request the {@link ScriptedModel} received, with the method that received it. */
export interface ScriptedRequest {
  method: 'generateContent' | 'generateContentStream' | 'countTokens';
  params: GenerateContentParameters | CountTokensParameters;
}

/** Options for {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Delay before each streamed chunk, in milliseconds (default 0). */
  chunkDelayMs?: number;
}

/** Builds a one-chunk model turn holding `parts`, finishing with STOP. */
export function modelTurn(
  parts: Part[],
  usage?: GenerateContentResponse['usageMetadata'],
): GenerateContentResponse[] {
  return [
    {
      candidates: [
        { content: { role: 'model', parts }, finishReason: 'STOP' as FinishReason, index: 0 },
      ],
      ...(usage ? { usageMetadata: usage } : {}),
    } as unknown as GenerateContentResponse,
  ];
}

/** Builds a model turn answering with `text`. */
export function textTurn(text: string): GenerateContentResponse[] {
  return modelTurn([{ text }]);
}

/** Builds a model turn calling the given tools (in order). */
export function callTurn(
  ...calls: Array<{ name: string; args?: Record<string, unknown>; id?: string }>
): GenerateContentResponse[] {
  return modelTurn(
    calls.map((c) => ({
      functionCall: { name: c.name, args: c.args ?? {}, ...(c.id ? { id: c.id } : {}) },
    })),
  );
}

/**
 * A {@link ContentGenerator} that plays scripted turns in order, records every request, and throws on a call it
 * has no turn for. Call {@link ScriptedModel.assertComplete} at the end of a test to check every turn was used.
 * An aborted signal rejects with the SDK's `AbortError` (before the call or between chunks).
 */
export class ScriptedModel implements ContentGenerator {
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[] = [];
  private readonly turns: ScriptedTurn[];
  private cursor = 0;
  private readonly chunkDelayMs: number;

  constructor(turns: ScriptedTurn[], options: ScriptedModelOptions = {}) {
    this.turns = [...turns];
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
  }

  /** Adds more turns at the end of the script. */
  push(...turns: ScriptedTurn[]): void {
    this.turns.push(...turns);
  }

  /** The `generateContent*` requests received, in order (what most tests inspect). */
  get generateRequests(): GenerateContentParameters[] {
    return this.requests
      .filter((r) => r.method !== 'countTokens')
      .map((r) => r.params as GenerateContentParameters);
  }

  /** Number of turns not yet consumed. */
  get remaining(): number {
    return this.turns.length - this.cursor;
  }

  /** Throws unless every scripted turn was consumed. */
  assertComplete(): void {
    if (this.remaining !== 0) {
      throw new InternalError(
        `ScriptedModel: ${this.remaining} scripted turn(s) were never requested (consumed ${this.cursor} of ${this.turns.length}).`,
      );
    }
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    throwIfAborted(signal);
    const chunks = await this.next('generateContentStream', params);
    const delay = this.chunkDelayMs;
    return (async function* () {
      for (const chunk of chunks) {
        if (delay > 0) await abortableSleep(delay, signal);
        throwIfAborted(signal);
        yield chunk;
      }
    })();
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    throwIfAborted(signal);
    const chunks = await this.next('generateContent', params);
    if (this.chunkDelayMs > 0) await abortableSleep(this.chunkDelayMs, signal);
    return mergeChunks(chunks);
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    throwIfAborted(signal);
    this.requests.push({ method: 'countTokens', params: structuredClone(params) });
    const text = JSON.stringify(params.contents ?? '');
    return { totalTokens: Math.ceil(text.length / 4) };
  }

  private async next(
    method: 'generateContent' | 'generateContentStream',
    params: GenerateContentParameters,
  ): Promise<GenerateContentResponse[]> {
    this.requests.push({ method, params: cloneRequest(params) });
    const turn = this.turns[this.cursor];
    if (turn === undefined) {
      throw new InternalError(
        `ScriptedModel: unexpected ${method} call #${this.cursor + 1}; only ${this.turns.length} turn(s) were scripted.`,
      );
    }
    this.cursor++;
    return typeof turn === 'function' ? await turn(params) : structuredClone(turn);
  }
}

function cloneRequest(params: GenerateContentParameters): GenerateContentParameters {
  const { config, ...rest } = params;
  const { abortSignal: _abortSignal, ...configRest } = config ?? {};
  return structuredClone({ ...rest, ...(config ? { config: configRest } : {}) });
}

function mergeChunks(chunks: GenerateContentResponse[]): GenerateContentResponse {
  const parts: Part[] = [];
  let last: GenerateContentResponse | undefined;
  for (const chunk of chunks) {
    parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    last = chunk;
  }
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: last?.candidates?.[0]?.finishReason,
        index: 0,
      },
    ],
    usageMetadata: last?.usageMetadata,
  } as unknown as GenerateContentResponse;
}
