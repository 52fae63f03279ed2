import { ownVersion } from '../package-json.js';
import type { GeminiCliAgent } from '../agent/agent.js';
import { ConfigurationError } from '../errors.js';
import { ACP_PACKAGE, loadOptional } from '../core/optional-dependency.js';
import { MemorySessionStore } from '../sessions/memory-session-store.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { AcpByteStream, AcpServerConnection } from './acp-connection.js';
import {
  resolveAcpServerOptions,
  type GeminiCliAcpServerOptions,
  type ResolvedAcpServerOptions,
} from './acp-server-options.js';
import { stdioStreams } from './stdio.js';

export type { AcpByteStream, AcpServerConnection } from './acp-connection.js';

function packageVersion(): string {
  return ownVersion() ?? '0.0.0';
}

/**
 * Serves an agent over the Agent Client Protocol, so any ACP editor (Zed, JetBrains, Neovim clients) drives it:
 * sessions (new, load with history replay, resume, list, close, delete), prompts with streamed text, thoughts,
 * tool calls with diffs, permission requests for calls the policy wants approved (they wait in the session's
 * store, so a vanished editor never approves anything), modes, models and cancellation.
 *
 * The ACP SDK (`@agentclientprotocol/sdk`, an optional peer dependency: `npm install @agentclientprotocol/sdk`)
 * is loaded on the first `start()` / `connect()`, so importing the package stays light; without it they reject
 * with a `MissingDependencyError` naming the package.
 *
 * @example
 * ```ts
 * const agent = new GeminiCliAgent({ tools: [myTool] });
 * await new GeminiCliAcpServer(agent).start(); // serves stdio until the editor disconnects
 * ```
 */
export class GeminiCliAcpServer {
  /** The agent sessions are created from (each ACP session runs on a copy with its own cwd). */
  readonly agent: GeminiCliAgent;
  private readonly options: ResolvedAcpServerOptions;
  private readonly sharedStore: SessionStore | undefined;
  private readonly connections = new Set<AcpServerConnection>();
  private servingStdio = false;

  /**
   * @throws ConfigurationError for an invalid option.
   */
  constructor(agent: GeminiCliAgent, options: GeminiCliAcpServerOptions = {}) {
    if (typeof agent !== 'object' || agent === null || typeof agent.session !== 'function') {
      throw new ConfigurationError(
        'GeminiCliAcpServer needs a GeminiCliAgent: new GeminiCliAcpServer(agent).',
      );
    }
    this.agent = agent;
    this.options = resolveAcpServerOptions(options ?? {}, packageVersion());
    // An agent that keeps sessions in memory gets one store for all connections, so a session survives its
    // connection and can be loaded again.
    const { persist, sessionStore } = agent.options;
    this.sharedStore =
      persist === false && sessionStore === undefined ? new MemorySessionStore() : undefined;
  }

  /**
   * Serves ACP on the process's stdin/stdout (newline-delimited JSON; nothing else is written to stdout:
   * `console.log` and friends go to stderr while serving). Resolves once the client disconnected (stdin ended or
   * stdout closed) and every session was released.
   */
  async start(): Promise<void> {
    if (this.servingStdio) {
      throw new ConfigurationError(
        'start() is already serving stdin/stdout; call it once per process.',
      );
    }
    this.servingStdio = true;
    const stdio = stdioStreams();
    try {
      const connection = await this.connect(stdio.stream);
      stdio.onBroken(() => void connection.close());
      await connection.closed;
    } finally {
      stdio.restore();
      this.servingStdio = false;
    }
  }

  /**
   * Serves ACP over any Web-stream pair of bytes (a socket, a child's pipes, an in-memory pair in tests). The
   * returned connection's `closed` resolves when the peer goes away and its sessions were released.
   */
  async connect(stream: AcpByteStream): Promise<AcpServerConnection> {
    if (
      !(stream?.readable instanceof ReadableStream) ||
      !(stream?.writable instanceof WritableStream)
    ) {
      throw new ConfigurationError(
        'connect() needs { readable: ReadableStream, writable: WritableStream } of bytes.',
      );
    }
    const { serveAcpConnection } = await loadOptional(
      ACP_PACKAGE,
      () => import('./acp-connection.js'),
    );
    const connection = serveAcpConnection(this.agent, stream, this.options, this.sharedStore);
    this.connections.add(connection);
    void connection.closed.finally(() => this.connections.delete(connection));
    return connection;
  }

  /** Closes every connection: running turns are cancelled and sessions released. */
  async close(): Promise<void> {
    await Promise.all([...this.connections].map((c) => c.close()));
  }
}
