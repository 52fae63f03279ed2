import type { Content, GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCallResponseInfo, WarningInfo } from '../events.js';

/**
 * Who decided about one tool call and how, as a session stores it with the call (`toolCalls[].sdkApproval`, a
 * field gemini-cli ignores): the policy's or a human's verdict.
 */
export interface ToolCallApproval {
  /** `allow`, `allow_always` (a human allowed it for the rest of the session), `deny`, or `pending` (held). */
  decision: 'allow' | 'allow_always' | 'deny' | 'pending';
  /** `user`: a human answered; `rule`: a policy rule decided; `default`: the approval mode's default did. */
  by: 'user' | 'rule' | 'default';
  /** ISO time of the decision. */
  timestamp: string;
  /** ISO time the human was asked (an approval request, or the pause that held the call). */
  askedAt?: string;
  /** The deciding rule's label, when a rule decided. */
  rule?: string;
  /** On deny: what the model was told. */
  message?: string;
}

/**
 * Something that happened in a session that the model never sees, stored as a gemini-cli display line (an
 * `info` / `warning` / `error` message whose `content` is `text`; gemini-cli shows it and leaves it out of the
 * history) with the structured facts in `sdkEvent`, a field gemini-cli ignores.
 */
export interface SessionNote {
  level: 'info' | 'warning' | 'error';
  /** The line gemini-cli shows (e.g. its `Context compressed from 62% to 12%.`). */
  text: string;
  /** ISO time. */
  timestamp: string;
  /** What happened: `{ kind: 'retry', attempt, … }`, `{ kind: 'compression', originalTokenCount, … }`. */
  event: { kind: string } & Record<string, unknown>;
}

/**
 * One completed message of a session, as the loop hands it to persistence (awaited before the next model
 * call). `content` is exactly what was appended to the history.
 */
export interface SessionLogEntry {
  /** `user`: a prompt; `model`: a model turn; `tool_results`: the answers to the previous turn's calls. */
  kind: 'user' | 'model' | 'tool_results';
  content: Content;
  /** ISO time the message completed. */
  timestamp: string;
  /** Model id (model turns). */
  model?: string;
  /** Usage reported for the model call (model turns). */
  usage?: GenerateContentResponseUsageMetadata;
  /** The tool responses, with display text and errors (tool_results). */
  responses?: ToolCallResponseInfo[];
  /**
   * A model turn that did not complete (aborted, failed or unusable): its parts are what the user saw plus
   * gemini-cli's `[The previous response was interrupted before it completed.]`. Stored as `interrupted: true`.
   */
  interrupted?: boolean;
  /** Who decided about each answered call, by call id (tool_results), stored with the call's record. */
  approvals?: Readonly<Record<string, ToolCallApproval>>;
}

/** Options of {@link SessionPersistence.open}. */
export interface SessionOpenOptions {
  /** True for `resumeSession(id)`: the session must exist (else `SessionNotFoundError`). */
  resume: boolean;
  /** The session's working directory (file stores derive their project folder from it). */
  cwd: string;
  /**
   * Opens a subagent's conversation inside this session: the file store writes gemini-cli's
   * `chats/<parentSessionId>/<sessionId>.jsonl` with `kind: "subagent"`; such sessions are not listed. With
   * `resume`, the subagent's conversation is reopened from there (to continue it once its approvals are decided).
   */
  parentSessionId?: string;
}

/**
 * A paused turn as stored with a session (durable approvals): a JSON object the agent writes and validates; stores
 * keep it as is.
 */
export type PausedTurnData = Record<string, unknown>;

/** An open session in a store: its prior history and where new messages go. */
export interface SessionLog {
  /** The prior history (empty for a new session). */
  readonly history: Content[];
  /** The file the session is written to, when the store keeps one file per session (the file store). */
  readonly file?: string;
  /**
   * The paused turn stored with the session when it was opened — approvals the last model turn is waiting for —
   * or undefined. When set, `history` ends with that model turn, its calls still unanswered.
   */
  readonly pausedTurn: PausedTurnData | undefined;
  /** Persists one completed message; the loop awaits it before the next model call. */
  append(entry: SessionLogEntry): Promise<void>;
  /**
   * Stores the paused turn of the last model turn (replacing an earlier version of it), durably when it resolves.
   * The next `tool_results` entry clears it in the same write.
   */
  savePausedTurn(turn: PausedTurnData): Promise<void>;
  /**
   * Replaces the stored history with these turns (a compressed history), atomically, durably when it resolves:
   * a resume then sees exactly them. Stores without it keep the full history (a resume sees it uncompressed).
   */
  replaceHistory?(entries: readonly SessionLogEntry[]): Promise<void>;
  /**
   * Stores a display line (a model retry, a compression), after every write asked for before it, durably when it
   * resolves. Stores without it keep no such lines.
   */
  appendNote?(note: SessionNote): Promise<void>;
  /** Releases the session (locks, file handles). Idempotent. */
  close(): Promise<void>;
  /**
   * A turn starts: the log's lease becomes busy (nobody can take the session over until {@link finishTurn}). Writes
   * start a turn by themselves when none runs.
   *
   * @throws SessionLockedError when another session took the session over while this one was idle: this object is
   *   stale and must be opened again (`agent.resumeSession(id)`) to see the newer turns.
   */
  startTurn?(): Promise<void>;
  /**
   * The turn is over: the lease becomes idle (handed over to the next session that opens the id) and the store's
   * file handles are closed. Idempotent.
   */
  finishTurn?(): Promise<void>;
  /** Receives what the store repaired while writing (e.g. a session file rewritten from memory). */
  onWarning?: ((warning: WarningInfo) => void) | undefined;
  /**
   * The session's policy state stored with it ("always allow" rules granted in it), as found (unvalidated: the
   * agent validates it), or undefined when none was stored.
   */
  readonly policyState?: unknown;
  /** The session's budget state as stored (unvalidated), or undefined. */
  readonly budgetState?: unknown;
  /** Stores the session's budget state (limits, spent, a pause), durably when it resolves. */
  saveBudgetState?(state: Record<string, unknown>): Promise<void>;
  /** Stores the session's policy state (replacing the earlier one), durably when it resolves. */
  savePolicyState?(state: Record<string, unknown>): Promise<void>;
}

/**
 * Where sessions are stored: the seam the agent's sessions open their log through. `createFilePersistence()` (the
 * default), `createMemoryPersistence()` and `createStorePersistence({ store })` implement it.
 */
export interface SessionPersistence {
  /**
   * Opens a session.
   *
   * @throws SessionNotFoundError `Session with ID <id> not found` when `resume` is set and it does not exist.
   */
  open(sessionId: string, options: SessionOpenOptions): Promise<SessionLog>;
}
