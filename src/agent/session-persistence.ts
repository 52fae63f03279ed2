import type { Content } from '@google/genai';
import type { SessionLogEntry } from '../loop/session-log-entry.js';

export type { SessionLogEntry } from '../loop/session-log-entry.js';

/** Options of {@link SessionPersistence.open}. */
export interface SessionOpenOptions {
  /** True for `resumeSession(id)`: the session must exist (else `SessionNotFoundError`). */
  resume: boolean;
  /** The session's working directory (file stores derive their project folder from it). */
  cwd: string;
}

/** An open session in a store: its prior history and where new messages go. */
export interface SessionLog {
  /** The prior history (empty for a new session). */
  readonly history: Content[];
  /** Persists one completed message; the loop awaits it before the next model call. */
  append(entry: SessionLogEntry): Promise<void>;
  /** Releases the session (locks, file handles). Idempotent. */
  close(): Promise<void>;
}

/**
 * Where sessions are stored. The default keeps them in memory for the agent's lifetime; the gemini-cli JSONL file
 * store implements the same seam.
 */
export interface SessionPersistence {
  /**
   * Opens a session.
   *
   * @throws SessionNotFoundError `Session with ID <id> not found` when `resume` is set and it does not exist.
   */
  open(sessionId: string, options: SessionOpenOptions): Promise<SessionLog>;
}
