import { LATEST_SCHEMA_VERSION, schemaVersion } from './migrations.js';
import type { StoreContext } from './store-context.js';
import type { PostgresStoreStatus } from './store-options.js';

/** Who holds a session's lease (see `PostgresSessionStore.leaseHolder`). */
export interface LeaseHolder {
  /** The holder's name (`holderName`, default `pid <pid> on <host>`). */
  holder: string;
  /** Its fencing token (a decimal string). */
  token: string;
  /** When the lease expires unless renewed (database clock). */
  expiresAt: Date;
}

/** The schema version and the numbers of sessions and live leases (nothing is changed). */
export async function readStatus(ctx: StoreContext): Promise<PostgresStoreStatus> {
  const version = await schemaVersion(ctx.pool, ctx.t, ctx.schema);
  const base = { schema: ctx.schema, version, latest: LATEST_SCHEMA_VERSION };
  if (version === 0) return { ...base, sessions: 0, liveLeases: 0 };
  const counts = await ctx.pool.query(
    `SELECT (SELECT count(*) FROM ${ctx.t.sessions})::int AS sessions,
            (SELECT count(*) FROM ${ctx.t.leases} WHERE expires_at > now())::int AS leases`,
  );
  const row = counts.rows[0] ?? {};
  return {
    ...base,
    sessions: Number(row['sessions'] ?? 0),
    liveLeases: Number(row['leases'] ?? 0),
  };
}

/** The live lease of a session, or undefined when nobody holds one. */
export async function readLeaseHolder(
  ctx: StoreContext,
  sessionId: string,
): Promise<LeaseHolder | undefined> {
  const result = await ctx.pool.query(
    `SELECT holder, token::text AS token, expires_at FROM ${ctx.t.leases}
     WHERE session_id = $1 AND expires_at > now()`,
    [sessionId],
  );
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    holder: String(row['holder']),
    token: String(row['token']),
    expiresAt: new Date(row['expires_at'] as string),
  };
}
