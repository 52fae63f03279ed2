import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigurationError } from '../errors.js';
import type { SessionStore } from '../sessions/session-store.js';
import { VIEWER_ASSETS, viewerAsset, type ViewerAssetName } from './viewer-assets.js';
import { listViewerSessions, loadViewerTimeline, locationStamp } from './viewer-data.js';

/** Options of {@link createSessionViewerHandler}. */
export interface SessionViewerHandlerOptions {
  /** Where the sessions come from (e.g. `new FileSessionStore({ projectRoot })`). */
  store: SessionStore;
  /**
   * The secret every request must carry as the first path segment (`/<token>/…`): at least 16 characters of
   * `[A-Za-z0-9_-]`. Give the URL only to whoever may read the sessions.
   */
  token: string;
  /** A path the handler is mounted under (`/viewer`), stripped before the token. Default none. */
  basePath?: string;
  /**
   * `Host` header values accepted (`127.0.0.1:8080`): a guard against DNS rebinding. Default: any `Host` (the
   * token still guards every request).
   */
  allowedHosts?: readonly string[];
  /** How often a followed session is checked for changes, in ms (default 500). */
  pollMs?: number;
}

/** A Node `http` request handler serving the viewer, with a `close()` that ends the live streams. */
export interface SessionViewerHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Ends every live stream (server-sent events) and stops watching. */
  close(): void;
}

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function tokenMatches(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The session viewer as a request handler, to mount in your own server (`http.createServer(handler)`, or
 * `app.use('/viewer', handler)` with `basePath: ''` under Express). Read-only: GET and HEAD only; every request
 * needs the token; every response carries a strict Content-Security-Policy (no inline script, nothing from
 * another origin). Routes, under `/<token>/`: the page (`/`, `viewer.js`, `viewer.css`), `api/sessions`,
 * `api/sessions/<id>` (the timeline) and `api/sessions/<id>/events` (server-sent `timeline` events whenever the
 * session changes).
 *
 * @throws ConfigurationError for a token that is too short or has other characters.
 */
export function createSessionViewerHandler(
  options: SessionViewerHandlerOptions,
): SessionViewerHandler {
  if (!/^[A-Za-z0-9_-]{16,}$/.test(options.token)) {
    throw new ConfigurationError(
      'The viewer token must be at least 16 characters of letters, digits, - and _ (use randomBytes(24).toString("base64url")).',
    );
  }
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const pollMs = options.pollMs ?? 500;
  const streams = new Set<() => void>();

  const follow = (req: IncomingMessage, res: ServerResponse, sessionId: string): void => {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
    });
    let last = '';
    let stamp: string | undefined;
    let busy = false;
    let closed = false;
    const check = async (): Promise<void> => {
      if (busy || closed) return;
      busy = true;
      try {
        const stored = await options.store.load(sessionId).catch(() => undefined);
        const next = stored === undefined ? undefined : await locationStamp(stored.location);
        if (next !== undefined && next === stamp) return;
        stamp = next;
        const timeline = await loadViewerTimeline(options.store, sessionId);
        const text = JSON.stringify(timeline ?? null);
        if (text !== last && !closed) {
          last = text;
          res.write(`event: timeline\ndata: ${text}\n\n`);
        }
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void check().catch(() => undefined), pollMs);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    const stop = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      clearInterval(heartbeat);
      streams.delete(stop);
      res.end();
    };
    streams.add(stop);
    req.on('close', stop);
    void check().catch(() => undefined);
  };

  const route = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (path === '' || path === '/' || path === '/index.html') {
      send(res, 200, VIEWER_ASSETS['index.html'], await viewerAsset('index.html'));
      return;
    }
    const asset = path.slice(1);
    if (asset === 'viewer.js' || asset === 'viewer.css') {
      const name = asset as ViewerAssetName;
      send(res, 200, VIEWER_ASSETS[name], await viewerAsset(name));
      return;
    }
    if (path === '/api/sessions') {
      sendJson(res, 200, await listViewerSessions(options.store));
      return;
    }
    const match = /^\/api\/sessions\/([^/]+)(\/events)?$/.exec(path);
    if (match !== null) {
      let id: string;
      try {
        id = decodeURIComponent(match[1] ?? '');
      } catch {
        sendJson(res, 400, { error: 'bad session id' });
        return;
      }
      if (match[2] !== undefined) {
        follow(req, res, id);
        return;
      }
      const timeline = await loadViewerTimeline(options.store, id);
      if (timeline === undefined) sendJson(res, 404, { error: `no session ${id}` });
      else sendJson(res, 200, timeline);
      return;
    }
    sendJson(res, 404, { error: 'not found' });
  };

  const handler = ((req: IncomingMessage, res: ServerResponse): void => {
    if (
      options.allowedHosts !== undefined &&
      !options.allowedHosts.includes(req.headers.host ?? '')
    ) {
      send(res, 403, 'text/plain; charset=utf-8', 'Forbidden host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, 'text/plain; charset=utf-8', 'The viewer is read-only');
      return;
    }
    let path = (req.url ?? '/').split('?')[0] ?? '/';
    if (base !== '') {
      if (path !== base && !path.startsWith(`${base}/`)) {
        send(res, 404, 'text/plain; charset=utf-8', 'Not found');
        return;
      }
      path = path.slice(base.length);
    }
    const segment = /^\/([^/]*)(.*)$/.exec(path);
    if (segment === null || !tokenMatches(segment[1] ?? '', options.token)) {
      send(
        res,
        403,
        'text/plain; charset=utf-8',
        'Forbidden: open the URL gemini-agent view printed',
      );
      return;
    }
    const rest = segment[2] ?? '';
    if (rest === '') {
      res.writeHead(308, { ...SECURITY_HEADERS, location: `${base}/${options.token}/` });
      res.end();
      return;
    }
    route(req, res, rest).catch((error: unknown) => {
      if (res.headersSent) res.end();
      else sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  }) as SessionViewerHandler;
  handler.close = () => {
    for (const stop of [...streams]) stop();
  };
  return handler;
}
