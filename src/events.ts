import type { FinishReason, GenerateContentResponseUsageMetadata, Part } from '@google/genai';

/**
 * Event type strings: every `GeminiEventType` of gemini-cli 0.61, with the same names and values, so code written
 * for the reference SDK keeps working. Additions (`approval_required`, `warning`, `tool_progress`,
 * `hook_system_message`) use the same grammar, and `tool_call_response`, only declared by gemini-cli's core, is
 * emitted here.
 */
export const GeminiEventType = {
  Content: 'content',
  Thought: 'thought',
  ToolCallRequest: 'tool_call_request',
  ToolCallResponse: 'tool_call_response',
  ToolCallConfirmation: 'tool_call_confirmation',
  ApprovalRequired: 'approval_required',
  UserCancelled: 'user_cancelled',
  Error: 'error',
  ChatCompressed: 'chat_compressed',
  MaxSessionTurns: 'max_session_turns',
  Finished: 'finished',
  LoopDetected: 'loop_detected',
  Citation: 'citation',
  Retry: 'retry',
  Warning: 'warning',
  InvalidStream: 'invalid_stream',
  ModelInfo: 'model_info',
  ContextWindowWillOverflow: 'context_window_will_overflow',
  ToolProgress: 'tool_progress',
  AgentExecutionStopped: 'agent_execution_stopped',
  AgentExecutionBlocked: 'agent_execution_blocked',
  HookSystemMessage: 'hook_system_message',
  BudgetExceeded: 'budget_exceeded',
  SubagentActivity: 'subagent_activity',
} as const;

/** One of the {@link GeminiEventType} strings. */
export type GeminiEventTypeName = (typeof GeminiEventType)[keyof typeof GeminiEventType];

/** A parsed thought part: the first `**…**` is the subject, the rest the description. */
export interface ThoughtSummary {
  subject: string;
  description: string;
}

/** Value of `tool_call_request`: one function call the model asked for. */
export interface ToolCallRequestInfo {
  /** Unique id of this call within the session (`<name>__<raw id>` as gemini-cli records it). */
  callId: string;
  /** Tool name as the model sent it (trimmed). */
  name: string;
  /** Arguments as an object (a JSON string from the model is parsed first). */
  args: Record<string, unknown>;
  /** Always false: the model, not the client, asked for this call. */
  isClientInitiated: false;
  /** The prompt id (the session id, as in the reference SDK). */
  prompt_id: string;
  /**
   * Set when this call replaces another one (an AfterTool hook's `tailToolCallRequest`): the name of the call the
   * model made.
   */
  originalRequestName?: string;
  /** The model response's `responseId`, when it had one. */
  traceId?: string;
}

/** Value of `tool_call_response`: the result of one call, exactly as sent back to the model. */
export interface ToolCallResponseInfo {
  callId: string;
  name: string;
  /** The parts sent to the model for this call (one `functionResponse`, possibly followed by media parts). */
  responseParts: Part[];
  /** What a human sees (UIs, the CLI's `tool_result`): text, or `write_todos`' {@link TodoList} (`{ todos }`). */
  resultDisplay?: string | TodoList;
  /**
   * Present when the call failed, was denied or was cancelled: the message sent to the model as
   * `response.error`, and its type. A plain object (not gemini-cli's `Error` instance), so the response stores
   * and serialises as it is; `error.message` reads the same.
   */
  error?: { message: string; type?: string };
  /**
   * gemini-cli's `errorType` (its `ToolErrorType` strings: `tool_not_registered`, `invalid_tool_params`,
   * `policy_violation`, `execution_failed`, `unhandled_exception`, `file_not_found`, …, plus our `cancelled`,
   * `interrupted`, `timeout` and `loop_detected`): the same as `error.type`.
   */
  errorType?: string;
  /** Wall time the call took, in milliseconds. */
  durationMs?: number;
  /** For a tool that changed a file (`write_file`, `replace`): gemini-cli's `FileDiff` of the change. */
  fileDiff?: FileDiff;
  /** The tool's human name (`ReadFile`), when the tool is known; session records store it as gemini-cli does. */
  displayName?: string;
  /** What the call does in a few words (the tool's `describe(args)`, gemini-cli's invocation description). */
  description?: string;
  /** Whether a UI should render the display text as Markdown (gemini-cli: every tool but the shell). */
  renderOutputAsMarkdown?: boolean;
}

/**
 * Line and character counts of a file change (gemini-cli's `DiffStat`): `model_*` between the file before and
 * what the model proposed, `user_*` between that and what was written (0 unless a human edited the proposal).
 */
export interface DiffStat {
  model_added_lines: number;
  model_removed_lines: number;
  model_added_chars: number;
  model_removed_chars: number;
  user_added_lines: number;
  user_removed_lines: number;
  user_added_chars: number;
  user_removed_chars: number;
}

/** A todo item's state (gemini-cli's `TodoStatus`; the list in its order is `TODO_STATUSES`). */
export type TodoStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled' | 'blocked';
/** One item of the model's todo list (gemini-cli's `Todo`). */
export interface Todo {
  description: string;
  status: TodoStatus;
}
/** `write_todos`' display (gemini-cli's `TodoList`, the list as set): the record's `resultDisplay`, the ACP plan. */
export interface TodoList {
  todos: Todo[];
}

/** A file change as gemini-cli reports it (its `FileDiff`, stored as `resultDisplay` in its session files). */
export interface FileDiff {
  /** Unified patch (`Index:` header, 3 lines of context). */
  fileDiff: string;
  /** The file's base name. */
  fileName: string;
  /** The absolute path written. */
  filePath: string;
  /** The content before the change; null for a new file. */
  originalContent: string | null;
  newContent: string;
  diffStat?: DiffStat;
  isNewFile?: boolean;
}

/** What a human is asked to approve. */
export interface ApprovalRequest {
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** One line saying what the call will do, e.g. `Run shell command: ls -la`. */
  description: string;
  /** Kind of tool (`read`, `edit`, `execute`, …). */
  kind: string;
  /** For `activate_skill`: the skill that would be activated and the folder tree it would share. */
  skill?: { name: string; description: string; location: string; folderTree: string };
  /** For an MCP tool (gemini-cli's `mcp` confirmation details): its server, its name there, what it is for. */
  mcp?: McpApprovalDetails;
  /** The rule that asked, when a policy rule decided. */
  reason?: string;
  /** The subagent that makes the call, when it is not the session's own model (gemini-cli's subagent bus). */
  subagent?: string;
  /** With `subagent`: its run's `agentId` (as in `subagent_activity`) and the parent's `invoke_agent` call id. */
  subagentRun?: { agentId: string; parentCallId?: string };
}

/** What an approval request says about an MCP tool. */
export interface McpApprovalDetails {
  serverName: string;
  /** The tool's name on the server (the model calls it `mcp_<server>_<tool>`). */
  toolName: string;
  toolDescription: string;
  /** The server's input schema of the tool. */
  parameterSchema: Record<string, unknown>;
  /** The server's annotations (`readOnlyHint`, `destructiveHint`, …), when it gave any. */
  annotations?: Record<string, unknown>;
}

/** Value of `approval_required`: calls waiting for `session.resolveApprovals()` (approvals mode `pause`). */
export interface ApprovalRequiredInfo {
  pending: ApprovalRequest[];
}

/** Value of `error`. */
export interface StreamErrorInfo {
  error: { message: string; status?: number; code?: string };
}

/** Value of `finished`. */
export interface FinishedInfo {
  reason: FinishReason | undefined;
  usageMetadata: GenerateContentResponseUsageMetadata | undefined;
}

/**
 * Value of `retry`: an attempt failed and another follows after `delayMs`. With `phase: 'stream'` the failure came
 * after the response had started (a reset mid-stream, or an unusable response): drop the partial output of the
 * failed attempt, as gemini-cli's `retry` event asks. With `phase: 'connect'` nothing of the attempt was shown.
 */
export interface RetryEventInfo {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** How many attempts this phase makes at most. */
  maxAttempts: number;
  /** The wait before the next attempt, in ms. */
  delayMs: number;
  /** `connect`: before any content; `stream`: after the response started (discard its partial output). */
  phase: 'connect' | 'stream';
  /** The cause in a few words: `HTTP 503`, `ECONNREFUSED`, `NO_FINISH_REASON`. */
  reason: string;
  /** HTTP status of the failure, when there was an answer. */
  status?: number;
  /** Network error code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) or invalid-stream type. */
  code?: string;
  /** The API endpoint the call went to, when known. */
  endpoint?: string;
  /** The failure's message. */
  message: string;
}

/**
 * Value of `warning`: something went wrong that did not stop the agent — it was repaired (nothing was lost), or a
 * feature could not do its part (a server that did not start) — and the user should know.
 */
export interface WarningInfo {
  /** Stable code, e.g. `SESSION_FILE_REWRITTEN`. */
  code: string;
  message: string;
  /** Who warns, when it is not the SDK itself: a feature's name, a tool's name. */
  source?: string;
}

/** Value of `invalid_stream`. */
export interface InvalidStreamInfo {
  /** gemini-cli's `InvalidStreamError` type (`NO_FINISH_REASON`, `SAFETY_BLOCKED`, …) or `PROMPT_BLOCKED`. */
  type: string;
  message: string;
}

/**
 * Value of `context_window_will_overflow`: the new message would not fit in the model's context window (its token
 * limit minus the prompt tokens of the last model call), so no model call was made and nothing was stored.
 */
export interface ContextWindowOverflowInfo {
  /** gemini-cli's estimate of the new message's tokens. */
  estimatedRequestTokenCount: number;
  /** The model's token limit minus the last request's prompt tokens. */
  remainingTokenCount: number;
}

/**
 * Value of `budget_exceeded`: the next model call would cross a limit of the session's budget, so the turn paused
 * before it (the history is stored and valid). Raise the limit with `session.extendBudget(...)`, then continue with
 * `session.resumeTurn()` — in this process or after `agent.resumeSession(id)` in another.
 */
export interface BudgetExceededInfo {
  /** Which limit: `input_tokens`, `output_tokens`, `total_tokens` or `cost`. */
  reason: 'input_tokens' | 'output_tokens' | 'total_tokens' | 'cost';
  /** The limit crossed (tokens, or US dollars for `cost`). */
  limit: number;
  /** What the figure would be after the next call's prompt (tokens or dollars). */
  wouldSpend: number;
  /** The estimated prompt tokens of the next call. */
  nextInputTokens: number;
  /** What the session spent so far. */
  spent: { inputTokens: number; outputTokens: number; costUsd: number; modelCalls: number };
  /** The session's limits. */
  budget: {
    maxInputTokens?: number;
    maxOutputTokens?: number;
    maxTotalTokens?: number;
    maxCostUsd?: number;
  };
  /** The model the next call goes to. */
  model: string;
}

/**
 * gemini-cli's `CompressionStatus` values: `COMPRESSED` (1, the only one a `chat_compressed` event carries),
 * `COMPRESSION_FAILED_INFLATED_TOKEN_COUNT` (2: the summary was larger; later automatic compressions only truncate),
 * `COMPRESSION_FAILED_TOKEN_COUNT_ERROR` (3), `COMPRESSION_FAILED_EMPTY_SUMMARY` (4), `NOOP` (5: nothing to do) and
 * `CONTENT_TRUNCATED` (6: old tool outputs truncated, no summary).
 */
export const CompressionStatus = {
  COMPRESSED: 1,
  COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: 2,
  COMPRESSION_FAILED_TOKEN_COUNT_ERROR: 3,
  COMPRESSION_FAILED_EMPTY_SUMMARY: 4,
  NOOP: 5,
  CONTENT_TRUNCATED: 6,
} as const;

/** One of the {@link CompressionStatus} values. */
export type CompressionStatusValue = (typeof CompressionStatus)[keyof typeof CompressionStatus];

/** Value of `chat_compressed` (and what `session.compress()` resolves with). */
export interface ChatCompressedInfo {
  /** The history's tokens before: the last model call's `promptTokenCount` (or the estimate without one). */
  originalTokenCount: number;
  /** The estimated tokens of the new history. */
  newTokenCount: number;
  /** A {@link CompressionStatus} value. */
  compressionStatus: CompressionStatusValue;
}

/** Value of `tool_progress`: how far a running tool call got (MCP progress notifications, long tools). */
export interface ToolProgressInfo {
  callId: string;
  /** The tool's name. */
  name: string;
  /** Progress so far (units are the tool's; with `total`, a fraction of it). */
  progress: number;
  total?: number;
  message?: string;
}

/**
 * Value of `agent_execution_stopped` / `agent_execution_blocked` (gemini-cli's events): a hook stopped the agent
 * (`continue: false`) or blocked a step (`decision: 'deny'`/`'block'`).
 */
export interface AgentExecutionInfo {
  /** The hook's `stopReason` or `reason` (`No reason provided` when it gave none). */
  reason: string;
  /** The hook's `systemMessage`, for the user. */
  systemMessage?: string;
  /** True when an AfterAgent hook also asked to clear the conversation (`clearContext`). */
  contextCleared?: boolean;
}

/** Value of `hook_system_message` (gemini-cli's `hook-system-message`): a hook's `systemMessage` for the user. */
export interface HookSystemMessageInfo {
  hookName: string;
  /** The hook event, e.g. `BeforeTool`. */
  eventName: string;
  message: string;
}

/** The events of a subagent's own loop that its parent's stream carries (inside `subagent_activity`). */
export type SubagentInnerEvent = Extract<
  ServerGeminiStreamEvent,
  {
    type:
      | 'content'
      | 'thought'
      | 'tool_call_request'
      | 'tool_call_response'
      | 'tool_call_confirmation'
      | 'error'
      | 'warning'
      | 'retry'
      | 'tool_progress'
      | 'invalid_stream'
      | 'loop_detected'
      | 'model_info'
      | 'finished';
  }
>;

/**
 * Value of `subagent_activity`: one event of a subagent's run, inside the parent's stream, with what a UI needs to
 * draw the tree — the subagent, its run (`agentId`) and the parent's `invoke_agent` call (`parentCallId`).
 */
export interface SubagentActivityInfo {
  agentName: string;
  /** The run's id (its transcript is `chats/<parentSessionId>/<agentId>.jsonl`). */
  agentId: string;
  /** The parent's `invoke_agent` call id; undefined for a direct `subagent.run()`. */
  parentCallId: string | undefined;
  /** The subagent's own event: a tool call, its result, a thought, an error, … */
  event: SubagentInnerEvent;
}

/** Every event `sendStream` yields, as one discriminated union on `type`. */
export type ServerGeminiStreamEvent =
  | { type: 'content'; value: string; traceId?: string }
  | { type: 'thought'; value: ThoughtSummary; traceId?: string }
  | { type: 'tool_call_request'; value: ToolCallRequestInfo }
  | { type: 'tool_call_response'; value: ToolCallResponseInfo }
  | {
      type: 'tool_call_confirmation';
      value: { request: ToolCallRequestInfo; details: ApprovalRequest };
    }
  | { type: 'approval_required'; value: ApprovalRequiredInfo }
  | { type: 'user_cancelled'; value?: undefined }
  | { type: 'error'; value: StreamErrorInfo }
  | { type: 'chat_compressed'; value: ChatCompressedInfo }
  | { type: 'budget_exceeded'; value: BudgetExceededInfo }
  | { type: 'max_session_turns'; value?: undefined }
  | { type: 'finished'; value: FinishedInfo }
  | { type: 'loop_detected'; value?: undefined }
  | { type: 'citation'; value: string }
  | { type: 'retry'; value: RetryEventInfo }
  | { type: 'warning'; value: WarningInfo }
  | { type: 'invalid_stream'; value: InvalidStreamInfo }
  | { type: 'model_info'; value: string }
  | { type: 'context_window_will_overflow'; value: ContextWindowOverflowInfo }
  | { type: 'tool_progress'; value: ToolProgressInfo }
  | { type: 'agent_execution_stopped'; value: AgentExecutionInfo }
  | { type: 'agent_execution_blocked'; value: AgentExecutionInfo }
  | { type: 'hook_system_message'; value: HookSystemMessageInfo }
  | { type: 'subagent_activity'; value: SubagentActivityInfo };

/** Alias kept for readers of the reference SDK's docs. */
export type GeminiStreamEvent = ServerGeminiStreamEvent;
