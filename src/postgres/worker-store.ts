import type { SessionMetadataRecord, SessionRecord } from '../sessions/records.js';
import type {
  NewSessionInit,
  SessionLease,
  SessionStore,
  SessionSummary,
  StoredSession,
  StoreReadOptions,
} from '../sessions/session-store.js';
import type { PostgresSessionStore } from './postgres-session-store.js';

/**
 * The store a worker's agent writes through: the Postgres store, plus two things a worker needs.
 * - **Handover**: a lease the worker took when it claimed the session is what the agent's `acquireLease` for that
 *   session returns (once), so claiming and opening are one lease.
 * - **Tags**: fields `$set` in the same append as the next write of a session — a worker records which queued
 *   input it delivered atomically with the first record that input produced, so an input is delivered exactly once
 *   however the worker dies.
 */
export class WorkerSessionStore implements SessionStore {
  readonly kind: string;
  private readonly handovers = new Map<string, SessionLease>();
  private readonly tags = new Map<string, Record<string, unknown>>();

  constructor(readonly inner: PostgresSessionStore) {
    this.kind = inner.kind;
  }

  /** The next `acquireLease(lease.sessionId)` returns this lease. */
  handOver(lease: SessionLease): void {
    this.handovers.set(lease.sessionId, lease);
  }

  /** Takes back a lease nobody opened (returns it, or undefined when an agent took it). */
  takeBack(sessionId: string): SessionLease | undefined {
    const lease = this.handovers.get(sessionId);
    this.handovers.delete(sessionId);
    return lease;
  }

  /** The next append to the session also sets these metadata fields (in the same statement). */
  tagNextAppend(sessionId: string, fields: Record<string, unknown>): void {
    this.tags.set(sessionId, fields);
  }

  /** Drops a tag that no append carried. */
  clearTag(sessionId: string): void {
    this.tags.delete(sessionId);
  }

  async acquireLease(sessionId: string, options?: StoreReadOptions): Promise<SessionLease> {
    const handed = this.handovers.get(sessionId);
    if (handed !== undefined && !handed.released) {
      this.handovers.delete(sessionId);
      return handed;
    }
    return this.inner.acquireLease(sessionId, options);
  }

  create(lease: SessionLease, init: NewSessionInit): Promise<SessionMetadataRecord> {
    return this.inner.create(lease, init);
  }

  async append(lease: SessionLease, records: readonly SessionRecord[]): Promise<void> {
    const tag = this.tags.get(lease.sessionId);
    if (tag === undefined) return this.inner.append(lease, records);
    await this.inner.append(lease, [...records, { $set: tag }]);
    if (this.tags.get(lease.sessionId) === tag) this.tags.delete(lease.sessionId);
  }

  load(sessionId: string, options?: StoreReadOptions): Promise<StoredSession> {
    return this.inner.load(sessionId, options);
  }

  list(options?: StoreReadOptions): Promise<SessionSummary[]> {
    return this.inner.list(options);
  }

  delete(
    sessionId: string,
    options?: StoreReadOptions & { lease?: SessionLease },
  ): Promise<boolean> {
    return this.inner.delete(sessionId, options);
  }
}
