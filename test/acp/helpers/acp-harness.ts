import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import {
  GeminiCliAcpServer,
  GeminiCliAgent,
  type GeminiCliAgentOptions,
  type GeminiCliAcpServerOptions,
} from '../../../src/index.js';
import type { AcpServerConnection } from '../../../src/acp/acp-server.js';
import { bytePipes, initialize, TestAcpClient, type ClientExtras } from './acp-client.js';

/** A temp project folder, removed by `cleanup`. */
export async function tempCwd(): Promise<{ cwd: string; cleanup(): Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), 'gemini-acp-'));
  const cwd = join(base, 'project');
  await mkdir(cwd);
  return { cwd, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** An in-process server and a real client connected through byte pipes. */
export interface Harness {
  server: GeminiCliAcpServer;
  connection: AcpServerConnection;
  client: TestAcpClient;
  clientConnection: acp.ClientConnection;
  ctx: acp.ClientContext;
  /** The raw client end (for hostile bytes). */
  raw: ReturnType<typeof bytePipes>['raw'];
  /** Opens a session in `cwd` (default the harness's). */
  newSession(cwd?: string): Promise<acp.NewSessionResponse>;
  /** Sends a text prompt. */
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** The client vanishes: its end of the pipe closes without a goodbye. */
  vanish(): Promise<void>;
}

/** Starts `new GeminiCliAcpServer(new GeminiCliAgent(agentOptions), serverOptions)` and connects a client. */
export async function startHarness(
  agentOptions: GeminiCliAgentOptions,
  serverOptions: GeminiCliAcpServerOptions = {},
  clientOptions: {
    extras?: ClientExtras;
    capabilities?: acp.ClientCapabilities;
    initialize?: boolean;
  } = {},
): Promise<Harness> {
  const server = new GeminiCliAcpServer(new GeminiCliAgent(agentOptions), serverOptions);
  const pipes = bytePipes();
  const connection = await server.connect(pipes.agent);
  const client = new TestAcpClient(clientOptions.extras);
  const clientConnection = client.app.connect(pipes.client);
  const ctx = clientConnection.agent;
  if (clientOptions.initialize !== false) await initialize(ctx, clientOptions.capabilities ?? {});
  return {
    server,
    connection,
    client,
    clientConnection,
    ctx,
    raw: pipes.raw,
    newSession: (cwd) =>
      ctx.request(acp.methods.agent.session.new, {
        cwd: cwd ?? agentOptions.cwd ?? process.cwd(),
        mcpServers: [],
      }),
    prompt: (sessionId, text) =>
      ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text }],
      }),
    vanish: async () => {
      clientConnection.close();
      await pipes.raw.writable.close().catch(() => undefined);
    },
  };
}

/** The JSON-RPC error a request rejected with. */
export async function rpcError(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof acp.RequestError)
      return { code: error.code, message: error.message, data: error.data };
    throw error;
  }
  throw new Error('expected the request to fail');
}
