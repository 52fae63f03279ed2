import {
  agent as acpAgent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type AgentConnection,
  type ClientCapabilities,
  type InitializeResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { GeminiCliAgent } from '../agent/agent.js';
import type { SessionStore } from '../sessions/session-store.js';
import { invalidParams, toRequestError } from './acp-errors.js';
import type { ResolvedAcpServerOptions } from './acp-server-options.js';
import { SessionRegistry } from './acp-sessions.js';
import { AgentFactory, type AcpAuth } from './agent-factory.js';
import { authMethods, authenticate } from './auth-methods.js';
import { ClientGoneError } from './prompt-turn.js';
import { sessionHooks } from './session-hooks.js';

/** A byte stream pair speaking newline-delimited JSON-RPC (stdio, a socket, an in-memory pipe). */
export interface AcpByteStream {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
}

/** One served ACP connection. */
export interface AcpServerConnection {
  /** Resolves once the connection closed and its sessions were released. */
  readonly closed: Promise<void>;
  /** Cancels the running turns, releases the sessions and closes the connection. */
  close(): Promise<void>;
}

/**
 * Serves one ACP connection over `stream` with the official SDK's agent side: every v1 stable agent method,
 * parameters validated by the SDK's schemas (`-32602`), unknown methods `-32601`, malformed JSON `-32700`,
 * requests before `initialize` `-32600`.
 */
export function serveAcpConnection(
  agent: GeminiCliAgent,
  stream: AcpByteStream,
  options: ResolvedAcpServerOptions,
  sharedStore: SessionStore | undefined,
): AcpServerConnection {
  const factory = new AgentFactory(agent, sharedStore);
  let capabilities: ClientCapabilities = {};
  let auth: AcpAuth = {};
  const logger = options.logger;
  const about = `${options.agentInfo.title ?? options.agentInfo.name} ${options.agentInfo.version}`;

  const send = async (sessionId: string, update: SessionUpdate): Promise<void> => {
    try {
      await connection.client.notify(methods.client.session.update, { sessionId, update });
    } catch (error) {
      logger.debug('session/update not delivered', {
        sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const registry = new SessionRegistry({
    factory,
    options,
    about,
    auth: () => auth,
    send,
    requestPermission: async (params, signal) => {
      if (connection.signal.aborted) throw new ClientGoneError();
      try {
        return await connection.client.request(methods.client.session.requestPermission, params, {
          cancellationSignal: signal,
          stopWaitingOnCancel: true,
        });
      } catch (error) {
        if (connection.signal.aborted) throw new ClientGoneError();
        throw error;
      }
    },
    hooks: (sessionId) =>
      sessionHooks({
        sessionId,
        client: () => connection,
        capabilities: () => capabilities,
        options,
      }),
  });

  const app = acpAgent({ name: options.agentInfo.name })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: options.agentInfo,
        authMethods: authMethods(),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: true, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: {
            list: {},
            delete: {},
            resume: {},
            close: {},
            additionalDirectories: {},
          },
          auth: { logout: {} },
        },
      };
    })
    .onRequest(methods.agent.authenticate, async (request) => {
      auth = await authenticate(request.params, agent.options, auth);
      return {};
    })
    .onRequest(methods.agent.logout, () => {
      auth = {};
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const session = await registry.create(params);
      return {
        sessionId: session.id,
        modes: session.modes(),
        configOptions: session.configOptions(),
      };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const session = await registry.reopen(params, true);
      return { modes: session.modes(), configOptions: session.configOptions() };
    })
    .onRequest(methods.agent.session.resume, async ({ params }) => {
      const session = await registry.reopen(params, false);
      return { modes: session.modes(), configOptions: session.configOptions() };
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      await registry.close(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.list, ({ params }) => registry.list(params.cwd, params.cursor))
    .onRequest(methods.agent.session.delete, async ({ params }) => {
      await registry.delete(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      await wrap(() => registry.get(params.sessionId).setMode(params.modeId));
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      if ('type' in params && params.type === 'boolean') {
        throw invalidParams(
          `config option ${JSON.stringify(params.configId)} is not a boolean option.`,
        );
      }
      const configOptions = await wrap(() =>
        registry.get(params.sessionId).setConfigOption(params.configId, params.value),
      );
      return { configOptions };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
      const session = registry.get(params.sessionId);
      const onCancel = () => session.cancel();
      signal.addEventListener('abort', onCancel, { once: true });
      try {
        return await session.prompt(params.prompt);
      } finally {
        signal.removeEventListener('abort', onCancel);
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      // A cancel for a session that is not active (or not generating) changes nothing.
      try {
        registry.get(params.sessionId).cancel();
      } catch {
        logger.debug('session/cancel for an inactive session', { sessionId: params.sessionId });
      }
    });

  const framed = ndJsonStream(
    stream.writable,
    stream.readable,
    options.maxMessageBytes === undefined ? {} : { maxMessageBytes: options.maxMessageBytes },
  );
  const connection: AgentConnection = app.connect(framed);
  const closed = connection.closed.then(async () => {
    await registry.closeAll();
    // The peer sees the end of the stream (as a client sees stdout close when the agent process exits).
    if (!stream.writable.locked) await stream.writable.close().catch(() => undefined);
  });
  return {
    closed,
    async close() {
      await registry.closeAll();
      connection.close();
      await closed;
    },
  };
}

/** Runs a handler body, turning the SDK's errors into JSON-RPC errors. */
async function wrap<T>(body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw toRequestError(error);
  }
}
