import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ListRootsRequestSchema,
  ProgressNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import {
  configProblem,
  MCP_DEFAULT_TIMEOUT_MS,
  transportKind,
  type McpServerConfig,
} from './mcp-config.js';
import {
  discoverPrompts,
  discoverResources,
  discoverTools,
  type DiscoveredTool,
} from './mcp-discovery.js';
import { connectFailureMessage, isAuthFailure } from './mcp-errors.js';
import {
  ComplianceTransport,
  createNetworkTransport,
  createStdioTransport,
  type TransportContext,
} from './mcp-transport.js';

import type { McpServerHandle, McpServerState } from './mcp-types.js';

export type { McpServerState } from './mcp-types.js';

/** What a connection needs from its owner. */
export interface ConnectionContext extends Omit<TransportContext, 'onStderr'> {
  /** The client's name and version (`initialize`). */
  clientInfo: { name: string; version: string };
  /** The workspace directories `roots/list` answers with (read at each request). */
  roots(): readonly string[];
  logger: Logger;
  /** Called when the server's tools, resources or prompts changed (after a `list_changed`, a restart). */
  onChange(): void;
  /** Called with a warning about this server (a skipped tool, a crash), with its code. */
  onWarning(code: string, message: string): void;
}

/** Progress of one call, as the server reports it. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

const CallResult = z.looseObject({});
const STDERR_TAIL = 2000;

/**
 * One configured MCP server: connects (Streamable HTTP, SSE or stdio, with gemini-cli's SSE fallback for a bare
 * `url`), lists its tools, resources and prompts, keeps them current on `list_changed`, runs calls, and restarts
 * when a call needs a server that died. Never throws from `start`: a failure is a state with a reason.
 */
export class McpConnection implements McpServerHandle {
  private currentState: McpServerState = 'connecting';
  private failure: string | undefined;
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private closing = false;
  private stderr = '';
  private readonly progress = new Map<string, (progress: CallProgress) => void>();
  /** The server's tools after filtering (empty until connected). */
  tools: DiscoveredTool[] = [];
  resources: Resource[] = [];
  prompts: Prompt[] = [];
  /** The server's `instructions` from `initialize`. */
  instructions: string | undefined;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly context: ConnectionContext,
  ) {}

  get state(): McpServerState {
    return this.currentState;
  }

  /** Why the server is `failed`. */
  get reason(): string | undefined {
    return this.failure;
  }

  /** The time limit of each request (the server's `timeout`, else 10 minutes). */
  get timeoutMs(): number {
    return this.config.timeout ?? MCP_DEFAULT_TIMEOUT_MS;
  }

  /** Connects and discovers (once at a time); resolves when the server is `connected` or `failed`. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** The connected client, restarting the server first when it failed after having run. */
  async ready(): Promise<Client> {
    if (this.currentState !== 'connected' && !this.closing) await this.start();
    const client = this.client;
    if (this.currentState !== 'connected' || client === undefined) {
      throw new Error(this.failure ?? `MCP server '${this.name}' is not connected.`);
    }
    return client;
  }

  /** Calls a tool by its original name; rejects on transport failures, timeouts and aborts. */
  async callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress?: (progress: CallProgress) => void },
  ): Promise<unknown> {
    const client = await this.ready();
    // Our own progress token and handler (as gemini-cli): the SDK dispatches notifications a microtask late, so a
    // progress notification that arrives with the result would miss a per-request handler the result removed.
    const progressToken = randomUUID();
    if (options.onProgress) this.progress.set(progressToken, options.onProgress);
    try {
      return await client.request(
        {
          method: 'tools/call',
          params: { name: toolName, arguments: args, _meta: { progressToken } },
        },
        CallResult,
        { signal: options.signal, timeout: this.timeoutMs },
      );
    } finally {
      this.progress.delete(progressToken);
    }
  }

  /** Reads a resource of this server. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = await this.ready();
    return client.readResource({ uri }, { timeout: this.timeoutMs, ...(signal ? { signal } : {}) });
  }

  /** Gets a prompt of this server with its arguments (values turned into strings, as gemini-cli does). */
  async getPrompt(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const client = await this.ready();
    const stringArgs: Record<string, string> = {};
    for (const [key, value] of Object.entries(args)) {
      if (value !== undefined && value !== null) stringArgs[key] = String(value);
    }
    return client.getPrompt(
      { name, arguments: stringArgs },
      { timeout: this.timeoutMs, ...(signal ? { signal } : {}) },
    );
  }

  /** Stops the server (for stdio: its whole process group). */
  async close(): Promise<void> {
    this.closing = true;
    await this.starting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.tools = [];
    this.resources = [];
    this.prompts = [];
    if (this.currentState !== 'failed') this.setState('disabled', 'closed');
    await client?.close().catch(() => undefined);
  }

  private setState(state: McpServerState, reason?: string): void {
    this.currentState = state;
    this.failure = state === 'failed' || state === 'disabled' ? reason : undefined;
  }

  private async connect(): Promise<void> {
    const problem = configProblem(this.config);
    if (problem !== undefined) {
      this.setState('failed', `Error connecting to MCP server '${this.name}': ${problem}`);
      return;
    }
    this.setState('connecting');
    const kind = transportKind(this.config);
    let client: Client;
    try {
      try {
        client = await this.open(kind === 'sse' ? 'sse' : kind === 'stdio' ? 'stdio' : 'http');
      } catch (error) {
        if (kind !== 'http+sse' || isAuthFailure(error)) throw error;
        this.context.logger.debug(`MCP server '${this.name}': HTTP failed, trying SSE.`);
        client = await this.open('sse');
      }
      if (this.closing) {
        await client.close();
        return;
      }
      await this.discover(client);
    } catch (error) {
      this.setState('failed', connectFailureMessage(this.name, error, this.stderrTail()));
      return;
    }
    this.client = client;
    client.onclose = () => this.lost(client);
    this.setState('connected');
    this.context.onChange();
  }

  private async open(kind: 'http' | 'sse' | 'stdio'): Promise<Client> {
    const client = new Client(this.context.clientInfo, {
      capabilities: { roots: { listChanged: true } },
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.context
        .roots()
        .map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) })),
    }));
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.progress.get(String(progressToken))?.({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    });
    client.onerror = (error) =>
      this.context.logger.debug(`MCP server '${this.name}': ${error.message}`);
    const transport: Transport =
      kind === 'stdio'
        ? new ComplianceTransport(
            createStdioTransport(this.config, {
              ...this.context,
              onStderr: (chunk) => this.captureStderr(chunk),
            }),
          )
        : createNetworkTransport(this.config, kind, this.context);
    try {
      await client.connect(transport, { timeout: this.timeoutMs });
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private async discover(client: Client): Promise<void> {
    const options = { timeout: this.timeoutMs };
    // The three lists in parallel: one round trip of handshake latency instead of three.
    const [prompts, tools, resources] = await Promise.all([
      discoverPrompts(client, options),
      discoverTools(client, this.name, this.config, options),
      discoverResources(client, options),
    ]);
    for (const warning of tools.warnings) this.context.onWarning('MCP_TOOL_SKIPPED', warning);
    if (prompts.length === 0 && tools.items.length === 0 && resources.length === 0) {
      await client.close().catch(() => undefined);
      throw new Error('No prompts, tools, or resources found on the server.');
    }
    this.tools = tools.items;
    this.resources = resources;
    this.prompts = prompts;
    this.instructions = client.getInstructions();
    this.listen(client);
  }

  private listen(client: Client): void {
    const capabilities = client.getServerCapabilities();
    const refresh = (what: () => Promise<void>) => async () => {
      try {
        await what();
        this.context.onChange();
      } catch (error) {
        this.context.logger.debug(`MCP server '${this.name}': refresh failed: ${String(error)}`);
      }
    };
    const options = { timeout: this.timeoutMs };
    if (capabilities?.tools) {
      client.setNotificationHandler(
        ToolListChangedNotificationSchema,
        coalesce(
          refresh(async () => {
            const tools = await discoverTools(client, this.name, this.config, options);
            for (const warning of tools.warnings)
              this.context.onWarning('MCP_TOOL_SKIPPED', warning);
            this.tools = tools.items;
          }),
        ),
      );
    }
    if (capabilities?.resources) {
      client.setNotificationHandler(
        ResourceListChangedNotificationSchema,
        coalesce(
          refresh(async () => void (this.resources = await discoverResources(client, options))),
        ),
      );
    }
    if (capabilities?.prompts) {
      client.setNotificationHandler(
        PromptListChangedNotificationSchema,
        coalesce(refresh(async () => void (this.prompts = await discoverPrompts(client, options)))),
      );
    }
  }

  /** The connection ended without `close()`: the server crashed or hung up. It restarts on next use. */
  private lost(client: Client): void {
    if (this.closing || this.client !== client) return;
    this.client = undefined;
    const tail = this.stderrTail();
    const message =
      `MCP server '${this.name}' disconnected unexpectedly; it will be restarted on next use.` +
      (tail ? ` Its last output: ${tail}` : '');
    this.setState('failed', message);
    this.context.onWarning('MCP_SERVER_DISCONNECTED', message);
  }

  private captureStderr(chunk: string): void {
    this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    for (const line of chunk.split('\n')) {
      if (line.trim() !== '')
        this.context.logger.debug(`MCP server '${this.name}' stderr: ${line}`);
    }
  }

  private stderrTail(): string {
    return this.stderr.trim().split('\n').slice(-5).join('\n');
  }
}

/** Runs `task` once at a time; a call while it runs schedules one more run after it. */
function coalesce(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await task();
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  return run;
}
