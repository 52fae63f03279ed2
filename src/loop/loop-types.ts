import type {
  GenerateContentConfig,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type { ToolResult } from '../core/agent-tool.js';
import type {
  ModelCall,
  ModelResponseStream,
  ToolCheck,
  ToolDecision,
  ToolRun,
} from '../core/interceptors.js';
import type { SessionContext } from '../core/session-context.js';
import type { SessionLogEntry } from '../core/session-log.js';
import type { Logger } from '../logger.js';
import type { BudgetExceededInfo, ChatCompressedInfo, RetryEventInfo } from '../events.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallOutcome } from '../tools/tool-scheduler.js';
import type { ContextTracker } from './context-window.js';
import type { ConversationHistory } from './conversation-history.js';
import type { EventPump } from './event-pump.js';
import type { TurnControl } from './turn-control.js';

/** What one model call is prepared with: the system instruction and the tools, computed from a fresh context. */
export interface PreparedModelCall {
  /** Undefined sends no systemInstruction. */
  systemInstruction?: string;
  registry: ToolRegistry;
  /**
   * Parts sent before the first user turn's own parts and never stored in the history (gemini-cli's
   * `<session_context>`).
   */
  contextParts?: Part[];
}

/** Stop conditions of one `sendStream`. */
export interface LoopLimits {
  /** Model calls per `sendStream` (default 100); reaching it ends the stream with `max_session_turns`. */
  maxTurns: number;
  /** Per-tool-call time limit in ms (none by default). */
  toolTimeoutMs?: number;
  /** Largest model response accepted, in bytes (default 32 MiB); a bigger one fails the call. */
  maxResponseBytes?: number;
}

/** Mid-stream retries of a model call (gemini-cli: at most 4 attempts, 1 s, 2 s, 4 s). */
export interface StreamRetrySettings {
  /** Attempts per model call, the first included (capped at 4; 1 disables re-sending). */
  maxAttempts: number;
  /** The wait between attempts (tests inject one); rejects when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The features' interceptor chains, each composed around its terminal (the model call, "allow", the tool run).
 * The loop calls each in exactly one place.
 */
export interface LoopChains {
  /** One model call: the model interceptors, then the model. */
  callModel(call: ModelCall): Promise<ModelResponseStream>;
  /** One tool call's decision: the decision interceptors (the policy last), then `allow`. */
  decideTool(check: ToolCheck): Promise<ToolDecision>;
  /** One tool execution: the tool interceptors, then the tool. */
  runTool(run: ToolRun): Promise<ToolResult>;
}

/** Everything the loop needs from the session. The loop knows nothing else about agents. */
export interface LoopEnvironment {
  sessionId: string;
  /** Model id sent in every request. */
  modelName: string;
  /** Extra generation settings merged into every request's config. */
  generationConfig?: GenerateContentConfig;
  history: ConversationHistory;
  /** Appends to history and persists; awaited before the next model call. */
  commit(entry: SessionLogEntry): Promise<void>;
  /**
   * Stores a tool turn held for approvals durably; awaited before `approval_required` is yielded, so a consumer
   * that stops at that event (or a process that exits then) leaves it stored.
   */
  commitPause(paused: PausedTurn): Promise<void>;
  /** Computes system instruction and tools for one model call (instructions, providers); may throw. */
  prepare(ctx: SessionContext): Promise<PreparedModelCall>;
  /** A fresh context whose `signal` is the given one. */
  contextFor(signal: AbortSignal): SessionContext;
  chains: LoopChains;
  /** Set by an interceptor's `stop()`: the loop ends at its next step boundary. */
  control: TurnControl;
  limits: LoopLimits;
  /** Re-sending a model call whose response failed after it started, or was unusable. */
  streamRetry: StreamRetrySettings;
  /** Told of each re-sent model call (the `retry` event's value) before the wait, e.g. to store it. */
  onRetry?(info: RetryEventInfo): void;
  logger: Logger;
  /** Receives each model call's usage metadata. */
  onUsage(usage: GenerateContentResponseUsageMetadata | undefined): void;
  /** The history's context accounting (the last `promptTokenCount` and the estimate since). */
  context: ContextTracker;
  /** The model's context window in tokens (gemini-cli's `tokenLimit`, or the `context.tokenLimit` option). */
  tokenLimit: number;
  /**
   * Compresses the history when it outgrew its threshold (gemini-cli's `tryCompressChat`, before each model call);
   * resolves with the outcome, or undefined when nothing was tried.
   */
  compress?(ctx: SessionContext, signal: AbortSignal): Promise<ChatCompressedInfo | undefined>;
  /** The session's budget: checked before each model call; a call that would cross it pauses the turn. */
  budget?: {
    /** The figures when a call with about `inputTokens` of prompt would cross a limit. */
    check(inputTokens: number): BudgetExceededInfo | undefined;
    /** Stores the pause durably (awaited before `budget_exceeded` is yielded). */
    pause(info: BudgetExceededInfo): Promise<void>;
  };
  /** Returns the model id once per session (for `model_info`), then undefined. */
  takeModelInfo(): string | undefined;
  /** Where work running during the loop (retries, gates, tools) emits events. */
  pump: EventPump;
}

/** A tool turn held for approvals: every call's outcome, some still paused. */
export interface PausedTurn {
  outcomes: ToolCallOutcome[];
}

/** The outcome of one held call once a human decided: `allow` runs it; `deny` answers the model with an error. */
export interface ApprovalOutcome {
  callId: string;
  outcome: 'allow' | 'deny';
  /** Optional text for the model (deny). */
  message?: string;
}

/** How a loop run starts. */
export type LoopStart =
  | { kind: 'prompt'; parts: Part[]; abandoned?: PausedTurn }
  /** Continue a turn that paused on the budget: the history already ends with what the model must answer. */
  | { kind: 'continue' }
  | { kind: 'approvals'; paused: PausedTurn; decisions: readonly ApprovalOutcome[] };

/** How a loop run ended (when it did not throw). */
export type LoopOutcome =
  | {
      kind:
        | 'completed'
        | 'cancelled'
        | 'max_turns'
        | 'loop_detected'
        | 'stopped'
        | 'context_overflow'
        | 'budget_paused';
    }
  | { kind: 'paused'; paused: PausedTurn };
