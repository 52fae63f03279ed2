import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request received by a loopback fake. */
export interface LoopbackRequest {
  method: string;
  /** Path and query string. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text. */
  text: string;
}

/**
 * The plumbing the loopback fakes share: listen on 127.0.0.1 on a random port, read each body, track sockets
 * so `close()` never hangs on a kept-alive connection, and answer 500 when a handler throws.
 */
export class LoopbackServer {
  private server: Server | undefined;
  private url: string | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly handler: (
    req: LoopbackRequest,
    res: ServerResponse,
    raw: IncomingMessage,
  ) => Promise<void>;

  constructor(
    handler: (req: LoopbackRequest, res: ServerResponse, raw: IncomingMessage) => Promise<void>,
  ) {
    this.handler = handler;
  }

  /** `http://127.0.0.1:<port>`; throws before {@link LoopbackServer.start}. */
  get baseUrl(): string {
    if (this.url === undefined) throw new Error('Loopback fake: call start() first.');
    return this.url;
  }

  /** Starts listening (idempotent) and returns the base URL. */
  async start(): Promise<string> {
    if (this.url !== undefined) return this.url;
    const server = createServer((raw, res) => {
      readBody(raw)
        .then((text) =>
          this.handler(
            {
              method: raw.method ?? 'GET',
              path: raw.url ?? '/',
              headers: { ...raw.headers },
              text,
            },
            res,
            raw,
          ),
        )
        .catch((error: unknown) => {
          if (!res.headersSent)
            sendJson(res, 500, { error: { code: 500, message: String(error) } });
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

  /** Stops the server, destroying open connections. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Writes a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
