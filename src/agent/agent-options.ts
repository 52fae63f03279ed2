import type { ExtensionReference } from '../extensions/extension.js';
import type { GenerateContentConfig } from '@google/genai';
import type { Logger } from '../logger.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import type { AuthType } from '../model/auth/auth-type.js';
import type { ModelProvider } from '../model/model-provider.js';
import type { ContentGenerator } from '../model/content-generator.js';
import type { RetryOptions } from '../model/retry.js';
import type { Feature } from '../core/feature.js';
import type { AnyTool } from '../core/tool-definition.js';
import type { BuiltinToolSelection } from '../tools/builtin/create-builtin-tools.js';
import type { HookRunRecord } from '../hooks/hook-executor.js';
import type { AnySdkHook } from '../hooks/hook.js';
import type { TelemetryOptions } from '../telemetry/telemetry-options.js';
import type { SkillReference } from '../skills/skill-reference.js';
import type { Subagent } from '../subagents/subagent.js';
import type { SkillDiscoveryTiers } from '../skills/skill-discovery.js';
import type { ApprovalHandler } from '../policy/approvals/approval-response.js';
import type { AskUserHandler } from '../tools/builtin/ask-user.js';
import type { ApprovalsMode } from '../policy/policy-gate.js';
import type { PolicyOptions } from '../policy/policy-options.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import type { SystemInstructions } from './instructions.js';
import type { SystemPromptOption } from './system-prompt.js';
import type { AgentSettingsOptions } from './agent-settings.js';
import type { ContextOptions } from './context-options.js';
import type { Budget, ModelPrice } from '../context/budget.js';

/** Stop conditions and time limits. */
export interface AgentLimits {
  /** Model calls per `sendStream` (default 100). Reaching it ends the stream with `max_session_turns`. */
  maxTurns?: number;
  /** Time limit per tool call in ms (default none). A call still running then gets an error response. */
  toolTimeoutMs?: number;
  /**
   * Largest model response accepted, in bytes (default 32 MiB). A bigger one is aborted as it arrives and fails
   * the stream with `ResponseTooLargeError`; the session stays usable.
   */
  maxResponseBytes?: number;
}

/**
 * Options of {@link GeminiCliAgent}: the reference SDK's options (`instructions`, `tools`, `model`, `cwd`,
 * `debug`, `recordResponses`, `fakeResponses`) plus ours.
 */
export interface GeminiCliAgentOptions {
  /**
   * System instructions: a string or a function of a fresh `SessionContext`. They are placed, verbatim, where
   * gemini-cli places GEMINI.md: in the context block after the core preamble (see `systemPrompt`).
   */
  instructions?: SystemInstructions;
  /**
   * The base of the system prompt: `'default'` (our core agent preamble — tool use, workspace rules, safety —
   * with the instructions in the GEMINI.md slot), `'none'` (no preamble: the instructions verbatim after the
   * feature sections such as skills), or your own text, which replaces the preamble.
   */
  systemPrompt?: SystemPromptOption;
  /** Custom tools made with `tool()`, or any `AgentTool`. */
  tools?: AnyTool[];
  /**
   * Subagents made with `subagent()` (or loaded from files) the model may delegate to through `invoke_agent`.
   * They come first; `.gemini/agents/*.md` files add more (see docs/subagents.md).
   */
  subagents?: Subagent[];
  /**
   * Where agent files are read from: the trusted workspace's `.gemini/agents/*.md`, then `~/.gemini/agents/*.md`
   * (default `true`: both). `false` reads none; `{ workspace: false }` or `{ user: false }` turns one off.
   */
  agentDiscovery?: boolean | { user?: boolean; workspace?: boolean };
  /**
   * gemini-cli's built-in tools to offer (`read_file`, `write_file`, `run_shell_command`, …): by default the ones
   * gemini-cli 0.61 offers (every built-in but `read_many_files` and `save_memory`); `'all'`, `'read-only'`, a list of names, or
   * `false`. Edits and shell commands still pass the policy, and a tool the policy would refuse whatever its
   * arguments is not offered (settings `tools.core` / `tools.exclude` filter them too).
   */
  builtinTools?: BuiltinToolSelection;
  /**
   * Your own capabilities, each a {@link Feature} (tools, a system-prompt section, policy rules, per-session setup
   * and teardown, interceptors around turns, model calls and tool calls). They join after the built-in tools, the
   * `tools` option and skills, in the order given; the policy decides after all of them. See docs/features.md.
   */
  features?: Feature[];
  /**
   * OpenTelemetry spans for every turn (`invoke_agent`), model call (`chat`) and tool call (`execute_tool`), as
   * the GenAI semantic conventions name them. Default: on with the global tracer provider when
   * `@opentelemetry/api` is installed, else off; prompts and responses only with `logPrompts: true`. See
   * docs/observability.md.
   */
  telemetry?: TelemetryOptions;
  /**
   * In-process hooks made with `hook()` (gemini-cli's 11 events, typed by event). They always run, before the
   * settings files' command hooks of the same event. See docs/hooks.md.
   */
  hooks?: AnySdkHook[];
  /**
   * Run the command hooks of the settings files (`hooks`, `hooksConfig` in the user and system files, and the
   * workspace file in a trusted folder). Default `true` whenever settings are loaded; `false` runs only `hooks`.
   */
  settingsHooks?: boolean;
  /** Called with a record of every hook run: event, name, source, duration, success, error, dropped fields. */
  onHookRun?: (record: HookRunRecord) => void;
  /**
   * Extensions: bundles made with `extension({ ... })` and gemini-cli extension folders referenced with
   * `extensionDir(path)`. They add context, tools, skills, hooks, MCP servers, excluded tools and policy rules (see
   * docs/extensions.md).
   */
  extensions?: ExtensionReference[];
  /**
   * Also load the extensions installed in `~/.gemini/extensions` (gemini-cli's discovery, with its enablement file
   * and `admin.extensions.enabled`). Default `true` when settings are read, `false` with `settings: false`.
   */
  extensionDiscovery?: boolean;
  /**
   * Only these extension folders run (names, case-insensitive; gemini-cli's `-e`); `['none']` runs none. Extensions
   * given in code with `extension()` always run. Default: all that the enablement file enables here.
   */
  enabledExtensions?: string[];
  /** Skill folders made with `skillDir(path)`: a folder holding SKILL.md, or a root of such folders. */
  skills?: SkillReference[];
  /**
   * Also discover skills as gemini-cli does (`~/.gemini/skills`, `~/.agents/skills`, and in a trusted folder the
   * workspace's `.gemini/skills`, `.agents/skills`). Default `true`; `false` loads only `skills`.
   */
  skillDiscovery?: boolean | SkillDiscoveryTiers;
  /**
   * Whether `cwd` is a trusted folder: only then do the workspace's settings, skills and context files load.
   * Default: gemini-cli's rules (`GEMINI_CLI_TRUST_WORKSPACE`, `security.folderTrust.enabled`,
   * `~/.gemini/trustedFolders.json`); with no matching rule, untrusted.
   */
  trustWorkspace?: boolean;
  /**
   * gemini-cli's `settings.json` files (system defaults, `~/.gemini/settings.json`, the workspace's
   * `.gemini/settings.json` in a trusted folder, `/etc/gemini-cli/settings.json`), merged as gemini-cli merges
   * them. Default: all are read. `false` reads none; `{ sources }` picks them. Explicit options always beat the
   * settings (docs/configuration.md lists the keys that are honoured).
   */
  settings?: false | AgentSettingsOptions;
  /**
   * Load gemini-cli's context files (default `true`): `~/.gemini/GEMINI.md` into the system prompt and, in a
   * trusted folder, the workspace's `GEMINI.md` files (from the project root down to `cwd`; names from
   * `context.fileName`) into the first turn, with their `@path` imports. `false` loads none.
   */
  memory?: boolean;
  /**
   * Start each session's first user turn with gemini-cli's `<session_context>` (date, OS, the project's temp
   * folder, the workspace folders and their trees, the workspace's context files). Default `true`. It is sent,
   * not stored in the history.
   */
  sessionContext?: boolean;
  /**
   * Model id or alias (default: `model.name` from the settings, else the provider's default model, else
   * `gemini-2.5-pro`). A prefix picks another provider: `openai:gpt-4.1`, `ollama:llama3.2` (see
   * docs/providers.md).
   */
  model?: string;
  /** Working directory of the sessions (default `process.cwd()`); tools' `ctx.fs` / `ctx.shell` stay inside. */
  cwd?: string;
  /** More writable workspace roots, besides `cwd`. */
  includeDirectories?: string[];
  /**
   * Limits of the workspace sandbox (see docs/security.md): `maxReadBytes` — the largest file any read path
   * loads (default 20 MiB); `maxOutputBytes` — output kept per `ctx.shell` buffer and unread output queued by
   * `ctx.shell.start` (default 1 MiB); `allowHardLinkReads` — read files with several hard links (default
   * false; writing them is always refused).
   */
  sandbox?: { maxReadBytes?: number; maxOutputBytes?: number; allowHardLinkReads?: boolean };
  /**
   * Wraps (or replaces) the workspace filesystem every session's tools see as `ctx.fs`, e.g. to read and write
   * through an editor's buffers (the ACP server does). Called once per session with the workspace-bound
   * filesystem; keep its checks (call `base.resolvePath`) so the workspace boundary holds.
   */
  filesystem?: (base: SandboxFilesystem) => SandboxFilesystem;
  /**
   * MCP servers by name, in gemini-cli's `mcpServers` shape: stdio (`command`, `args`, `env`, `cwd`), Streamable
   * HTTP (`url` + `type: 'http'`, or `httpUrl`) or SSE (`url` + `type: 'sse'`), with `headers`, `timeout`, `trust`,
   * `includeTools` / `excludeTools`. Merged over the settings' `mcpServers` (a same name replaces the entry). They
   * start in parallel when the first session initializes, only in a trusted folder; their tools are named
   * `mcp_<server>_<tool>` and ask before they run unless `trust: true` (see docs/mcp.md).
   */
  mcpServers?: Record<string, McpServerConfig>;
  /** Logs to stderr (unless a `logger` is given). */
  debug?: boolean;
  /** Appends every model response to this JSONL file (gemini-cli's replay format). */
  recordResponses?: string;
  /** Replays model responses from this JSONL file instead of calling the API (each session from line 1). */
  fakeResponses?: string;
  /**
   * How to sign in to Gemini, as gemini-cli's auth types: `'gemini-api-key'`, `'vertex-ai'`, `'gateway'`,
   * `'oauth-personal'` (Login with Google: `~/.gemini/oauth_creds.json`, see `gemini-agent login`) or
   * `'compute-default-credentials'` (ADC, metadata server). Default: gemini-cli's choice — the `apiKey` option,
   * then `security.auth.selectedType` in gemini-cli's settings, then the environment (`GEMINI_API_KEY`,
   * `GOOGLE_GENAI_USE_VERTEXAI`, `GOOGLE_GENAI_USE_GCA`, …), else ADC. See docs/auth.md.
   */
  authType?: AuthType | `${AuthType}`;
  /**
   * A model provider other than Gemini, e.g. `openAICompatible({ baseURL: 'http://localhost:11434/v1' })`
   * (Ollama, vLLM, OpenAI…): models without a prefix go to it. Without it, `model: 'openai:gpt-4.1'` or
   * `'ollama:llama3.2'` picks a built-in provider. See docs/providers.md.
   */
  provider?: ModelProvider;
  /** Gemini API key (default: `GEMINI_API_KEY` / `GOOGLE_API_KEY`). */
  apiKey?: string;
  /** API base URL (default: `GOOGLE_GEMINI_BASE_URL`, else Google's). */
  baseUrl?: string;
  /** Use this model implementation (e.g. `ScriptedModel` from `gemini-agent-sdk/testing`). */
  contentGenerator?: ContentGenerator;
  /** Retry settings for model calls, or `false` to disable retries. */
  retry?: RetryOptions | false;
  /**
   * Generation settings (temperature, thinkingConfig, …) over gemini-cli's defaults for the model (`temperature
   * 1, topP 0.95, topK 64`, thoughts included, `thinkingBudget 8192` for 2.5 models or `thinkingLevel HIGH` for
   * 3 models); `thinkingConfig` merges key by key.
   */
  generationConfig?: Omit<GenerateContentConfig, 'systemInstruction' | 'tools' | 'abortSignal'>;
  /** Turn and time limits. */
  limits?: AgentLimits;
  /** Context window upkeep: compression threshold, tool-output truncation, the token limit (docs/context.md). */
  context?: ContextOptions;
  /**
   * What each session may spend (tokens, dollars) over its whole life; the turn pauses with `budget_exceeded` before
   * a model call that would cross a limit (docs/context.md). `session.extendBudget()` raises it.
   */
  budget?: Budget;
  /** Prices (USD per million tokens) by model id, over the shipped `DEFAULT_PRICES`, for `budget.maxCostUsd`. */
  prices?: Record<string, ModelPrice>;
  /**
   * Which tool calls run, ask or are refused: `{ mode, rules, files }` (see docs/policy.md). Default: gemini-cli's
   * headless defaults — read-only tools and the `tools` option's tools run; `write_file`, `replace`,
   * `run_shell_command`, `web_fetch`, `ctx.shell` commands and discovered skills ask.
   */
  policy?: PolicyOptions;
  /**
   * Asks a human about a call the policy wants approved: return `'allow'`, `'allow_always'`, `'deny'` or
   * `{ decision, message }`. It may take as long as it needs. Without it, a call that needs approval is denied
   * and the model is told it `requires user confirmation`.
   */
  onApproval?: ApprovalHandler;
  /**
   * Answers gemini-cli's `ask_user` tool: the model asks up to 4 questions (choice, text, yes/no) and this returns
   * `{ answers: { "0": "…" } }` or `{ cancelled: true }`. The tool is offered only with it (never headless without
   * one); it may take as long as it needs, and a throw or a wrong answer is told to the model as the call's error.
   */
  onAskUser?: AskUserHandler;
  /**
   * `'ask'` (default): ask `onApproval` while the stream waits. `'pause'`: end the stream with
   * `approval_required` and continue with `session.resolveApprovals(...)`.
   */
  approvals?: ApprovalsMode;
  /**
   * Approvals paused with `approvals: 'pause'` that are older than this (ms) when `resolveApprovals` runs are
   * denied, whatever the decision. Default: they never expire.
   */
  approvalTtlMs?: number;
  /**
   * Where sessions are stored. Default: gemini-cli's JSONL files under `$GEMINI_CLI_HOME` (else `~`)
   * `/.gemini/tmp/<project>/chats/`, so `gemini --resume` sees them. Pass any `SessionStore` (`MemorySessionStore`,
   * a database store) to keep them elsewhere.
   */
  sessionStore?: SessionStore;
  /** `false` keeps sessions in memory only (for this agent's lifetime); nothing is written to disk. */
  persist?: boolean;
  /** Where the SDK logs (default silent, or stderr with `debug`). */
  logger?: Logger;
}
