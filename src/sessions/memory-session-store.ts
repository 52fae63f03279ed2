import { throwIfAborted } from '../core/abort.js';
import { foldRecords } from './conversation.js';
import {
  SESSION_FORMAT_VERSION,
  type SessionMetadataRecord,
  type SessionRecord,
} from './records.js';
import { projectHash, validateSessionId } from './session-paths.js';
import type {
  NewSessionInit,
  SessionLease,
  SessionStore,
  SessionSummary,
  StoredSession,
  StoreReadOptions,
} from './session-store.js';
import { orderSummaries, summarizeSession, toStoredSession } from './session-summary.js';
import {
  leaseInvalidError,
  sessionExistsError,
  sessionLockedError,
  sessionNotFoundError,
} from './store-errors.js';

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Project root recorded as `projectHash` (sha256) in the metadata. Default `process.cwd()`. */
  projectRoot?: string;
}

class MemoryLease implements SessionLease {
  released = false;
  lost = false;
  idle = false;

  constructor(
    readonly sessionId: string,
    private readonly onRelease: (lease: MemoryLease) => void,
  ) {}

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (!this.lost) this.onRelease(this);
  }

  async setIdle(idle: boolean): Promise<void> {
    if (this.released) throw leaseInvalidError(this.sessionId, 'its lease was released');
    if (this.lost) throw sessionLockedError(this.sessionId, 'a newer session that took it over');
    this.idle = idle;
  }
}

const WHERE = 'memory';

/**
 * A {@link SessionStore} that keeps sessions in this process (`persist: false`, tests). Records are stored as
 * JSON text, so what is read back is a JSON round trip exactly as with the file store.
 */
export class MemorySessionStore implements SessionStore {
  readonly kind = 'memory';
  private readonly sessions = new Map<string, string[]>();
  private readonly holders = new Map<string, MemoryLease>();
  private readonly projectHash: string;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.projectHash = projectHash(options.projectRoot ?? process.cwd());
  }

  async acquireLease(sessionId: string, options: StoreReadOptions = {}): Promise<SessionLease> {
    throwIfAborted(options.signal);
    validateSessionId(sessionId);
    const holder = this.holders.get(sessionId);
    if (holder !== undefined && !holder.idle)
      throw sessionLockedError(sessionId, 'another session of this process');
    // An idle holder hands the session over: its lease is lost, so it can never write alongside this one.
    if (holder !== undefined) holder.lost = true;
    const lease = new MemoryLease(sessionId, (l) => {
      if (this.holders.get(l.sessionId) === l) this.holders.delete(l.sessionId);
    });
    this.holders.set(sessionId, lease);
    return lease;
  }

  async create(lease: SessionLease, init: NewSessionInit): Promise<SessionMetadataRecord> {
    const id = this.checkLease(lease);
    if (this.sessions.has(id)) throw sessionExistsError(id, WHERE);
    const metadata: SessionMetadataRecord = {
      ...init.extra,
      sessionId: id,
      projectHash: this.projectHash,
      startTime: init.startTime,
      lastUpdated: init.startTime,
      ...(init.parentSessionId === undefined
        ? { kind: 'main' as const }
        : { kind: 'subagent' as const, parentSessionId: init.parentSessionId }),
      sdkFormat: SESSION_FORMAT_VERSION,
    };
    this.sessions.set(id, [JSON.stringify(metadata)]);
    return metadata;
  }

  async append(lease: SessionLease, records: readonly SessionRecord[]): Promise<void> {
    const id = this.checkLease(lease);
    const lines = this.sessions.get(id);
    if (lines === undefined) throw sessionNotFoundError(id, WHERE, this.sessions.size === 0);
    const serialized = records.map((r) => JSON.stringify(r));
    lines.push(...serialized);
  }

  async load(sessionId: string, options: StoreReadOptions = {}): Promise<StoredSession> {
    throwIfAborted(options.signal);
    const stored = this.read(sessionId);
    if (stored === undefined)
      throw sessionNotFoundError(sessionId, WHERE, this.sessions.size === 0);
    return stored;
  }

  async list(options: StoreReadOptions = {}): Promise<SessionSummary[]> {
    throwIfAborted(options.signal);
    const out: SessionSummary[] = [];
    for (const id of this.sessions.keys()) {
      const stored = this.read(id);
      if (stored !== undefined) out.push(summarizeSession(stored));
    }
    return orderSummaries(out);
  }

  async delete(
    sessionId: string,
    options: StoreReadOptions & { lease?: SessionLease } = {},
  ): Promise<boolean> {
    throwIfAborted(options.signal);
    const own = options.lease;
    if (own !== undefined) this.checkLease(own, sessionId);
    const lease = own ?? (await this.acquireLease(sessionId));
    try {
      return this.sessions.delete(sessionId);
    } finally {
      if (own === undefined) await lease.release();
    }
  }

  private read(sessionId: string): StoredSession | undefined {
    const lines = this.sessions.get(sessionId);
    if (lines === undefined) return undefined;
    const conversation = foldRecords(lines.map((l) => JSON.parse(l) as unknown));
    if (conversation === undefined) return undefined;
    return toStoredSession(conversation, `${WHERE}:${sessionId}`, new Date(0).toISOString());
  }

  private checkLease(lease: SessionLease, sessionId = lease.sessionId): string {
    if (lease instanceof MemoryLease && lease.lost && !lease.released) {
      throw sessionLockedError(lease.sessionId, 'a newer session that took it over');
    }
    if (!(lease instanceof MemoryLease) || this.holders.get(lease.sessionId) !== lease) {
      throw leaseInvalidError(
        lease.sessionId,
        lease.released ? 'its lease was released' : 'the lease is not held',
      );
    }
    if (lease.sessionId !== sessionId)
      throw leaseInvalidError(sessionId, `the lease is for ${lease.sessionId}`);
    // A write makes an idle lease busy again.
    lease.idle = false;
    return lease.sessionId;
  }
}
