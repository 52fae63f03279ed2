import type {
  MessageRecord,
  SessionKind,
  SessionMetadataRecord,
  SessionRecord,
} from './records.js';

/**
 * Proof that its holder is the one writer of a session. Obtained from {@link SessionStore.acquireLease}; every
 * write takes it. Release it when the session closes; a lease left by a dead process is taken over.
 *
 * A lease is **busy** when acquired. A holder that is between turns marks it **idle** ({@link SessionLease.setIdle}):
 * the next `acquireLease` of the id — another session object, agent or process — then takes it over at once instead
 * of failing, and this lease is **lost**: its writes and `setIdle(false)` reject with `SessionLockedError`, so a stale
 * holder can never write alongside the new one. Stores that cannot hand over omit `setIdle` (their leases stay busy
 * until released).
 */
export interface SessionLease {
  /** The session id the lease is for. */
  readonly sessionId: string;
  /** True once {@link SessionLease.release} ran (or the store dropped the lease). */
  readonly released: boolean;
  /** True once another holder took the lease over (it was idle, or its holder stalled past the store's timeout). */
  readonly lost?: boolean;
  /** Gives the session up. Idempotent; a lost lease releases nothing of the new holder's. */
  release(): Promise<void>;
  /** The file the session is written to, once known (stores that keep one file per session). */
  readonly file?: string | undefined;
  /**
   * `true`: the holder is idle (between turns, or waiting on a paused approval) and hands the session over to the
   * next holder that asks. `false`: a turn starts; resolves once the lease is busy again.
   *
   * @throws SessionLockedError (with `false`) when the lease was taken over meanwhile: the holder is stale and must
   *   open the session again to see the new holder's turns.
   */
  setIdle?(idle: boolean): Promise<void>;
}

/** Something a store repaired while writing (e.g. a session file deleted under it, rewritten from memory). */
export interface StoreWarning {
  /** Stable code, e.g. `SESSION_FILE_REWRITTEN`. */
  code: string;
  message: string;
}

/** What {@link SessionStore.append} may report besides success. */
export interface AppendOutcome {
  /** Repairs made during the append; the records are stored. */
  warnings?: StoreWarning[];
}

/** What a new session starts with. */
export interface NewSessionInit {
  /** ISO start time (also the initial `lastUpdated`, and the time in gemini-cli's file name). */
  startTime: string;
  /** Optional extra metadata fields written on the metadata line (gemini-cli keeps unknown fields). */
  extra?: Record<string, unknown>;
  /**
   * Set for a subagent's conversation: the session it runs in. The metadata says `kind: "subagent"`; the file
   * store writes gemini-cli's `chats/<parentSessionId>/<sessionId>.jsonl`.
   */
  parentSessionId?: string;
}

/** A stored session, folded: metadata plus the live messages in order. */
export interface StoredSession {
  /** Merged metadata; `startTime` and `lastUpdated` are always set (from the file's times when missing). */
  metadata: SessionMetadataRecord & { startTime: string; lastUpdated: string };
  /** The messages after upserts, checkpoints and rewinds. */
  messages: MessageRecord[];
  /** Where the session lives (a file path for the file store), for messages and tooling. */
  location: string;
}

/** One line of `listSessions()`. */
export interface SessionSummary {
  /** The session id (pass it to `resumeSession`). */
  sessionId: string;
  /** ISO time the session started. */
  startTime: string;
  /** ISO time of the last write. */
  lastUpdated: string;
  /** The summary saved for the session (gemini-cli `/chat` summaries), if any. */
  summary?: string;
  /** The first real user prompt (injected context and commands skipped), cut to 200 characters. */
  firstPrompt?: string;
  /** Number of stored messages (user, model and function-response turns, plus gemini-cli's info lines). */
  messageCount: number;
  /** `main`, or `subagent` for sessions gemini-cli recorded for subagents. */
  kind: SessionKind;
  /** Where the session lives (a file path for the file store). */
  location: string;
}

/** Options accepted by the read operations of a {@link SessionStore}. */
export interface StoreReadOptions {
  /** Aborts the operation. */
  signal?: AbortSignal;
}

/** What {@link SessionStore.load} accepts. */
export interface StoreLoadOptions extends StoreReadOptions {
  /**
   * The caller's write lease on this session (resume loads the session it is about to write). A store may remember
   * what it read, so that its first append can tell whether the session was changed, deleted or truncated in
   * between and repair it from what was loaded (the file store does).
   */
  lease?: SessionLease;
  /**
   * Set when the session is a subagent's conversation inside that session (reopened to continue it after its
   * approvals were decided): the file store reads `chats/<parentSessionId>/<sessionId>.jsonl`. Stores that find
   * sessions by id alone may ignore it.
   */
  parentSessionId?: string;
}

/**
 * Where sessions live. Stores keep gemini-cli's record model — a metadata record, message records upserted by
 * id, `$set` and `$rewindTo` records — so every store replays a session the same way. Implementations: the
 * in-memory store, the gemini-cli JSONL file store; a database store implements the same interface and runs
 * `describeSessionStoreConformance` from `gemini-agent-sdk/testing` unchanged.
 *
 * Contract:
 * - one writer per session: `acquireLease` throws `SessionLockedError` while another live busy lease exists,
 *   and takes over an idle lease or one whose holder is dead (the old lease is then lost and cannot write);
 * - `create` and `append` take the lease; `append` is atomic per call and durable when it resolves;
 * - `load` of an unknown id throws `SessionNotFoundError` (`No sessions found in <where>` when the store is
 *   empty, `Session with ID <id> not found` otherwise);
 * - the records read back are JSON round-trips of those written (unknown fields kept).
 */
export interface SessionStore {
  /** Human-readable kind of store, e.g. `file`, `memory`. */
  readonly kind: string;

  /**
   * Takes the write lease on a session id (the session need not exist yet). An idle lease of another holder is taken
   * over (that holder's lease becomes lost); so is a lease whose holder is dead.
   *
   * @throws SessionLockedError when another live writer holds it busy.
   */
  acquireLease(sessionId: string, options?: StoreReadOptions): Promise<SessionLease>;

  /**
   * Creates a session: writes its metadata record.
   *
   * @throws SessionExistsError (code `SESSION_EXISTS`) when a session with this id already exists.
   */
  create(lease: SessionLease, init: NewSessionInit): Promise<SessionMetadataRecord>;

  /**
   * Appends records to an existing session, atomically (all or, after a crash, a prefix of whole records) and
   * durably when the promise resolves.
   *
   * A store may repair damage it finds on the way (the file store rewrites a session file that was deleted,
   * truncated or replaced under it) and report it in the outcome's `warnings`.
   *
   * @throws SessionNotFoundError when the session does not exist.
   * @throws SessionError (code `SESSION_LEASE_INVALID`) when the lease is released or not from this store.
   * @throws SessionLockedError when the lease was lost, or the stored session was changed by another writer.
   */
  append(lease: SessionLease, records: readonly SessionRecord[]): Promise<void | AppendOutcome>;

  /**
   * Loads and folds a session.
   *
   * @throws SessionNotFoundError when the store holds no session with this id.
   */
  load(sessionId: string, options?: StoreLoadOptions): Promise<StoredSession>;

  /** Lists the sessions (subagent sessions excluded), oldest start first as `gemini --list-sessions`. */
  list(options?: StoreReadOptions): Promise<SessionSummary[]>;

  /**
   * Deletes a session and what belongs to it. Returns false when there was nothing to delete.
   *
   * @param options.lease pass the session's own lease to delete a session you hold; otherwise the store takes
   *   the lease for the duration of the delete.
   * @throws SessionLockedError when another live writer holds the session.
   */
  delete(
    sessionId: string,
    options?: StoreReadOptions & { lease?: SessionLease },
  ): Promise<boolean>;
}
