import type { Part } from '@google/genai';
import type {
  ApprovalRequest,
  FileDiff,
  ServerGeminiStreamEvent,
  TodoList,
  TodoStatus,
} from '../events.js';
import type { SessionContext } from './session-context.js';

/** What a tool does, as gemini-cli classifies it. Policies use this (read-only tools run, edits ask, …). */
export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'other';

/** The kinds that never change anything: allowed by default, and the only ones in plan mode. */
export const READ_ONLY_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search', 'think', 'fetch']);

/** gemini-cli's todo states in its order: what `write_todos` accepts and a {@link TodoList} display holds. */
export const TODO_STATUSES = [
  'pending',
  'in_progress',
  'completed',
  'cancelled',
  'blocked',
] as const satisfies readonly TodoStatus[];

/** What a tool hands back to the loop. */
export interface ToolResult {
  /** What the model sees: a string becomes `{ output }`; parts are joined / attached as gemini-cli does. */
  llmContent: string | Part[];
  /**
   * What a human sees (CLI `tool_result`, UIs): text, or gemini-cli's {@link TodoList} for a todo list
   * (`write_todos`). Defaults to the string `llmContent`.
   */
  returnDisplay?: string | TodoList;
  /** Set when the call failed; the model then gets `{ error: message }` and never sees `llmContent`. */
  error?: { message: string; type?: string };
  /** For a call that changed a file: the change (counted in the CLI's `-o json` `stats.files`, stored in sessions). */
  fileDiff?: FileDiff;
  /**
   * Hands the call over to another tool (gemini-cli's `tailToolCallRequest`): the loop runs `name` with `args`
   * under the same call id — validated, decided (decision interceptors, the policy) and run (tool interceptors)
   * like a call from the model, with `originalRequestName` set — and its result replaces this one.
   */
  tailCall?: { name: string; args: Record<string, unknown> };
}

/** Per-call information handed to {@link AgentTool.execute}. */
export interface ToolCallInfo {
  callId: string;
  /** Fires when the call must stop (abort, per-tool timeout). */
  signal: AbortSignal;
  /**
   * Puts an event into the running stream while the call runs: `tool_progress` for progress, `warning`, or a
   * feature's own events (a subagent forwarding its inner events). Always set when the loop runs the tool; optional
   * so that a test can call `execute` with `{ callId, signal }` only.
   */
  emit?(event: ServerGeminiStreamEvent): void;
}

/** An MCP tool's name on its server and where the server is (see {@link AgentTool.mcpContext}). */
export interface McpToolFacts {
  readonly toolName: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
  readonly tcp?: string;
}

/** Outcome of validating raw model arguments. */
export type ToolValidation =
  { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/**
 * Any tool the loop can run: custom `tool()` tools, gemini-cli's built-ins, `activate_skill`, MCP tools.
 * The scheduler validates, asks the policy, then executes.
 */
export interface AgentTool {
  readonly name: string;
  /** Human name, e.g. `ReadFile`. */
  readonly displayName: string;
  readonly description: string;
  readonly kind: ToolKind;
  /**
   * Facts about the tool the policy may match besides its name and kind, as gemini-cli's tool annotations
   * (`readOnlyHint`, `destructiveHint`, … — rules with `toolAnnotations`). MCP tools carry their server's.
   */
  readonly annotations?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The server a tool comes from, when it is served by one (an MCP server): rules with `mcpName` match it, even when
   * the server's name holds a `_` that the `mcp_<server>_<tool>` name cannot show.
   */
  readonly serverName?: string | undefined;
  /**
   * For a tool served by an MCP server: its name there and the server's non-secret connection facts (no `env`, no
   * `headers`), which hooks receive as gemini-cli's `mcp_context`.
   */
  readonly mcpContext?: McpToolFacts | undefined;
  /** JSON Schema of the parameters, as sent in `functionDeclarations[].parametersJsonSchema`. */
  readonly parametersJsonSchema: Record<string, unknown>;
  /**
   * Checks and normalises the model's arguments; an error message goes back to the model. May be asynchronous
   * (a schema with async refinements).
   */
  validate(args: Record<string, unknown>): ToolValidation | Promise<ToolValidation>;
  /** One line saying what a call with these args will do (approval prompts, logs). */
  describe(args: Record<string, unknown>): string;
  /**
   * What a human asked to approve a call should also see (e.g. the skill and the folder tree `activate_skill`
   * would share); merged into the `ApprovalRequest`. Optional.
   */
  approvalDetails?(
    args: Record<string, unknown>,
  ): Promise<Partial<ApprovalRequest> | undefined> | Partial<ApprovalRequest> | undefined;
  /**
   * Runs the call. Throwing `ModelVisibleError` sends `{ error }` to the model; tools that should not stop the
   * loop return `{ error }` in the result instead of throwing.
   */
  execute(
    args: Record<string, unknown>,
    ctx: SessionContext,
    call: ToolCallInfo,
  ): Promise<ToolResult>;
}
