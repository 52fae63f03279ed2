import type { Content } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { TokenUsage } from '../loop/usage.js';
import type { AgentFilesystem, AgentShell } from '../workspace/types.js';
import type { GeminiCliAgent } from './agent.js';
import type { GeminiCliSession } from './session.js';

/**
 * What tools and dynamic instructions receive: a fresh snapshot of the session for each model call or tool call.
 */
export interface SessionContext {
  /** The session's id. */
  readonly sessionId: string;
  /** The conversation so far (read-only copy). */
  readonly transcript: readonly Content[];
  /** The session's working directory (absolute). */
  readonly cwd: string;
  /** ISO time at which this context was built. */
  readonly timestamp: string;
  /** Workspace-bound, policy-aware file access. */
  readonly fs: AgentFilesystem;
  /** Workspace-bound, policy-aware command execution. */
  readonly shell: AgentShell;
  /** The agent that owns the session. */
  readonly agent: GeminiCliAgent;
  /** The session itself. */
  readonly session: GeminiCliSession;
  /** Fires when the current `sendStream` is aborted (or a tool's timeout expires). */
  readonly signal: AbortSignal;
}

/** Result of `GeminiCliSession.send`. */
export interface SendResult {
  /** The concatenated `content` events (the model's visible text). */
  text: string;
  /** Every event the stream yielded, in order. */
  events: ServerGeminiStreamEvent[];
  /** Tokens used by this call only. */
  usage: TokenUsage;
}
