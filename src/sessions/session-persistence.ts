import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Content } from '@google/genai';
import { z } from 'zod';
import type { SessionLog, SessionOpenOptions, SessionPersistence } from '../core/session-log.js';
import type { ToolCallResponseInfo } from '../events.js';
import { FileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
import {
  interruptedToolMessage,
  rebuildHistory,
  type RebuiltHistory,
} from './history-from-records.js';
import { MemorySessionStore, type MemorySessionStoreOptions } from './memory-session-store.js';
import { responsesFromParts, type RecordWriterState } from './records-from-entry.js';
import { validateSessionId } from './session-paths.js';
import type {
  SessionStore,
  SessionSummary,
  StoredSession,
  StoreReadOptions,
} from './session-store.js';
import {
  PAUSED_TURN_KEY,
  SESSION_BUDGET_KEY,
  SESSION_POLICY_KEY,
  StoreSessionLog,
} from './store-session-log.js';

/** Options of the session-management calls: which project's sessions (file store) and an abort signal. */
export interface SessionQueryOptions extends StoreReadOptions {
  /** The sessions' working directory (the file store keeps one folder per project). Default `process.cwd()`. */
  cwd?: string;
}

/** Options of {@link createStorePersistence}. */
export interface StorePersistenceOptions {
  /**
   * Where sessions live: one store, or one per working directory (the file store keeps a folder per project;
   * the function is called once per distinct resolved `cwd`).
   */
  store: SessionStore | ((cwd: string) => SessionStore);
  /** Clock (start times, `lastUpdated`, repair timestamps). Default `() => new Date()`. */
  now?: () => Date;
  /** Id generator for message records and forked sessions. Default `crypto.randomUUID`. */
  newId?: () => string;
}

/** {@link SessionPersistence} over a {@link SessionStore}, plus the session-management calls the agent exposes. */
export interface StoreSessionPersistence extends SessionPersistence {
  /** The store holding the sessions of `cwd` (default `process.cwd()`). */
  storeFor(cwd?: string): SessionStore;
  /** `agent.listSessions()`: the stored sessions, oldest start first. */
  listSessions(options?: SessionQueryOptions): Promise<SessionSummary[]>;
  /**
   * `agent.deleteSession(id)`: deletes a session and what belongs to it (gemini-cli's deletion set).
   *
   * @throws SessionNotFoundError when there is no such session.
   * @throws SessionLockedError while a live session has it open.
   */
  deleteSession(sessionId: string, options?: SessionQueryOptions): Promise<void>;
  /**
   * `session.fork()`: copies a session's messages into a new session and returns its id. Works on a session that
   * is open (it reads what is stored: every completed turn).
   */
  forkSession(
    sessionId: string,
    newSessionId?: string,
    options?: SessionQueryOptions,
  ): Promise<string>;
  /** The history a stored session resumes with, without opening it for writing. */
  loadHistory(sessionId: string, options?: SessionQueryOptions): Promise<Content[]>;
}

export { PAUSED_TURN_KEY, SESSION_POLICY_KEY } from './store-session-log.js';

/** A paused turn as stored in the metadata: bound to the model message whose calls wait for approval. */
export const StoredPausedTurn = z.object({
  modelMessageId: z.string(),
  turn: z.record(z.string(), z.unknown()),
});
/** A paused turn as stored in the metadata. */
export type StoredPausedTurn = z.infer<typeof StoredPausedTurn>;

/**
 * The paused turn a stored session waits on: only when it is bound to the last message, a model turn whose calls
 * have no results yet (anything else is a leftover and is ignored).
 */
function boundPausedTurn(
  stored: StoredSession,
  rebuilt: RebuiltHistory,
): StoredPausedTurn | undefined {
  const value = stored.metadata[PAUSED_TURN_KEY];
  // Nearly every session has none: answered without the schema, whose first parse in a process compiles it
  // (~14 ms of a cold 10,000-message resume, goal P4).
  if (value === undefined || value === null) return undefined;
  const parsed = StoredPausedTurn.safeParse(value);
  if (!parsed.success) return undefined;
  const last = stored.messages.at(-1);
  const bound =
    last?.type === 'gemini' &&
    last.id === parsed.data.modelMessageId &&
    rebuilt.interruptedTail?.messageId === last.id;
  return bound ? parsed.data : undefined;
}

/** Marks the repair responses added for a killed process as `interrupted` (status `cancelled` in `toolCalls`). */
function interruptedResponses(content: Content): ToolCallResponseInfo[] {
  return responsesFromParts(content.parts ?? []).map((r) =>
    r.error !== undefined && r.error.message === interruptedToolMessage(r.name)
      ? { ...r, error: { message: r.error.message, type: 'interrupted' }, errorType: 'interrupted' }
      : r,
  );
}

/**
 * Implements the agent's {@link SessionPersistence} seam on any {@link SessionStore}:
 * - `open(id, {resume:false})` takes the lease and creates the session;
 * - `open(id, {resume:true})` takes the lease, loads and rebuilds the exact history; when the process that wrote
 *   it died while tools ran, the unanswered calls get `interrupted` error responses, which are also appended so
 *   the stored session is valid for gemini-cli too — unless the calls wait for approval (a paused turn bound to
 *   that model turn): then they stay open and the log exposes `pausedTurn`;
 * - every `append` is one store append (one write), durable when it resolves.
 */
export function createStorePersistence(options: StorePersistenceOptions): StoreSessionPersistence {
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? randomUUID;
  const stores = new Map<string, SessionStore>();
  const storeFor = (cwd: string = process.cwd()): SessionStore => {
    const factory = options.store;
    if (typeof factory !== 'function') return factory;
    const key = resolve(cwd);
    let store = stores.get(key);
    if (store === undefined) {
      store = factory(key);
      stores.set(key, store);
    }
    return store;
  };
  const readOptions = (o: SessionQueryOptions): StoreReadOptions =>
    o.signal !== undefined ? { signal: o.signal } : {};

  const open = async (sessionId: string, openOptions: SessionOpenOptions): Promise<SessionLog> => {
    validateSessionId(sessionId);
    const store = storeFor(openOptions.cwd);
    const lease = await store.acquireLease(sessionId);
    try {
      if (!openOptions.resume) {
        await store.create(lease, {
          startTime: now().toISOString(),
          ...(openOptions.parentSessionId === undefined
            ? {}
            : { parentSessionId: openOptions.parentSessionId }),
        });
        const fresh = new StoreSessionLog({
          sessionId,
          file: lease.file,
          history: [],
          pausedTurn: undefined,
          policyState: undefined,
          store,
          lease,
          state: { lastModelMessage: undefined },
          newId,
          now,
          pauseStored: false,
        });
        await fresh.finishTurn();
        return fresh;
      }
      const stored = await store.load(sessionId, {
        lease,
        ...(openOptions.parentSessionId === undefined
          ? {}
          : { parentSessionId: openOptions.parentSessionId }),
      });
      const rebuilt = rebuildHistory(stored.messages);
      const last = stored.messages.at(-1);
      const state: RecordWriterState = {
        lastModelMessage: last?.type === 'gemini' ? last : undefined,
      };
      const paused = boundPausedTurn(stored, rebuilt);
      // A paused turn keeps its calls open (they wait for approval): drop the interrupted answers rebuilt for them.
      const history = paused === undefined ? rebuilt.history : rebuilt.history.slice(0, -1);
      const log = new StoreSessionLog({
        sessionId,
        file: store.kind === 'file' ? stored.location : undefined,
        history,
        pausedTurn: paused?.turn,
        policyState: stored.metadata[SESSION_POLICY_KEY] ?? undefined,
        budgetState: stored.metadata[SESSION_BUDGET_KEY] ?? undefined,
        store,
        lease,
        state,
        newId,
        now,
        pauseStored: (stored.metadata[PAUSED_TURN_KEY] ?? null) !== null,
      });
      if (paused === undefined && rebuilt.interruptedTail !== undefined) {
        const content: Content = { role: 'user', parts: rebuilt.interruptedTail.responseParts };
        await log.append({
          kind: 'tool_results',
          content,
          timestamp: now().toISOString(),
          responses: interruptedResponses(content),
        });
      }
      // Open but idle: another session (object, agent or process) may take it over until a turn starts.
      await log.finishTurn();
      return log;
    } catch (err) {
      await lease.release();
      throw err;
    }
  };

  return {
    storeFor,
    open,
    listSessions: (query = {}) => storeFor(query.cwd).list(readOptions(query)),
    async deleteSession(sessionId, query = {}) {
      const store = storeFor(query.cwd);
      await store.load(sessionId, readOptions(query));
      await store.delete(sessionId, readOptions(query));
    },
    async forkSession(sessionId, newSessionId = newId(), query = {}) {
      validateSessionId(newSessionId);
      const store = storeFor(query.cwd);
      const source = await store.load(sessionId, readOptions(query));
      const lease = await store.acquireLease(newSessionId, readOptions(query));
      try {
        const startTime = now().toISOString();
        await store.create(lease, { startTime, extra: { forkedFrom: sessionId } });
        if (source.messages.length > 0) {
          await store.append(lease, [...source.messages, { $set: { lastUpdated: startTime } }]);
        }
      } finally {
        await lease.release();
      }
      return newSessionId;
    },
    async loadHistory(sessionId, query = {}) {
      return rebuildHistory(
        (await storeFor(query.cwd).load(sessionId, readOptions(query))).messages,
      ).history;
    },
  };
}

/** Options of {@link createFilePersistence}. */
export type FilePersistenceOptions = FileSessionStoreOptions &
  Omit<StorePersistenceOptions, 'store'>;

/**
 * Session persistence in gemini-cli's JSONL files (the default). Each session's `cwd` selects the project folder
 * (`~/.gemini/tmp/<slug>/chats`), unless `projectRoot` or `chatsDir` pins one.
 */
export function createFilePersistence(
  options: FilePersistenceOptions = {},
): StoreSessionPersistence {
  const pinned = options.projectRoot !== undefined || options.chatsDir !== undefined;
  return createStorePersistence({
    ...options,
    store: pinned
      ? new FileSessionStore(options)
      : (cwd) => new FileSessionStore({ ...options, projectRoot: cwd }),
  });
}

/** Options of {@link createMemoryPersistence}. */
export type MemoryPersistenceOptions = MemorySessionStoreOptions &
  Omit<StorePersistenceOptions, 'store'>;

/** Session persistence in memory (`persist: false`): sessions live as long as the persistence object. */
export function createMemoryPersistence(
  options: MemoryPersistenceOptions = {},
): StoreSessionPersistence {
  return createStorePersistence({
    ...options,
    store: (cwd) => new MemorySessionStore({ projectRoot: options.projectRoot ?? cwd }),
  });
}
