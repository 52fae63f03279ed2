import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ContentGeneratorMethod } from '../model/content-generator.js';
import {
  googleErrorBody,
  loadReplies,
  mergeChunks,
  toReply,
  type FakeGeminiReply,
  type FakeGeminiRequest,
  type FakeGeminiTurn,
} from './fake-gemini-script.js';

export type { FakeGeminiReply, FakeGeminiRequest, FakeGeminiTurn } from './fake-gemini-script.js';

/** Options of {@link FakeGeminiServer}. */
export interface FakeGeminiServerOptions {
  /** Replies to play first: a replay file path, or JSONL lines (strings or objects) in gemini-cli's format. */
  replay?: string | URL | ReadonlyArray<string | object>;
  /** Programmatic turns, played after the replay lines (more can be added with {@link FakeGeminiServer.enqueue}). */
  turns?: FakeGeminiTurn[];
  /**
   * Answer `countTokens` requests with an estimate (characters / 4) without consuming a turn, unless the next
   * turn is a `countTokens` reply (default true).
   */
  autoCountTokens?: boolean;
}

const ROUTE =
  /^\/(v[^/]+)\/(?:.+\/)?models\/([^/:]+):(generateContent|streamGenerateContent|countTokens|embedContent)$/;

/**
 * A loopback HTTP server speaking the Gemini REST API, so the real `@google/genai` client (and the SDK's Gemini
 * adapter) can be tested end to end: `POST /v1beta/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse` (one `data: <json>\r\n\r\n` event per chunk, as Google sends them) and
 * `:countTokens`.
 *
 * Every request consumes the next scripted turn (one queue, like strict replay); `requests` records method,
 * path, model, headers and parsed body. Turns can inject faults: any status with headers and JSON body (429 +
 * `Retry-After`, 503…), per-chunk delay, a connection reset before the answer or after N chunks, malformed SSE
 * data. A request with no turn left, or whose method differs from the turn's, gets a 400 answer and is listed
 * in `unexpected`; {@link FakeGeminiServer.assertComplete} fails on either.
 *
 * Point a client at it with `baseUrl: await server.start()` or `GOOGLE_GEMINI_BASE_URL`.
 */
export class FakeGeminiServer {
  /** Every API request received, in order. */
  readonly requests: FakeGeminiRequest[] = [];
  /** Requests that found no matching turn (answered with a 400). */
  readonly unexpected: Array<{ request: FakeGeminiRequest; reason: string }> = [];
  private readonly queue: FakeGeminiTurn[] = [];
  private readonly options: FakeGeminiServerOptions;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | undefined;
  private url: string | undefined;

  constructor(options: FakeGeminiServerOptions = {}) {
    this.options = options;
  }

  /** The base URL (`http://127.0.0.1:<port>`); throws before {@link FakeGeminiServer.start}. */
  get baseUrl(): string {
    if (this.url === undefined) throw new Error('FakeGeminiServer: call start() first.');
    return this.url;
  }

  /** Number of turns not yet consumed. */
  get remaining(): number {
    return this.queue.length;
  }

  /** Adds turns at the end of the script. */
  enqueue(...turns: FakeGeminiTurn[]): this {
    this.queue.push(...turns);
    return this;
  }

  /** Loads the replay script (if any), listens on 127.0.0.1 on a random port and returns the base URL. */
  async start(): Promise<string> {
    if (this.url !== undefined) return this.url;
    const replies = this.options.replay === undefined ? [] : await loadReplies(this.options.replay);
    this.queue.unshift(...replies, ...(this.options.turns ?? []));
    const server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent)
          this.sendJson(res, 500, googleErrorBody(500, `FakeGeminiServer: ${String(err)}`));
        else res.destroy();
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Stops the server: destroys open connections, cancels pending delays. */
  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Throws unless every turn was consumed and no request was unexpected. */
  assertComplete(): void {
    const problems: string[] = [];
    if (this.queue.length > 0)
      problems.push(`${this.queue.length} scripted turn(s) were never requested`);
    for (const u of this.unexpected)
      problems.push(`unexpected ${u.request.method} request: ${u.reason}`);
    if (problems.length) throw new Error(`FakeGeminiServer: ${problems.join('; ')}.`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = ROUTE.exec(url.pathname);
    const raw = await readBody(req);
    if (req.method !== 'POST' || !match) {
      this.sendJson(
        res,
        404,
        googleErrorBody(404, `FakeGeminiServer: no route for ${req.method} ${url.pathname}`),
      );
      return;
    }
    const rest = match[3] as string;
    const method: ContentGeneratorMethod =
      rest === 'streamGenerateContent' ? 'generateContentStream' : (rest as ContentGeneratorMethod);
    let body: unknown;
    try {
      body = raw.length ? (JSON.parse(raw) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    const request: FakeGeminiRequest = {
      method,
      httpMethod: req.method,
      path: `${url.pathname}${url.search}`,
      apiVersion: match[1] as string,
      model: decodeURIComponent(match[2] as string),
      headers: { ...req.headers },
      body,
    };
    this.requests.push(request);
    const reply = await this.nextReply(request);
    if (reply === undefined) return this.reject(res, request, 'no scripted turn left');
    if (reply.method !== undefined && reply.method !== method) {
      return this.reject(res, request, `the next scripted turn is for ${reply.method}`);
    }
    await this.answer(req, res, request, reply);
  }

  private async nextReply(request: FakeGeminiRequest): Promise<FakeGeminiReply | undefined> {
    const head = this.queue[0];
    const headIsCount =
      head !== undefined &&
      typeof head !== 'function' &&
      !Array.isArray(head) &&
      head.method === 'countTokens';
    if (
      request.method === 'countTokens' &&
      (this.options.autoCountTokens ?? true) &&
      !headIsCount
    ) {
      return {
        countTokens: { totalTokens: Math.ceil(JSON.stringify(request.body ?? '').length / 4) },
      };
    }
    const turn = this.queue.shift();
    if (turn === undefined) return undefined;
    return toReply(typeof turn === 'function' ? await turn(request) : structuredClone(turn));
  }

  private reject(res: ServerResponse, request: FakeGeminiRequest, reason: string): void {
    this.unexpected.push({ request, reason });
    this.sendJson(
      res,
      400,
      googleErrorBody(400, `FakeGeminiServer: unexpected ${request.method} request (${reason}).`),
    );
  }

  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    request: FakeGeminiRequest,
    reply: FakeGeminiReply,
  ): Promise<void> {
    if (reply.resetBeforeResponse) {
      req.socket.destroy();
      return;
    }
    const status = reply.status ?? 200;
    const delay = reply.chunkDelayMs ?? 0;
    if (status < 200 || status > 299) {
      if (delay > 0) await this.sleep(delay);
      const body =
        reply.body ?? googleErrorBody(status, `FakeGeminiServer: injected ${status} error.`);
      this.sendJson(res, status, body, reply.headers);
      return;
    }
    if (request.method !== 'generateContentStream') {
      if (delay > 0) await this.sleep(delay);
      if (reply.resetAfterChunks !== undefined) {
        req.socket.destroy();
        return;
      }
      let payload: unknown;
      if (request.method === 'countTokens') payload = reply.countTokens ?? { totalTokens: 0 };
      else if (request.method === 'embedContent') payload = reply.body ?? { embeddings: [] };
      else payload = mergeChunks(reply.chunks ?? []);
      this.sendJson(res, status, payload, reply.headers);
      return;
    }
    res.writeHead(status, { 'content-type': 'text/event-stream', ...reply.headers });
    res.flushHeaders();
    const chunks = reply.chunks ?? [];
    for (let i = 0; i <= chunks.length; i++) {
      if (reply.resetAfterChunks === i) {
        await this.sleep(5);
        req.socket.destroy();
        return;
      }
      if (reply.malformed && (reply.malformed.afterChunks ?? 0) === i) {
        res.end(`data: ${reply.malformed.data ?? '{"candidates": [ this is not json'}\r\n\r\n`);
        return;
      }
      const chunk = chunks[i];
      if (chunk === undefined) break;
      if (delay > 0) await this.sleep(delay);
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    }
    res.end();
  }

  private sendJson(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(text);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
