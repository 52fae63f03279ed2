import type {
  Content,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type {
  ApprovalRequest,
  BudgetExceededInfo,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  WarningInfo,
} from '../events.js';
import type { AgentTool, ToolResult } from './agent-tool.js';
import type {
  ModelCall,
  ModelResponseStream,
  ToolCheck,
  ToolDecision,
  ToolRun,
} from './interceptors.js';
import type { ApprovalMode } from './policy-rule.js';
import type { SessionContext } from './session-context.js';
import type { SessionLog } from './session-log.js';
export type { SubagentCallInfo } from './subagent-call.js';

/** The tool through which a parent model delegates to a subagent (gemini-cli's `invoke_agent`). */
export const INVOKE_AGENT_TOOL_NAME = 'invoke_agent';

/** Mid-stream re-sends of a model call, as the session does them. */
export interface RuntimeStreamRetry {
  readonly maxAttempts: number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A subagent's own MCP servers for one run (gemini-cli's `mcp_servers`): connected (or failed, each failure a
 * warning) when {@link SessionRuntime.startMcpServers} resolves; `close()` stops them.
 */
export interface RunMcpServers {
  /** The connected servers' tools, named `mcp_<server>_<tool>` as the parent's MCP tools are. */
  tools(): AgentTool[];
  /** Stops every server (stdio servers with their process group). */
  close(): Promise<void>;
}

/**
 * What a feature may use of a session to run a nested conversation inside it — a subagent — with the session's
 * model, features and policy: the same chains the session's own loop runs through, so hooks, policy rules,
 * approvals and usage apply to nested calls exactly as to the session's. {@link FeatureSession.runtime} hands it
 * to each feature's `initialize`.
 */
export interface SessionRuntime {
  /** The session's id. */
  readonly sessionId: string;
  /** The model id the session sends now (what a subagent's `model: 'inherit'` means). */
  model(): string;
  /** The generation settings the session sends with `model` (gemini-cli's defaults and the agent's option). */
  generationConfig(model: string): GenerateContentConfig | undefined;
  /** The context window of `model` in tokens (gemini-cli's `tokenLimit`, or the agent's `context` option). */
  tokenLimit(model: string): number;
  /** The session's current approval mode. */
  approvalMode(): ApprovalMode;
  /** One model call through the features' model interceptors and the session's model. */
  callModel(call: ModelCall): Promise<ModelResponseStream>;
  /** One tool call's decision: the features' decision interceptors, the policy last. */
  decideTool(check: ToolCheck): Promise<ToolDecision>;
  /** One tool execution: the features' tool interceptors, then the tool. */
  runTool(run: ToolRun): Promise<ToolResult>;
  /** The tools the session's features offer now, without those the policy shuts out. */
  tools(ctx: SessionContext): Promise<AgentTool[]>;
  /** A fresh context of the session whose `transcript` is `history` (a nested conversation's own). */
  contextFor(signal: AbortSignal, history: readonly Content[]): SessionContext;
  /** The context files' text (GEMINI.md and its imports) as the session's system prompt carries it, if any. */
  readonly memory: string | undefined;
  /** The parts the session's first user turn starts with (gemini-cli's `<session_context>`); may be empty. */
  readonly contextParts: readonly Part[];
  /** The workspace's roots (absolute real paths), writable ones first. */
  readonly roots: ReadonlyArray<{ readonly path: string; readonly readOnly: boolean }>;
  /**
   * Opens the log of a nested conversation of this session, new: gemini-cli's `chats/<sessionId>/<childId>.jsonl`
   * with `kind: "subagent"` in the file store. With `resume`, reopens that conversation as stored (its held turn,
   * if any, as `pausedTurn`).
   *
   * @throws SessionNotFoundError (`resume`) when the store has no such conversation in this session.
   */
  openChildLog(childId: string, options?: { resume?: boolean }): Promise<SessionLog>;
  /** Durable approvals of nested runs (`approvals: 'pause'`): their held turns, stored in their own logs. */
  readonly nestedApprovals: NestedApprovals;
  /**
   * Counts a nested model call in the session's usage, under `source` (the subagent's name), and in the session's
   * budget at `model`'s price (default: the session's model).
   */
  addUsage(
    source: string,
    usage: GenerateContentResponseUsageMetadata | undefined,
    model?: string,
  ): void;
  /**
   * Starts MCP servers for one nested run on the agent's MCP terms (folder trust, `mcp.allowed` / `mcp.excluded`,
   * redacted environment); each server that fails or is blocked is reported to `onWarning`, not thrown. The caller
   * closes them when the run ends. Rejects only when `signal` aborts (after stopping what started).
   *
   * @throws ConfigurationError when a configuration is not an MCP server's (`command`, `url` or `httpUrl`).
   */
  startMcpServers(
    servers: Readonly<Record<string, Record<string, unknown>>>,
    signal: AbortSignal,
    onWarning: (warning: WarningInfo) => void,
  ): Promise<RunMcpServers>;
  /** A budget for one subagent run, starting now (see {@link RunBudget}). */
  subagentBudget(): RunBudget;
  /**
   * One non-streamed call to the session's model client, as gemini-cli makes its utility calls (the grounded answer
   * of `google_web_search`): no model interceptors, no history; counted in the session's usage totals and budget.
   *
   * @throws LimitExceededError (`BUDGET_EXCEEDED`) when the call would cross the session's budget: nothing is sent.
   */
  generateContent(
    request: GenerateContentParameters,
    signal: AbortSignal,
  ): Promise<GenerateContentResponse>;
  /** The agent's per-tool-call time limit, if any. */
  readonly toolTimeoutMs: number | undefined;
  /** The agent's largest accepted model response, if set. */
  readonly maxResponseBytes: number | undefined;
  readonly streamRetry: RuntimeStreamRetry;
}

/**
 * One call of a nested run's model turn held for approvals, in call order: answered already (`done`), or waiting
 * for a human (`paused`). The loop's tool outcomes have this shape.
 */
export type HeldCallOutcome =
  | { kind: 'done'; response: ToolCallResponseInfo }
  | {
      kind: 'paused';
      paused: {
        input: { request: ToolCallRequestInfo };
        tool: AgentTool;
        args: Record<string, unknown>;
        approval: ApprovalRequest;
      };
    };

/** A nested run's held turn once decided: how its loop continues. */
export interface NestedResolution {
  /** Every call in call order: answered (refused now, or before the pause), or approved (`paused`: it runs now). */
  outcomes: HeldCallOutcome[];
  /** The approved calls' ids. */
  allowed: string[];
  /** The calls refused now, as answered (for `tool_call_response` events). */
  denied: ToolCallResponseInfo[];
}

/**
 * Durable approvals for a nested conversation of the session (a subagent run with `approvals: 'pause'`), on the
 * session's terms: the held turn is stored in the run's own log, decisions fail closed as `resolveApprovals`
 * decides the session's own calls, and they are recorded in the session's approval log (`allow_always` as a
 * session rule).
 */
export interface NestedApprovals {
  /** Stores a held turn in the run's log, durably when it resolves (before the parent announces it). */
  hold(log: SessionLog, outcomes: readonly HeldCallOutcome[]): Promise<void>;
  /** The requests waiting in a run's reopened log (empty when none is held). */
  pending(log: SessionLog): ApprovalRequest[];
  /**
   * Decides the held turn of a reopened run log with the human's decisions (`{ callId, decision }`, as
   * `session.resolveApprovals` takes them), against `history` (the log's) and `tools` (the run's, by name); stores
   * the decisions in the log before anything runs.
   *
   * @throws ConfigurationError when nothing is held there, or for an invalid decision or unknown call id.
   */
  resolve(input: {
    log: SessionLog;
    /** The run's id (the `prompt_id` of its calls). */
    runId: string;
    history: readonly Content[];
    tools: readonly AgentTool[];
    decisions: readonly unknown[];
  }): Promise<NestedResolution>;
}

/** What one subagent run may spend: `budget.perSubagent` for the run, and what the session's budget has left. */
export interface RunBudget {
  /** The figures when the run's next call (about `inputTokens` of prompt to `model`) would cross a limit. */
  check(model: string, inputTokens: number): BudgetExceededInfo | undefined;
  /** Counts one of the run's calls against `perSubagent` (the session's figures count it through `addUsage`). */
  record(model: string, usage: GenerateContentResponseUsageMetadata | undefined): void;
}
