import { randomBytes } from 'node:crypto';
import type * as Http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FileSessionStore } from '../sessions/file-session-store.js';
import type { SessionStore } from '../sessions/session-store.js';
import { createSessionViewerHandler } from './viewer-handler.js';
import { builtinModule } from '../lazy-require.js';

/** Options of {@link startSessionViewer}. */
export interface SessionViewerOptions {
  /** The project whose sessions are shown (default `process.cwd()`). */
  cwd?: string;
  /** Folder holding `.gemini/` (default `$GEMINI_CLI_HOME`, else the home folder). */
  home?: string;
  /** Show this store's sessions instead of the project's session files. */
  store?: SessionStore;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** Open this session first (the URL gets `#/session/<id>`). */
  sessionId?: string;
  /** How often a followed session is checked, in ms (default 500). */
  pollMs?: number;
}

/** A running viewer (see {@link startSessionViewer}). */
export interface SessionViewer {
  /** `http://127.0.0.1:<port>/<token>/`, plus `#/session/<id>` when a session was asked for. */
  readonly url: string;
  readonly port: number;
  /** Stops serving and ends the live streams. */
  close(): Promise<void>;
}

/**
 * Serves the session viewer on 127.0.0.1 (never another address) with a fresh random token in the URL: the
 * project's sessions, and for one session its timeline (turns, model calls with latency and tokens, thoughts,
 * tool calls with arguments and results, decisions, subagents, estimated cost), following it live.
 */
export async function startSessionViewer(
  options: SessionViewerOptions = {},
): Promise<SessionViewer> {
  const store =
    options.store ??
    new FileSessionStore({
      projectRoot: options.cwd ?? process.cwd(),
      ...(options.home === undefined ? {} : { home: options.home }),
    });
  const token = randomBytes(24).toString('base64url');
  const hosts: string[] = [];
  const handler = createSessionViewerHandler({
    store,
    token,
    allowedHosts: hosts,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });
  const server = builtinModule<typeof Http>('node:http').createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  hosts.push(`127.0.0.1:${port}`, `localhost:${port}`);
  const hash =
    options.sessionId === undefined ? '' : `#/session/${encodeURIComponent(options.sessionId)}`;
  return {
    url: `http://127.0.0.1:${port}/${token}/${hash}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
