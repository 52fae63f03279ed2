import { randomUUID } from 'node:crypto';
import { sessionExistsError, sessionLockedError } from '../sessions/store-errors.js';
import {
  isSimplePlan,
  planAppend,
  sessionColumns,
  type AppendStep,
  type MessageRow,
  type SessionColumns,
} from './append-plan.js';
import type { PostgresClient } from './pg-pool.js';
import { withRetry } from './pg-retry.js';
import type { PostgresLease, WriterState } from './postgres-lease.js';
import { inTransaction, storeLocation, type StoreContext } from './store-context.js';

/** Thrown inside a write when the lease row no longer carries our token. */
class LeaseLost extends Error {}

/** The error a write with a lost lease fails with. */
export function lostLeaseError(lease: PostgresLease): Error {
  lease.lost = true;
  return sessionLockedError(
    lease.sessionId,
    'another holder that took over after this lease expired (its fencing token is no longer current)',
  );
}

const TTL = (n: number) => `now() + $${n}::float8 * interval '1 second'`;

/**
 * Takes the lease of a session: inserts the lease row, or takes over one that expired. Retries are safe: an
 * attempt whose reply was lost left a row with our holder id, which the next attempt takes again.
 *
 * @returns the fencing token and whether an expired lease was taken over, or the current holder when it is live.
 */
export async function insertLease(
  ctx: StoreContext,
  sessionId: string,
  holder: string,
  signal?: AbortSignal,
): Promise<{ token: string; tookOver: boolean } | { holder: string; expiresInMs: number }> {
  const { t } = ctx;
  const holderId = randomUUID();
  return withRetry(
    'acquire lease',
    ctx.retry,
    ctx.logger,
    async () => {
      const taken = await ctx.pool.query(
        `INSERT INTO ${t.leases} AS l (session_id, token, holder_id, holder, expires_at)
         VALUES ($1, nextval('${t.leaseTokens}'), $2, $3, ${TTL(4)})
         ON CONFLICT (session_id) DO UPDATE SET token = EXCLUDED.token, holder_id = EXCLUDED.holder_id,
           holder = EXCLUDED.holder, acquired_at = now(), expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= now() OR l.holder_id = EXCLUDED.holder_id
         RETURNING token::text AS token, (xmax <> 0) AS took_over`,
        [sessionId, holderId, holder, ctx.ttlSeconds],
      );
      const row = taken.rows[0];
      if (row !== undefined) {
        return { token: String(row['token']), tookOver: row['took_over'] === true };
      }
      const live = await ctx.pool.query(
        `SELECT holder, greatest(0, extract(epoch FROM expires_at - now()) * 1000)::float8 AS ms
         FROM ${t.leases} WHERE session_id = $1`,
        [sessionId],
      );
      const current = live.rows[0];
      if (current === undefined)
        throw Object.assign(new Error('lease vanished'), { code: '40001' });
      return { holder: String(current['holder']), expiresInMs: Number(current['ms']) };
    },
    signal,
  );
}

/** Whether the lease row still carries the token, and what the session's last write id is. */
async function writeStatus(
  ctx: StoreContext,
  lease: PostgresLease,
): Promise<{ held: boolean; lastWrite: string | undefined }> {
  const { t } = ctx;
  const result = await ctx.pool.query(
    `SELECT EXISTS (SELECT 1 FROM ${t.leases} WHERE session_id = $1 AND token = $2) AS held,
            (SELECT last_write::text FROM ${t.sessions} WHERE session_id = $1) AS last_write`,
    [lease.sessionId, lease.token],
  );
  const row = result.rows[0] ?? {};
  const lastWrite = row['last_write'];
  return {
    held: row['held'] === true,
    lastWrite: typeof lastWrite === 'string' ? lastWrite : undefined,
  };
}

/** Inserts a session row, fenced by the lease. Idempotent across retries (the row records our write id). */
export async function insertSession(
  ctx: StoreContext,
  lease: PostgresLease,
  metadata: Record<string, unknown>,
): Promise<void> {
  const { t } = ctx;
  const writeId = randomUUID();
  const c: SessionColumns = sessionColumns(metadata, new Date().toISOString());
  await withRetry('create session', ctx.retry, ctx.logger, async () => {
    const inserted = await ctx.pool.query(
      `WITH lease AS (
         UPDATE ${t.leases} SET expires_at = ${TTL(3)} WHERE session_id = $1 AND token = $2 RETURNING session_id
       )
       INSERT INTO ${t.sessions} (session_id, project_hash, kind, start_time, last_updated, summary, metadata,
         waiting_approval, last_write)
       SELECT lease.session_id, $4, $5, $6, $7, $8, $9, $10, $11 FROM lease
       ON CONFLICT (session_id) DO NOTHING RETURNING 1`,
      [
        lease.sessionId,
        lease.token,
        ctx.ttlSeconds,
        c.projectHash,
        c.kind,
        c.startTime,
        c.lastUpdated,
        c.summary,
        JSON.stringify(metadata),
        c.waitingApproval,
        writeId,
      ],
    );
    if (inserted.rowCount === 1) return;
    const status = await writeStatus(ctx, lease);
    if (!status.held) throw new LeaseLost();
    if (status.lastWrite === writeId) return;
    throw sessionExistsError(lease.sessionId, storeLocation(ctx.schema));
  }).catch((err: unknown) => {
    throw err instanceof LeaseLost ? lostLeaseError(lease) : err;
  });
  lease.state = { metadata, nextSeq: 0 };
}

/** The writer state of a session row, or undefined when the session does not exist. */
export async function readWriterState(
  ctx: StoreContext,
  sessionId: string,
): Promise<WriterState | undefined> {
  const result = await withRetry('read session', ctx.retry, ctx.logger, () =>
    ctx.pool.query(
      `SELECT metadata, next_seq::text AS next_seq FROM ${ctx.t.sessions} WHERE session_id = $1`,
      [sessionId],
    ),
  );
  const row = result.rows[0];
  if (row === undefined) return undefined;
  let metadata: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(String(row['metadata']));
    if (typeof parsed === 'object' && parsed !== null) metadata = parsed as Record<string, unknown>;
  } catch {
    ctx.logger.warn('postgres: unreadable session metadata replaced', { sessionId });
  }
  return { metadata, nextSeq: Number(row['next_seq']) };
}

function columnsOf(rows: readonly MessageRow[], firstSeq: number) {
  return [
    rows.map((_, i) => firstSeq + i),
    rows.map((r) => r.id),
    rows.map((r) => r.type),
    rows.map((r) => r.prompt),
    rows.map((r) => r.body),
  ];
}

/** Upsert of rows given as five arrays from parameter `$<base>` on, for the session `sessionExpr`. */
function upsertSql(
  t: StoreContext['t'],
  source: string,
  sessionExpr: string,
  base: number,
): string {
  const p = (i: number) => `$${base + i}`;
  return `INSERT INTO ${t.messages} (session_id, seq, message_id, type, prompt, body)
   SELECT ${sessionExpr}, m.seq, m.id, m.type, m.prompt, m.body
   FROM ${source}unnest(${p(0)}::bigint[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[])
     AS m(seq, id, type, prompt, body)
   ON CONFLICT (session_id, message_id)
     DO UPDATE SET type = EXCLUDED.type, prompt = EXCLUDED.prompt, body = EXCLUDED.body`;
}

/** Parameters of the session-row update (see {@link sessionSet}). */
function sessionParams(c: SessionColumns, metadata: object, nextSeq: number, writeId: string) {
  return [
    JSON.stringify(metadata),
    c.projectHash,
    c.kind,
    c.startTime,
    c.lastUpdated,
    c.summary,
    c.waitingApproval,
    nextSeq,
    writeId,
  ];
}

/** The SET list of the session-row update, its nine parameters from `$<base>` on. */
function sessionSet(base: number): string {
  const cols = ['metadata', 'project_hash', 'kind', 'start_time', 'last_updated', 'summary'];
  const more = ['waiting_approval', 'next_seq', 'last_write'];
  return [...cols, ...more].map((c, i) => `${c} = $${base + i}`).join(', ');
}

/** Message upserts only: one statement (lease check, renewal, upserts, session row). */
async function appendSimple(
  ctx: StoreContext,
  lease: PostgresLease,
  rows: readonly MessageRow[],
  firstSeq: number,
  session: unknown[],
): Promise<boolean> {
  const { t } = ctx;
  const result = await ctx.pool.query(
    `WITH lease AS (
       UPDATE ${t.leases} SET expires_at = ${TTL(3)} WHERE session_id = $1 AND token = $2 RETURNING session_id
     ), ins AS (
       ${upsertSql(t, 'lease CROSS JOIN ', 'lease.session_id', 4)}
       RETURNING (xmax = 0) AS inserted
     )
     UPDATE ${t.sessions} s SET ${sessionSet(9)},
       message_count = s.message_count + (SELECT count(*) FROM ins WHERE inserted)
     FROM lease WHERE s.session_id = lease.session_id
     RETURNING 1`,
    [lease.sessionId, lease.token, ctx.ttlSeconds, ...columnsOf(rows, firstSeq), ...session],
  );
  return result.rowCount === 1;
}

/** Rewinds or checkpoints: a transaction that applies the steps in order under the locked lease row. */
async function appendSteps(
  ctx: StoreContext,
  lease: PostgresLease,
  steps: ReadonlyArray<{ step: AppendStep; firstSeq: number }>,
  session: unknown[],
): Promise<boolean> {
  const { t } = ctx;
  const id = lease.sessionId;
  return inTransaction(ctx.pool, 'BEGIN', async (client: PostgresClient) => {
    const locked = await client.query(
      `UPDATE ${t.leases} SET expires_at = ${TTL(3)} WHERE session_id = $1 AND token = $2 RETURNING 1`,
      [id, lease.token, ctx.ttlSeconds],
    );
    if (locked.rowCount !== 1) return false;
    const upsert = (rows: readonly MessageRow[], firstSeq: number) =>
      client.query(upsertSql(t, '', '$1::text', 2), [id, ...columnsOf(rows, firstSeq)]);
    for (const { step, firstSeq } of steps) {
      if (step.kind === 'upsert') await upsert(step.messages, firstSeq);
      else if (step.kind === 'replace') {
        await client.query(`DELETE FROM ${t.messages} WHERE session_id = $1`, [id]);
        await upsert(step.messages, firstSeq);
      } else {
        await client.query(
          `DELETE FROM ${t.messages} WHERE session_id = $1 AND seq >= coalesce(
             (SELECT seq FROM ${t.messages} WHERE session_id = $1 AND message_id = $2), -1)`,
          [id, step.messageId],
        );
      }
    }
    const updated = await client.query(
      `UPDATE ${t.sessions} SET ${sessionSet(2)},
         message_count = (SELECT count(*) FROM ${t.messages} WHERE session_id = $1)
       WHERE session_id = $1 RETURNING 1`,
      [id, ...session],
    );
    return updated.rowCount === 1;
  });
}

/**
 * Appends records to a session under its lease: plans them with the record semantics, gives every new row the
 * next positions, and writes in one statement (or one transaction for rewinds and checkpoints) that also checks
 * the fencing token. A retry after a lost reply first checks whether the attempt committed (the session row
 * records the id of its last write), so a write is applied once.
 */
export async function appendRecords(
  ctx: StoreContext,
  lease: PostgresLease,
  state: WriterState,
  records: readonly unknown[],
): Promise<void> {
  const plan = planAppend(lease.sessionId, state.metadata, records);
  let nextSeq = state.nextSeq;
  const steps = plan.steps.map((step) => {
    const firstSeq = nextSeq;
    if (step.kind !== 'rewind') nextSeq += step.messages.length;
    return { step, firstSeq };
  });
  const columns = sessionColumns(plan.metadata, new Date().toISOString());
  const writeId = randomUUID();
  const session = sessionParams(columns, plan.metadata, nextSeq, writeId);
  lease.state = undefined;
  await withRetry('append', ctx.retry, ctx.logger, async (attempt) => {
    if (attempt > 0) {
      const status = await writeStatus(ctx, lease);
      if (!status.held) throw new LeaseLost();
      if (status.lastWrite === writeId) return;
    }
    const written = isSimplePlan(plan)
      ? await appendSimple(
          ctx,
          lease,
          steps[0]?.step.kind === 'upsert' ? steps[0].step.messages : [],
          state.nextSeq,
          session,
        )
      : await appendSteps(ctx, lease, steps, session);
    if (!written) throw new LeaseLost();
  }).catch((err: unknown) => {
    throw err instanceof LeaseLost ? lostLeaseError(lease) : err;
  });
  lease.state = { metadata: plan.metadata, nextSeq };
}

/** Deletes a session under a lease (fenced). Returns false when there was no such session. */
export async function deleteSessionRow(ctx: StoreContext, lease: PostgresLease): Promise<boolean> {
  const { t } = ctx;
  return withRetry('delete session', ctx.retry, ctx.logger, async () => {
    const deleted = await ctx.pool.query(
      `DELETE FROM ${t.sessions} WHERE session_id = $1
         AND EXISTS (SELECT 1 FROM ${t.leases} WHERE session_id = $1 AND token = $2)
       RETURNING 1`,
      [lease.sessionId, lease.token],
    );
    if (deleted.rowCount === 1) return true;
    const status = await writeStatus(ctx, lease);
    if (!status.held) throw new LeaseLost();
    return false;
  }).catch((err: unknown) => {
    throw err instanceof LeaseLost ? lostLeaseError(lease) : err;
  });
}
