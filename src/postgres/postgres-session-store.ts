import { hostname } from 'node:os';
import { ConfigurationError, SessionError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { throwIfAborted } from '../core/abort.js';
import {
  SESSION_FORMAT_VERSION,
  type MessageRecord,
  type SessionMetadataRecord,
  type SessionRecord,
} from '../sessions/records.js';
import { projectHash, validateSessionId } from '../sessions/session-paths.js';
import type {
  NewSessionInit,
  SessionLease,
  SessionStore,
  SessionSummary,
  StoredSession,
  StoreReadOptions,
} from '../sessions/session-store.js';
import {
  leaseInvalidError,
  sessionLockedError,
  sessionNotFoundError,
} from '../sessions/store-errors.js';
import { migrateSchema, verifySchema, type MigrationResult } from './migrations.js';
import { createPgPool } from './pg-pool.js';
import { retryPolicy, withRetry } from './pg-retry.js';
import { deleteLease, LeaseKeeper, PostgresLease, serializedWrite } from './postgres-lease.js';
import {
  decodeCursor,
  listSessionPage,
  loadMetadataOnly,
  loadSession,
  readSnapshot,
  type SessionPage,
} from './session-reads.js';
import {
  appendRecords,
  deleteSessionRow,
  insertLease,
  insertSession,
  lostLeaseError,
  readWriterState,
} from './session-writes.js';
import { DEFAULT_SCHEMA, tableNames } from './sql-names.js';
import { readLeaseHolder, readStatus, type LeaseHolder } from './store-admin.js';
import {
  PostgresSessionStoreOptionsSchema,
  type PostgresListOptions,
  type PostgresSessionStoreOptions,
  type PostgresStoreStatus,
} from './store-options.js';
import { storeLocation, type StoreContext } from './store-context.js';

/**
 * A {@link SessionStore} in PostgreSQL, for many workers on many machines sharing sessions: one row per session,
 * one row per message (append is one statement, independent of the session's length), reads streamed in pages from
 * one snapshot, and a write lease per session with a **fencing token** checked by every write — a worker whose
 * lease expired and was taken over can never write again. Import from `gemini-agent-sdk/postgres`; needs the `pg`
 * package. See docs/scaling.md.
 *
 * ```ts
 * const store = new PostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * const agent = new GeminiCliAgent({ instructions, sessionStore: store });
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  readonly kind = 'postgres';
  /** The schema holding the tables. */
  readonly schema: string;
  private readonly options: PostgresSessionStoreOptions;
  private readonly projectHash: string;
  private readonly holder: string;
  private readonly pageSize: number;
  private readonly ttlMs: number;
  private readonly heartbeatMs: number;
  private readonly logger: Logger;
  private context: Promise<{ ctx: StoreContext; keeper: LeaseKeeper }> | undefined;
  private schemaChecked: Promise<void> | undefined;
  private readonly poolErrors = (err: Error) =>
    this.logger.warn('postgres: idle connection failed', { error: err.message });
  private closed = false;

  /** @throws ConfigurationError for invalid options (say which, and what to pass). */
  constructor(options: PostgresSessionStoreOptions) {
    const checked = PostgresSessionStoreOptionsSchema.safeParse(options ?? {});
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      throw new ConfigurationError(
        `Invalid PostgresSessionStore options: ${where}${issue?.message ?? 'invalid'}. Pass ` +
          '{ connectionString: "postgres://…" } or { pool: new pg.Pool(…) }.',
      );
    }
    this.options = options;
    this.schema = options.schema ?? DEFAULT_SCHEMA;
    tableNames(this.schema);
    this.projectHash = projectHash(options.projectRoot ?? process.cwd());
    this.holder = options.holderName ?? `pid ${process.pid} on ${hostname()}`;
    this.pageSize = options.pageSize ?? 1_000;
    this.ttlMs = options.lease?.ttlMs ?? 30_000;
    this.heartbeatMs = options.lease?.heartbeatMs ?? Math.max(10, Math.floor(this.ttlMs / 3));
    if (this.heartbeatMs >= this.ttlMs) {
      throw new ConfigurationError(
        `Invalid PostgresSessionStore options: lease.heartbeatMs (${this.heartbeatMs}) must be shorter than ` +
          `lease.ttlMs (${this.ttlMs}), e.g. a third of it.`,
      );
    }
    this.logger = options.logger ?? silentLogger;
  }

  /** The pool, the tables and the lease keeper (made on first use), without checking the schema. */
  private connect(): Promise<{ ctx: StoreContext; keeper: LeaseKeeper }> {
    if (this.closed) {
      return Promise.reject(
        new SessionError('This PostgresSessionStore is closed; create a new one.', {
          code: 'STORE_CLOSED',
        }),
      );
    }
    if (this.context === undefined) {
      const pending = (async () => {
        const { options } = this;
        const pool =
          options.pool ??
          (await createPgPool(options.connectionString ?? '', options.maxConnections ?? 10));
        pool.on('error', this.poolErrors);
        const ctx: StoreContext = {
          pool,
          t: tableNames(this.schema),
          schema: this.schema,
          ttlSeconds: this.ttlMs / 1000,
          retry: retryPolicy(options.retry),
          logger: this.logger,
        };
        return { ctx, keeper: new LeaseKeeper(ctx, this.heartbeatMs) };
      })();
      this.context = pending;
      pending.catch(() => {
        if (this.context === pending) this.context = undefined;
      });
    }
    return this.context;
  }

  /** {@link connect}, and on first use the schema checked (`verify`) or brought up to date (`auto`). */
  private async ready(): Promise<{ ctx: StoreContext; keeper: LeaseKeeper }> {
    const connected = await this.connect();
    if (this.schemaChecked === undefined) {
      const { ctx } = connected;
      const pending = withRetry('schema check', ctx.retry, this.logger, async () => {
        if (this.options.migrate === 'verify') await verifySchema(ctx.pool, ctx.t, this.schema);
        else await migrateSchema(ctx.pool, ctx.t, this.schema);
      });
      this.schemaChecked = pending;
      pending.catch(() => {
        if (this.schemaChecked === pending) this.schemaChecked = undefined;
      });
    }
    await this.schemaChecked;
    return connected;
  }

  /**
   * Brings the schema up to date and reports what this call applied (what `migrate: 'auto'` does on first use,
   * and `gemini-agent postgres migrate`). Safe to run from many processes at once.
   */
  async migrate(): Promise<MigrationResult> {
    const { ctx } = await this.connect();
    const result = await withRetry('migrate', ctx.retry, this.logger, () =>
      migrateSchema(ctx.pool, ctx.t, this.schema),
    );
    this.schemaChecked = Promise.resolve();
    return result;
  }

  /**
   * The schema's state: its version (0 before the first migration) against this SDK's, and how many sessions and
   * live leases it holds. Never changes anything (no auto-migration).
   */
  async status(): Promise<PostgresStoreStatus> {
    const { ctx } = await this.connect();
    return withRetry('status', ctx.retry, this.logger, () => readStatus(ctx));
  }

  async acquireLease(sessionId: string, options: StoreReadOptions = {}): Promise<SessionLease> {
    throwIfAborted(options.signal);
    validateSessionId(sessionId);
    const { ctx, keeper } = await this.ready();
    const taken = await insertLease(ctx, sessionId, this.holder, options.signal);
    if ('holder' in taken) {
      const seconds = Math.max(1, Math.ceil(taken.expiresInMs / 1000));
      throw sessionLockedError(
        sessionId,
        `${taken.holder} (its lease expires in ${seconds} s unless renewed)`,
      );
    }
    if (taken.tookOver) {
      this.logger.info('postgres: took over an expired session lease', { sessionId });
    }
    const lease = new PostgresLease(sessionId, taken.token, this, async (l) => {
      keeper.remove(l);
      if (!l.lost) await deleteLease(ctx, l);
    });
    keeper.add(lease);
    return lease;
  }

  async create(lease: SessionLease, init: NewSessionInit): Promise<SessionMetadataRecord> {
    const own = this.checkLease(lease);
    const { ctx } = await this.ready();
    const metadata: SessionMetadataRecord = {
      ...init.extra,
      sessionId: own.sessionId,
      projectHash: this.projectHash,
      startTime: init.startTime,
      lastUpdated: init.startTime,
      ...(init.parentSessionId === undefined
        ? { kind: 'main' as const }
        : { kind: 'subagent' as const, parentSessionId: init.parentSessionId }),
      sdkFormat: SESSION_FORMAT_VERSION,
    };
    await serializedWrite(own, () => insertSession(ctx, own, metadata));
    return metadata;
  }

  async append(lease: SessionLease, records: readonly SessionRecord[]): Promise<void> {
    const own = this.checkLease(lease);
    const { ctx } = await this.ready();
    await serializedWrite(own, async () => {
      this.checkLease(own);
      const state = own.state ?? (await readWriterState(ctx, own.sessionId));
      if (state === undefined) {
        const empty = await ctx.pool.query(
          `SELECT NOT EXISTS (SELECT 1 FROM ${ctx.t.sessions}) AS e`,
        );
        throw sessionNotFoundError(
          own.sessionId,
          storeLocation(this.schema),
          empty.rows[0]?.['e'] === true,
        );
      }
      await appendRecords(ctx, own, state, records);
    });
  }

  async load(sessionId: string, options: StoreReadOptions = {}): Promise<StoredSession> {
    throwIfAborted(options.signal);
    const { ctx } = await this.ready();
    return withRetry('load', ctx.retry, this.logger, () =>
      loadSession(ctx, sessionId, this.pageSize, options.signal),
    );
  }

  /**
   * Streams a session's messages in `seq` order, `pageSize` at a time, from one consistent snapshot (the
   * connection stays checked out until the iteration ends). No retries once the first page was yielded.
   *
   * @throws SessionNotFoundError when the session does not exist.
   */
  async *readMessages(
    sessionId: string,
    options: StoreReadOptions & { pageSize?: number } = {},
  ): AsyncGenerator<MessageRecord[]> {
    throwIfAborted(options.signal);
    const { ctx } = await this.ready();
    for await (const item of readSnapshot(
      ctx,
      sessionId,
      options.pageSize ?? this.pageSize,
      options.signal,
    )) {
      if (item.kind === 'page') yield item.messages;
    }
  }

  /** A session's merged metadata (paused turn, summary, times…) without reading its messages. */
  async loadMetadata(
    sessionId: string,
    options: StoreReadOptions = {},
  ): Promise<StoredSession['metadata']> {
    throwIfAborted(options.signal);
    const { ctx } = await this.ready();
    return withRetry('load metadata', ctx.retry, this.logger, () =>
      loadMetadataOnly(ctx, sessionId, options.signal),
    );
  }

  /** All sessions of the store's project, oldest start first (as `gemini --list-sessions`). */
  async list(options: StoreReadOptions = {}): Promise<SessionSummary[]> {
    const out: SessionSummary[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listPage({ ...options, limit: 1_000, ...(cursor ? { cursor } : {}) });
      out.push(...page.sessions);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  }

  /**
   * One page of sessions, oldest start first: the store's project (or `projectRoot`, or `allProjects`), optionally
   * only those waiting for approval decisions. Pass `nextCursor` back as `cursor` for the next page.
   *
   * @throws ConfigurationError for a cursor that is not from this method.
   */
  async listPage(options: PostgresListOptions = {}): Promise<SessionPage> {
    throwIfAborted(options.signal);
    const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    if (options.cursor !== undefined && after === undefined) {
      throw new ConfigurationError(
        'Invalid list cursor: pass the nextCursor of the previous page.',
      );
    }
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new ConfigurationError('Invalid list limit: use an integer from 1 to 10000.');
    }
    const { ctx } = await this.ready();
    const project = options.allProjects
      ? undefined
      : options.projectRoot !== undefined
        ? projectHash(options.projectRoot)
        : this.projectHash;
    return withRetry('list', ctx.retry, this.logger, () =>
      listSessionPage(
        ctx,
        { projectHash: project, waitingForApproval: options.waitingForApproval === true },
        limit,
        after,
      ),
    );
  }

  async delete(
    sessionId: string,
    options: StoreReadOptions & { lease?: SessionLease } = {},
  ): Promise<boolean> {
    throwIfAborted(options.signal);
    validateSessionId(sessionId);
    const own = options.lease !== undefined ? this.checkLease(options.lease, sessionId) : undefined;
    const { ctx } = await this.ready();
    const lease = own ?? ((await this.acquireLease(sessionId, options)) as PostgresLease);
    try {
      const deleted = await serializedWrite(lease, () => deleteSessionRow(ctx, lease));
      if (deleted && own !== undefined) own.deleted = true;
      return deleted;
    } finally {
      if (own === undefined) await lease.release();
    }
  }

  /** The current holder of a session's lease, or undefined when nobody holds a live one. */
  async leaseHolder(sessionId: string): Promise<LeaseHolder | undefined> {
    const { ctx } = await this.ready();
    return withRetry('lease holder', ctx.retry, this.logger, () => readLeaseHolder(ctx, sessionId));
  }

  /**
   * Releases every lease this store holds, stops the heartbeat, and ends the pool if the store created it.
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    const context = this.context;
    this.closed = true;
    if (context === undefined) return;
    const ready = await context.catch(() => undefined);
    if (ready === undefined) return;
    ready.keeper.stop();
    await Promise.all(ready.keeper.leases.map((l) => l.release()));
    // A pool the store made keeps its error listener: connections may still fail while it ends.
    if (this.options.pool === undefined) await ready.ctx.pool.end();
    else ready.ctx.pool.off('error', this.poolErrors);
  }

  /**
   * The store's connection context (pool, tables, retries), schema checked. For components of this subpath that
   * share the store's tables, such as {@link PostgresSessionQueue}; not a stable API.
   *
   * @internal
   */
  async sharedContext(): Promise<StoreContext> {
    return (await this.ready()).ctx;
  }

  private checkLease(lease: SessionLease, sessionId = lease.sessionId): PostgresLease {
    if (!(lease instanceof PostgresLease) || lease.owner !== this) {
      throw leaseInvalidError(lease.sessionId, 'the lease comes from another store');
    }
    if (lease.released) throw leaseInvalidError(lease.sessionId, 'its lease was released');
    if (lease.lost) throw lostLeaseError(lease);
    if (lease.deleted)
      throw sessionNotFoundError(lease.sessionId, storeLocation(this.schema), false);
    if (lease.sessionId !== sessionId)
      throw leaseInvalidError(sessionId, `the lease is for ${lease.sessionId}`);
    return lease;
  }
}
