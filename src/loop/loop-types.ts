import type {
  GenerateContentConfig,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type { SessionContext } from '../core/session-context.js';
import type { Logger } from '../logger.js';
import type { ContentGenerator } from '../model/content-generator.js';
import type { ToolGate } from '../tools/tool-gate.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolCallOutcome } from '../tools/tool-scheduler.js';
import type { ConversationHistory } from './conversation-history.js';
import type { EventPump } from './event-pump.js';
import type { SessionLogEntry } from '../core/session-log.js';

/** What one model call is prepared with: the system instruction and the tools, computed from a fresh context. */
export interface PreparedModelCall {
  /** Undefined sends no systemInstruction. */
  systemInstruction?: string;
  registry: ToolRegistry;
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

/** Everything the loop needs from the session. The loop knows nothing else about agents. */
export interface LoopEnvironment {
  sessionId: string;
  model: ContentGenerator;
  /** Model id sent in every request. */
  modelName: string;
  /** Extra generation settings merged into every request's config. */
  generationConfig?: GenerateContentConfig;
  history: ConversationHistory;
  /** Appends to history and persists; awaited before the next model call. */
  commit(entry: SessionLogEntry): Promise<void>;
  /** Computes system instruction and tools for one model call (instructions, providers); may throw. */
  prepare(ctx: SessionContext): Promise<PreparedModelCall>;
  /** A fresh context whose `signal` is the given one. */
  contextFor(signal: AbortSignal): SessionContext;
  gate: ToolGate;
  limits: LoopLimits;
  /** Re-sending a model call whose response failed after it started, or was unusable. */
  streamRetry: StreamRetrySettings;
  logger: Logger;
  /** Receives each model call's usage metadata. */
  onUsage(usage: GenerateContentResponseUsageMetadata | undefined): void;
  /** Returns the model id once per session (for `model_info`), then undefined. */
  takeModelInfo(): string | undefined;
  /** Where work running during the loop (retries, gates) emits events. */
  pump: EventPump;
}

/** A tool turn held for approvals: every call's outcome, some still paused. */
export interface PausedTurn {
  outcomes: ToolCallOutcome[];
}

/** A human decision on one paused call. */
export interface ApprovalDecision {
  callId: string;
  /** `allow` runs the call; `deny` answers the model with an error. */
  outcome: 'allow' | 'deny';
  /** Optional text for the model (deny) . */
  message?: string;
}

/** How a loop run starts. */
export type LoopStart =
  | { kind: 'prompt'; parts: Part[]; abandoned?: PausedTurn }
  | { kind: 'approvals'; paused: PausedTurn; decisions: readonly ApprovalDecision[] };

/** How a loop run ended (when it did not throw). */
export type LoopOutcome =
  | { kind: 'completed' | 'cancelled' | 'max_turns' | 'loop_detected' }
  | { kind: 'paused'; paused: PausedTurn };
