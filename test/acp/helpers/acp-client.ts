import * as acp from '@agentclientprotocol/sdk';

/** Answers a permission request (default: "Allow"). */
export type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;

/** Optional client-side handlers a test adds (fs, terminals). */
export interface ClientExtras {
  readTextFile?: (
    params: acp.ReadTextFileRequest,
  ) => acp.ReadTextFileResponse | Promise<acp.ReadTextFileResponse>;
  writeTextFile?: (params: acp.WriteTextFileRequest) => void | Promise<void>;
  terminal?: {
    create(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
    output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
    waitForExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
    kill(params: acp.KillTerminalRequest): Promise<void>;
    release(params: acp.ReleaseTerminalRequest): Promise<void>;
  };
}

/**
 * A real ACP client (the official SDK's client side) recording every `session/update` and permission request,
 * with waiters for a given update.
 */
export class TestAcpClient {
  readonly updates: acp.SessionNotification[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  answer: PermissionAnswer = (request) => ({
    outcome: { outcome: 'selected', optionId: optionOf(request, 'allow_once') },
  });
  private waiters: Array<{
    test: (n: acp.SessionNotification) => boolean;
    resolve: (n: acp.SessionNotification) => void;
  }> = [];
  private permissionWaiters: Array<(r: acp.RequestPermissionRequest) => void> = [];
  readonly app: acp.ClientApp;

  constructor(extras: ClientExtras = {}) {
    let app = acp
      .client({ name: 'test-client' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
        this.waiters = this.waiters.filter((w) => {
          if (!w.test(params)) return true;
          w.resolve(params);
          return false;
        });
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        this.permissionRequests.push(params);
        for (const waiter of this.permissionWaiters.splice(0)) waiter(params);
        return this.answer(params);
      });
    if (extras.readTextFile) {
      const read = extras.readTextFile;
      app = app.onRequest(acp.methods.client.fs.readTextFile, ({ params }) => read(params));
    }
    if (extras.writeTextFile) {
      const write = extras.writeTextFile;
      app = app.onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
        await write(params);
        return {};
      });
    }
    if (extras.terminal) {
      const t = extras.terminal;
      app = app
        .onRequest(acp.methods.client.terminal.create, ({ params }) => t.create(params))
        .onRequest(acp.methods.client.terminal.output, ({ params }) => t.output(params))
        .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => t.waitForExit(params))
        .onRequest(acp.methods.client.terminal.kill, async ({ params }) => {
          await t.kill(params);
          return {};
        })
        .onRequest(acp.methods.client.terminal.release, async ({ params }) => {
          await t.release(params);
          return {};
        });
    }
    this.app = app;
  }

  /** The updates of one session, in order. */
  of(sessionId: string): acp.SessionUpdate[] {
    return this.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  }

  /** Resolves with the first update (already received or coming) that matches. */
  waitForUpdate(
    test: (update: acp.SessionUpdate, sessionId: string) => boolean,
  ): Promise<acp.SessionNotification> {
    const seen = this.updates.find((n) => test(n.update, n.sessionId));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) =>
      this.waiters.push({ test: (n) => test(n.update, n.sessionId), resolve }),
    );
  }

  /** Resolves with the next permission request. */
  nextPermissionRequest(): Promise<acp.RequestPermissionRequest> {
    return new Promise((resolve) => this.permissionWaiters.push(resolve));
  }
}

/** The id of the first offered option of `kind`. */
export function optionOf(
  request: acp.RequestPermissionRequest,
  kind: acp.PermissionOptionKind,
): string {
  const option = request.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option offered: ${JSON.stringify(request.options)}`);
  return option.optionId;
}

/** A pair of in-memory byte pipes: one end for the agent (`GeminiCliAcpServer.connect`), one for the client. */
export function bytePipes(): {
  agent: { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
  client: acp.Stream;
  /** The raw client end, for writing hostile bytes and reading raw lines. */
  raw: { writable: WritableStream<Uint8Array>; readable: ReadableStream<Uint8Array> };
} {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  return {
    agent: { readable: toAgent.readable, writable: toClient.writable },
    client: acp.ndJsonStream(toAgent.writable, toClient.readable),
    raw: { writable: toAgent.writable, readable: toClient.readable },
  };
}

/** `initialize` with the given client capabilities. */
export function initialize(
  ctx: acp.ClientContext,
  clientCapabilities: acp.ClientCapabilities = {},
): Promise<acp.InitializeResponse> {
  return ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
  });
}
