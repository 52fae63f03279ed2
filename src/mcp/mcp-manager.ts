import type { AgentTool } from '../core/agent-tool.js';
import type { Logger } from '../logger.js';
import type { Environment } from '../settings/env-expansion.js';
import {
  blockReason,
  describeServer,
  transportKind,
  type McpServerConfig,
  type McpTransportKind,
} from './mcp-config.js';
import type { McpConnection, McpConnection as McpConnectionClass } from './mcp-connection.js';
import type { DiscoveredTool } from './mcp-discovery.js';
import type { RedactionLists } from './mcp-env.js';
import {
  listMcpResourcesTool,
  readMcpResourceTool,
  type McpResource,
} from './mcp-resource-tools.js';
import { MissingDependencyError } from '../errors.js';
import { loadOptional, MCP_PACKAGE } from '../core/optional-dependency.js';
import { McpTool } from './mcp-tool.js';
import type {
  McpGetPromptResult,
  McpPromptInfo,
  McpServerHandle,
  McpServerState,
} from './mcp-types.js';

/** One server as `agent.mcp.status()` reports it. */
export interface McpServerStatus {
  name: string;
  /** `connected`, `connecting`, `failed` (see `reason`) or `disabled` (blocked, untrusted folder, closed). */
  state: McpServerState;
  /** Why the server failed or is disabled. */
  reason?: string;
  /** Disabled by `mcp.allowed`, `mcp.excluded` or an administrator (gemini's "Blocked"), not by folder trust. */
  blocked: boolean;
  /** How it is reached (undefined: its configuration names no transport). */
  transport: McpTransportKind | undefined;
  /** Where it is: `<url> (http)`, `<command args> (stdio)`. */
  target: string;
  description?: string;
  trust: boolean;
  /** Tools offered to the model (after `includeTools` / `excludeTools`). */
  toolCount: number;
  promptCount: number;
  resourceCount: number;
}

/** A prompt of a server (usable as a prompt template with `agent.mcp.getPrompt`). */
export type McpPrompt = McpPromptInfo & { serverName: string };

/** What {@link McpManager} needs. */
export interface McpManagerOptions {
  /** The configured servers by name (settings merged with the `mcpServers` option). */
  servers: Readonly<Record<string, McpServerConfig>>;
  /** Whether the working folder is trusted: in an untrusted folder no server starts. */
  trusted: boolean;
  /** When set, no server starts, for this reason (e.g. an administrator turned MCP off). */
  disabledReason?: string;
  /** `mcp.allowed` / `mcp.excluded`. */
  allowed?: readonly string[] | undefined;
  excluded?: readonly string[] | undefined;
  /** The host environment (redacted before servers see it). */
  env: Environment;
  redaction: RedactionLists;
  cwd: string;
  /** The workspace directories `roots/list` returns until {@link McpManager.useRoots} replaces them. */
  roots(): readonly string[];
  /** Tool names other features use: an MCP tool with one of them is left out. */
  reservedToolNames: ReadonlySet<string>;
  clientInfo: { name: string; version: string };
  logger: Logger;
  /** Longest message accepted from a stdio server (default 256 MiB). */
  maxMessageBytes?: number;
  /** How long a stdio server has to exit after SIGTERM (default 2 s). */
  killGraceMs?: number;
}

/**
 * A warning about the MCP servers, with a stable code: `MCP_SERVER_FAILED` (did not start),
 * `MCP_SERVER_DISCONNECTED` (died; restarts on next use), `MCP_TOOL_SKIPPED` (unusable definition or schema, or a
 * name another tool has), `MCP_TOOL_NAME_COLLISION` (two MCP tools with one name: the later replaces the earlier).
 */
export interface McpWarning {
  code: string;
  message: string;
  /** `mcp:<server>` */
  source: string;
}

/** Receives warnings: a server that failed, a tool that was skipped, a name collision. */
export type McpWarningListener = (warning: McpWarning) => void;

/**
 * The MCP servers of one agent: starts them in parallel (once, when first needed), reports their status, offers
 * their tools (named `mcp_<server>_<tool>`, in server-name order, a later duplicate name replacing an earlier one
 * as in gemini-cli) and the resource tools, and stops them all on `close()`.
 */
export class McpManager {
  private readonly enabled: string[] = [];
  private connections: McpConnection[] = [];
  private readonly disabled = new Map<string, string>();
  private readonly blocked = new Set<string>();
  private readonly listeners = new Set<McpWarningListener>();
  private readonly queued: McpWarning[] = [];
  private readonly adapted = new WeakMap<DiscoveredTool, McpTool>();
  private readonly warned = new Set<string>();
  /** Set when servers are configured but the MCP SDK is not installed. */
  private missing: MissingDependencyError | undefined;
  private started: Promise<void> | undefined;
  private closed = false;
  private cache: AgentTool[] | undefined;
  private rootsOf: () => readonly string[];

  constructor(private readonly options: McpManagerOptions) {
    this.rootsOf = options.roots;
    for (const name of Object.keys(options.servers).sort((a, b) => a.localeCompare(b))) {
      const listed = options.disabledReason ?? blockReason(name, options);
      if (listed !== undefined) this.blocked.add(name);
      const reason =
        listed ??
        (options.trusted
          ? undefined
          : `MCP servers are disabled because the folder ${options.cwd} is not trusted.`);
      if (reason !== undefined) this.disabled.set(name, reason);
      else this.enabled.push(name);
    }
  }

  /** Answers `roots/list` from now on with these directories (a session's workspace roots). */
  useRoots(roots: () => readonly string[]): void {
    this.rootsOf = roots;
  }

  /**
   * A manager of other servers on this one's terms (folder trust, `mcp.allowed` / `mcp.excluded`, redacted
   * environment, roots, client info): a subagent's own `mcp_servers`, started and closed with each of its runs.
   */
  derive(servers: Readonly<Record<string, McpServerConfig>>): McpManager {
    return new McpManager({ ...this.options, servers, roots: () => this.rootsOf() });
  }

  /** Whether any server is configured (started or not). */
  get configured(): boolean {
    return this.enabled.length > 0 || this.disabled.size > 0;
  }

  /**
   * Starts every enabled server in parallel (once); resolves when each is connected or failed. The MCP SDK is
   * loaded here, so an agent whose servers never start never loads it.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.started ??= this.startAll();
    return this.started;
  }

  private async startAll(): Promise<void> {
    if (this.enabled.length === 0) return;
    let McpConnection: typeof McpConnectionClass;
    try {
      ({ McpConnection } = await loadOptional(MCP_PACKAGE, () => import('./mcp-connection.js')));
    } catch (error) {
      if (!(error instanceof MissingDependencyError)) throw error;
      // No MCP SDK: every server fails with the install command; the agent runs on without their tools.
      this.missing = error;
      for (const name of this.enabled) {
        this.warn({ code: 'MCP_SERVER_FAILED', message: error.message, source: `mcp:${name}` });
      }
      return;
    }
    if (this.closed) return;
    this.connections = this.enabled.map(
      (name) =>
        new McpConnection(name, this.options.servers[name] as McpServerConfig, {
          clientInfo: this.options.clientInfo,
          env: this.options.env,
          redaction: this.options.redaction,
          cwd: this.options.cwd,
          maxMessageBytes: this.options.maxMessageBytes ?? 256 * 1024 * 1024,
          killGraceMs: this.options.killGraceMs ?? 2000,
          roots: () => this.rootsOf(),
          logger: this.options.logger,
          onChange: () => {
            this.cache = undefined;
          },
          onWarning: (code, message) => this.warn({ code, message, source: `mcp:${name}` }),
        }),
    );
    await Promise.all(
      this.connections.map(async (connection) => {
        await connection.start();
        if (connection.state === 'failed' && connection.reason) {
          this.warn({
            code: 'MCP_SERVER_FAILED',
            message: connection.reason,
            source: `mcp:${connection.name}`,
          });
        }
      }),
    );
  }

  /** Each configured server's state, in name order. */
  status(): McpServerStatus[] {
    const out: McpServerStatus[] = [];
    for (const name of Object.keys(this.options.servers).sort((a, b) => a.localeCompare(b))) {
      const config = this.options.servers[name] as McpServerConfig;
      const connection = this.connections.find((c) => c.name === name);
      const missing = this.missing !== undefined && this.enabled.includes(name);
      const state: McpServerState = missing
        ? 'failed'
        : (connection?.state ??
          (this.disabled.has(name) || this.closed ? 'disabled' : 'connecting'));
      const reason = missing
        ? this.missing?.message
        : connection
          ? connection.reason
          : this.disabled.get(name);
      out.push({
        name,
        state,
        ...(reason === undefined ? {} : { reason }),
        blocked: this.blocked.has(name),
        transport: transportKind(config),
        target: describeServer(config),
        ...(config.description === undefined ? {} : { description: config.description }),
        trust: config.trust === true,
        toolCount: connection?.tools.length ?? 0,
        promptCount: connection?.prompts.length ?? 0,
        resourceCount: connection?.resources.length ?? 0,
      });
    }
    return out;
  }

  /** The MCP tools to offer now, plus `list_mcp_resources` / `read_mcp_resource` when a server has resources. */
  tools(): AgentTool[] {
    if (this.cache) return this.cache;
    const byName = new Map<string, McpTool>();
    for (const connection of this.connections) {
      for (const discovered of connection.tools) {
        let tool = this.adapted.get(discovered);
        if (tool === undefined) {
          tool = new McpTool(connection, discovered);
          this.adapted.set(discovered, tool);
        }
        if (this.options.reservedToolNames.has(tool.name)) {
          this.warnOnce({
            code: 'MCP_TOOL_SKIPPED',
            message: `MCP tool '${discovered.definition.name}' of server '${connection.name}' is not offered: another tool is named "${tool.name}".`,
            source: `mcp:${connection.name}`,
          });
          continue;
        }
        const previous = byName.get(tool.name);
        if (previous !== undefined) {
          this.warnOnce({
            code: 'MCP_TOOL_NAME_COLLISION',
            message: `Tool with name "${tool.name}" is already registered (tool '${previous.serverToolName}' of MCP server '${previous.serverName}'). Overwriting it with tool '${tool.serverToolName}' of MCP server '${tool.serverName}'.`,
            source: `mcp:${connection.name}`,
          });
          byName.delete(tool.name);
        }
        byName.set(tool.name, tool);
      }
    }
    const tools: AgentTool[] = [...byName.values()];
    if (this.resources().length > 0) {
      const source = {
        resources: () => this.resources(),
        read: (resource: McpResource, signal: AbortSignal) =>
          this.connectionOf(resource.serverName).readResource(resource.uri, signal),
      };
      tools.push(listMcpResourcesTool(source), readMcpResourceTool(source));
    }
    this.cache = tools;
    return tools;
  }

  /** The servers' `instructions`, in gemini-cli's framing (empty when none gave any). */
  instructions(): string {
    return this.connections
      .filter((c) => c.state === 'connected' && c.instructions)
      .map(
        (c) =>
          `The following are instructions provided by the tool server '${c.name}':\n---[start of server instructions]---\n${c.instructions}\n---[end of server instructions]---`,
      )
      .join('\n\n');
  }

  /** The prompts of the connected servers. */
  prompts(): McpPrompt[] {
    return this.connections.flatMap((c) => c.prompts.map((p) => ({ ...p, serverName: c.name })));
  }

  /** Gets a server's prompt with arguments. */
  getPrompt(
    serverName: string,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpGetPromptResult> {
    return this.connectionOf(serverName).getPrompt(name, args, signal);
  }

  /** The resources of the connected servers. */
  resources(): McpResource[] {
    return this.connections.flatMap((c) =>
      c.state === 'connected' ? c.resources.map((r) => ({ ...r, serverName: c.name })) : [],
    );
  }

  /** The error every server failed with because `@modelcontextprotocol/sdk` is not installed, if so. */
  get missingDependency(): MissingDependencyError | undefined {
    return this.missing;
  }

  /** The connection of a server (once started). @throws Error naming the known servers. */
  connectionOf(serverName: string): McpServerHandle {
    return this.connectionNamed(serverName);
  }

  private connectionNamed(serverName: string): McpConnection {
    const connection = this.connections.find((c) => c.name === serverName);
    if (connection) return connection;
    if (this.missing !== undefined && this.enabled.includes(serverName)) throw this.missing;
    const reason =
      this.disabled.get(serverName) ??
      (this.enabled.includes(serverName)
        ? `MCP server '${serverName}' has not started.`
        : undefined);
    throw new Error(
      reason ??
        `No MCP server is named '${serverName}' (configured: ${Object.keys(this.options.servers).join(', ') || 'none'}).`,
    );
  }

  /** Receives every warning; warnings raised while nobody listened are delivered to the first listener. */
  subscribe(listener: McpWarningListener): () => void {
    this.listeners.add(listener);
    for (const warning of this.queued.splice(0)) listener(warning);
    return () => this.listeners.delete(listener);
  }

  /** Stops every server (stdio servers with their whole process group), in parallel. */
  async close(): Promise<void> {
    this.closed = true;
    this.cache = [];
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private warn(warning: McpWarning): void {
    this.options.logger.warn(warning.message, { code: warning.code, source: warning.source });
    if (this.listeners.size === 0) {
      this.queued.push(warning);
      return;
    }
    for (const listener of this.listeners) listener(warning);
  }

  private warnOnce(warning: McpWarning): void {
    if (this.warned.has(warning.message)) return;
    this.warned.add(warning.message);
    this.warn(warning);
  }
}
