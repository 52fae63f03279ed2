import type { SessionLease } from '../sessions/session-store.js';
import { withRetry } from './pg-retry.js';
import type { StoreContext } from './store-context.js';

/** What the one writer of a session knows about its row (nobody else can change it while the lease holds). */
export interface WriterState {
  metadata: Record<string, unknown>;
  nextSeq: number;
}

/**
 * A write lease on one session in PostgreSQL: a row in the leases table with an expiry that the holder's store
 * renews (heartbeat and every write), and a **fencing token** from a sequence. Every write checks the token in the
 * same statement that writes, so once another worker has taken the lease over (after it expired), a write with this
 * lease fails with `SessionLockedError` and changes nothing.
 */
export class PostgresLease implements SessionLease {
  /** True once released (or deleted with the session). */
  released = false;
  /** True once the database showed that another holder has the session (heartbeat or a refused write). */
  lost = false;
  /** True once the session was deleted through this lease. */
  deleted = false;
  /** Cached row state; undefined until the first write needs it, or after a write of unknown outcome. */
  state: WriterState | undefined;
  /** Serializes this lease's writes. */
  queue: Promise<void> = Promise.resolve();

  constructor(
    readonly sessionId: string,
    /** The fencing token: a decimal string, larger for every lease ever granted by the schema. */
    readonly token: string,
    readonly owner: object,
    private readonly onRelease: (lease: PostgresLease) => Promise<void>,
  ) {}

  /** Gives the session up: deletes the lease row (if still ours). Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.queue.catch(() => undefined);
    await this.onRelease(this);
  }
}

/** Runs one write after the lease's previous ones (the writer state is per lease). */
export function serializedWrite<T>(lease: PostgresLease, write: () => Promise<T>): Promise<T> {
  const run = lease.queue.then(write);
  lease.queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

/** Keeps a store's leases alive: one UPDATE per heartbeat for all of them; marks the ones found gone as lost. */
export class LeaseKeeper {
  private readonly held = new Map<string, PostgresLease>();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly heartbeatMs: number,
  ) {}

  /** Leases this keeper renews. */
  get leases(): PostgresLease[] {
    return [...this.held.values()];
  }

  add(lease: PostgresLease): void {
    this.held.set(lease.token, lease);
    if (this.timer === undefined) {
      this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
      this.timer.unref();
    }
  }

  remove(lease: PostgresLease): void {
    this.held.delete(lease.token);
    if (this.held.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One heartbeat (also run by the timer). Never throws: failures are logged and retried on the next beat. */
  async beat(): Promise<void> {
    if (this.beating !== undefined) return this.beating;
    const tokens = [...this.held.keys()];
    if (tokens.length === 0) return;
    const { t, ttlSeconds, logger } = this.ctx;
    this.beating = (async () => {
      try {
        const result = await this.ctx.pool.query(
          `UPDATE ${t.leases} SET expires_at = now() + $2::float8 * interval '1 second'
           WHERE token = ANY($1::bigint[]) RETURNING token::text AS token`,
          [tokens, ttlSeconds],
        );
        const renewed = new Set(result.rows.map((r) => String(r['token'])));
        for (const token of tokens) {
          const lease = this.held.get(token);
          if (lease === undefined || renewed.has(token) || lease.released) continue;
          lease.lost = true;
          this.remove(lease);
          logger.warn('postgres: a session lease was taken over by another holder', {
            sessionId: lease.sessionId,
          });
        }
      } catch (err) {
        logger.warn('postgres: lease heartbeat failed', {
          error: err instanceof Error ? err.message : String(err),
        });
      } finally {
        this.beating = undefined;
      }
    })();
    return this.beating;
  }
}

/** Deletes a lease row if it still carries this token (retrying transient errors; failures only logged). */
export async function deleteLease(ctx: StoreContext, lease: PostgresLease): Promise<void> {
  try {
    await withRetry('release lease', ctx.retry, ctx.logger, () =>
      ctx.pool.query(`DELETE FROM ${ctx.t.leases} WHERE session_id = $1 AND token = $2`, [
        lease.sessionId,
        lease.token,
      ]),
    );
  } catch (err) {
    ctx.logger.warn('postgres: could not release a lease; it expires by itself', {
      sessionId: lease.sessionId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
