import type { ServerResponse } from 'node:http';
import type { GenerateContentResponse } from '@google/genai';
import {
  googleErrorBody,
  mergeChunks,
  toReply,
  type FakeGeminiReply,
} from './fake-gemini-script.js';
import { LoopbackServer, sendJson, type LoopbackRequest } from './loopback-server.js';

/** A scripted answer of {@link FakeCodeAssistServer}: chunks (neutral Gemini form), or a reply with faults. */
export type FakeCodeAssistTurn =
  | GenerateContentResponse[]
  | FakeGeminiReply
  | ((request: FakeCodeAssistRequest) => GenerateContentResponse[] | FakeGeminiReply);

/** A request the fake received. */
export interface FakeCodeAssistRequest extends LoopbackRequest {
  /** The method after the colon (`loadCodeAssist`, `streamGenerateContent`, …), or `getOperation`. */
  rpc: string;
  /** Parsed JSON body. */
  body: unknown;
}

/** Options of {@link FakeCodeAssistServer}. */
export interface FakeCodeAssistServerOptions {
  /** Answer of `:loadCodeAssist` (default: a `standard-tier` user with project `fake-project`). */
  loadCodeAssist?: unknown;
  /** Makes `:loadCodeAssist` fail with this status and JSON body (default: a Google-shaped error). */
  loadCodeAssistError?: { status: number; body?: unknown };
  /** Answers of `:onboardUser` then of each `GET /v1internal/<operation>`, in order. */
  onboarding?: unknown[];
  /** Model turns, one per `generateContent` / `streamGenerateContent` request. */
  turns?: FakeCodeAssistTurn[];
  /** Accepts a request's `authorization` header (default: any `Bearer` token). */
  authorize?: (authorization: string | undefined) => boolean;
}

/**
 * A loopback Code Assist API (`/v1internal`), as gemini-cli talks to it — point `CODE_ASSIST_ENDPOINT` at
 * {@link FakeCodeAssistServer.baseUrl}: `:loadCodeAssist`, `:onboardUser` and `GET` of the operation,
 * `:generateContent`, `:streamGenerateContent?alt=sse` (each chunk wrapped as `{response, traceId}`) and
 * `:countTokens`. Turns are Gemini chunks (the same `textTurn` / `callTurn` as `ScriptedModel`), so one
 * script serves every provider. Requests without an accepted `Bearer` token get a 401.
 */
export class FakeCodeAssistServer {
  /** Every request, in order. */
  readonly requests: FakeCodeAssistRequest[] = [];
  private readonly options: FakeCodeAssistServerOptions;
  private readonly turns: FakeCodeAssistTurn[];
  private readonly onboarding: unknown[];
  private readonly loopback = new LoopbackServer((req, res) => this.handle(req, res));
  private traces = 0;

  constructor(options: FakeCodeAssistServerOptions = {}) {
    this.options = options;
    this.turns = [...(options.turns ?? [])];
    this.onboarding = [...(options.onboarding ?? [])];
  }

  /** `http://127.0.0.1:<port>` (the value for `CODE_ASSIST_ENDPOINT`). */
  get baseUrl(): string {
    return this.loopback.baseUrl;
  }

  /** Model turns not yet requested. */
  get remaining(): number {
    return this.turns.length;
  }

  /** Adds model turns. */
  enqueue(...turns: FakeCodeAssistTurn[]): this {
    this.turns.push(...turns);
    return this;
  }

  /** The requests of one RPC (`streamGenerateContent`, `loadCodeAssist`, …). */
  requestsOf(rpc: string): FakeCodeAssistRequest[] {
    return this.requests.filter((r) => r.rpc === rpc);
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
    const url = new URL(req.path, 'http://127.0.0.1');
    const match = /^\/v1internal(?::([A-Za-z]+)|\/(.+))$/.exec(url.pathname);
    let body: unknown;
    try {
      body = req.text ? (JSON.parse(req.text) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    const rpc = match?.[1] ?? (match?.[2] ? 'getOperation' : 'unknown');
    this.requests.push({ ...req, rpc, body });
    const authorization = req.headers['authorization'];
    const auth = Array.isArray(authorization) ? authorization[0] : authorization;
    const authorized = this.options.authorize
      ? this.options.authorize(auth)
      : /^Bearer \S+/.test(auth ?? '');
    if (!authorized) {
      return sendJson(
        res,
        401,
        googleErrorBody(401, 'Request had invalid authentication credentials.'),
      );
    }
    switch (rpc) {
      case 'loadCodeAssist':
        if (this.options.loadCodeAssistError) {
          const { status, body } = this.options.loadCodeAssistError;
          return sendJson(res, status, body ?? googleErrorBody(status, 'injected setup error'));
        }
        return sendJson(
          res,
          200,
          this.options.loadCodeAssist ?? {
            currentTier: { id: 'standard-tier', name: 'Gemini Code Assist Standard' },
            cloudaicompanionProject: 'fake-project',
          },
        );
      case 'onboardUser':
      case 'getOperation':
        return sendJson(res, 200, this.onboarding.shift() ?? { done: true, response: {} });
      case 'countTokens':
        return sendJson(res, 200, { totalTokens: Math.ceil(req.text.length / 4) });
      case 'generateContent':
      case 'streamGenerateContent':
        return this.answer(req, { ...req, rpc, body }, res, rpc === 'streamGenerateContent');
      default:
        return sendJson(
          res,
          404,
          googleErrorBody(404, `no route for ${req.method} ${url.pathname}`),
        );
    }
  }

  private answer(
    _raw: LoopbackRequest,
    request: FakeCodeAssistRequest,
    res: ServerResponse,
    stream: boolean,
  ): void {
    const turn = this.turns.shift();
    if (turn === undefined) {
      return sendJson(
        res,
        400,
        googleErrorBody(400, `FakeCodeAssistServer: no scripted turn left.`),
      );
    }
    const reply = toReply(typeof turn === 'function' ? turn(request) : structuredClone(turn));
    const status = reply.status ?? 200;
    if (status < 200 || status > 299) {
      return sendJson(
        res,
        status,
        reply.body ?? googleErrorBody(status, 'injected error'),
        reply.headers,
      );
    }
    const traceId = `trace-${++this.traces}`;
    const wrap = (chunk: GenerateContentResponse) => ({
      response: { candidates: chunk.candidates, usageMetadata: chunk.usageMetadata },
      traceId,
    });
    if (!stream) return sendJson(res, 200, wrap(mergeChunks(reply.chunks ?? [])));
    res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
    const chunks = reply.chunks ?? [];
    for (const [i, chunk] of chunks.entries()) {
      if (reply.resetAfterChunks === i) {
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify(wrap(chunk))}\r\n\r\n`);
    }
    res.end();
  }
}
