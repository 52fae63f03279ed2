import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { GeminiCliAgent } from '../agent/agent.js';
import type { GeminiCliAgentOptions } from '../agent/agent-options.js';
import type { AuthType } from '../model/auth/auth-type.js';
import type { ApprovalHandler } from '../policy/approvals/approval-response.js';
import type { SessionStore } from '../sessions/session-store.js';
import { createBuiltinTools } from '../tools/builtin/create-builtin-tools.js';
import type { AnyTool } from '../core/tool-definition.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { invalidParams } from './acp-errors.js';
import type { ClientMcpServerConfig } from './mcp-servers.js';

/** Credentials given through `authenticate` (they beat the agent's own for the sessions created afterwards). */
export interface AcpAuth {
  /** The method chosen in `authenticate` (one of gemini-cli's auth types). */
  authType?: AuthType;
  apiKey?: string;
  baseUrl?: string;
}

/** What one ACP session adds to the agent it runs on. */
export interface SessionAgentHooks {
  /** Asks the client about `ctx.shell` commands (tool calls pause instead and are asked by the turn). */
  onApproval: ApprovalHandler;
  /** Wraps the session's workspace filesystem (the editor's buffers, and a handle for diffs). */
  filesystem: (base: SandboxFilesystem) => SandboxFilesystem;
  /** Replaces built-in tools of the same name (e.g. `run_shell_command` in the editor's terminal). */
  replaceTools?: readonly AnyTool[];
  /**
   * The client's MCP servers in gemini-cli's config shape, merged over the agent's own (`mcpServers` option and
   * settings; a same name overrides), as gemini-cli's ACP mode does. They start with the session and stop when it
   * closes (the session's agent is closed with it).
   */
  mcpServers: Record<string, ClientMcpServerConfig>;
}

/**
 * Checks an ACP path parameter: absolute, an existing directory.
 *
 * @throws RequestError `-32602` saying what is wrong.
 */
export function checkDirectory(dir: unknown, what: string): string {
  if (typeof dir !== 'string' || !path.isAbsolute(dir)) {
    throw invalidParams(`${what} must be an absolute path (got ${JSON.stringify(dir)}).`);
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw invalidParams(`${what} ${dir} does not exist or is not a directory.`);
  }
  return path.resolve(dir);
}

/**
 * Builds the agents ACP sessions run on, from the agent the server was given: the same options, with the
 * session's `cwd` and extra roots, the credentials from `authenticate`, approvals routed to the editor
 * (`approvals: 'pause'`, so a call waiting for the editor is stored with the session and survives a vanished
 * client), and one session store shared by all of them (a memory store when the agent keeps nothing on disk),
 * so any connection can load what another created.
 */
export class AgentFactory {
  private readonly base: GeminiCliAgentOptions;
  private readonly sharedStore: SessionStore | undefined;

  constructor(agent: GeminiCliAgent, sharedStore: SessionStore | undefined) {
    this.base = agent.options;
    this.sharedStore = sharedStore;
  }

  /** The agent's own working directory (sessions listed without a `cwd` filter come from its project). */
  get defaultCwd(): string {
    return path.resolve(this.base.cwd ?? process.cwd());
  }

  /** The agent's custom tools (for tool titles and kinds). */
  get customTools(): readonly AnyTool[] {
    return this.base.tools ?? [];
  }

  /** An agent for listing and deleting the sessions of `cwd`. */
  forProject(cwd: string, auth: AcpAuth): GeminiCliAgent {
    return new GeminiCliAgent(this.options(cwd, [], auth));
  }

  /** The agent one ACP session runs on. */
  forSession(
    cwd: string,
    additionalDirectories: readonly string[],
    auth: AcpAuth,
    hooks: SessionAgentHooks,
  ): GeminiCliAgent {
    const options = this.options(cwd, additionalDirectories, auth);
    const userFilesystem = this.base.filesystem;
    options.approvals = 'pause';
    options.onApproval = hooks.onApproval;
    // gemini-cli 0.61 excludes ask_user in ACP mode (recorded: acp-reference.json): the editor is asked nothing.
    delete options.onAskUser;
    options.filesystem = (fs) => hooks.filesystem(userFilesystem ? userFilesystem(fs) : fs);
    if (hooks.replaceTools && hooks.replaceTools.length > 0) {
      const names = new Set(hooks.replaceTools.map((t) => t.name));
      options.tools = [
        ...(this.base.tools ?? []).filter((t) => !names.has(t.name)),
        ...hooks.replaceTools,
      ];
      options.builtinTools = builtinNames(this.base.builtinTools).filter((n) => !names.has(n));
    }
    if (Object.keys(hooks.mcpServers).length > 0) {
      options.mcpServers = { ...this.base.mcpServers, ...hooks.mcpServers };
    }
    return new GeminiCliAgent(options);
  }

  private options(
    cwd: string,
    additional: readonly string[],
    auth: AcpAuth,
  ): GeminiCliAgentOptions {
    const options: GeminiCliAgentOptions = { ...this.base, cwd };
    if (additional.length > 0) {
      options.includeDirectories = [...(this.base.includeDirectories ?? []), ...additional];
    }
    if (auth.authType !== undefined) options.authType = auth.authType;
    if (auth.apiKey !== undefined) options.apiKey = auth.apiKey;
    if (auth.baseUrl !== undefined) options.baseUrl = auth.baseUrl;
    if (this.sharedStore !== undefined) {
      delete options.persist;
      options.sessionStore = this.sharedStore;
    }
    return options;
  }
}

/** The names of gemini-cli's built-in tools an agent's `builtinTools` option selects. */
function builtinNames(selection: GeminiCliAgentOptions['builtinTools']): string[] {
  return createBuiltinTools(selection ?? 'all').map((tool) => tool.name);
}
