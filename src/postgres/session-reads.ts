import { InternalError } from '../errors.js';
import { throwIfAborted } from '../core/abort.js';
import { MessageRecord, SessionMetadataRecord } from '../sessions/records.js';
import type { SessionSummary, StoredSession } from '../sessions/session-store.js';
import { sessionNotFoundError } from '../sessions/store-errors.js';
import { isConnectionFailure, type PostgresClient } from './pg-pool.js';
import { storeLocation, type StoreContext } from './store-context.js';

/** The session row's metadata, completed as a `StoredSession` needs it. */
export type StoredMetadata = StoredSession['metadata'];

/** Parses a stored metadata text; the row's columns win for the id, project and times. */
function metadataOf(row: Record<string, unknown>, ctx: StoreContext): StoredMetadata {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(String(row['metadata']));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      raw = parsed as Record<string, unknown>;
    }
  } catch {
    ctx.logger.warn('postgres: unreadable session metadata', { sessionId: row['session_id'] });
  }
  const merged = {
    ...raw,
    sessionId: String(row['session_id']),
    projectHash: String(row['project_hash']),
  };
  const checked = SessionMetadataRecord.safeParse(merged);
  const metadata = checked.success ? checked.data : merged;
  return {
    ...metadata,
    startTime: String(row['start_time']),
    lastUpdated: String(row['last_updated']),
  };
}

/** Where a session lives, for messages and tooling. */
export function sessionLocation(schema: string, sessionId: string): string {
  return `postgres:${schema}/${sessionId}`;
}

async function notFound(
  ctx: StoreContext,
  query: PostgresClient,
  sessionId: string,
): Promise<Error> {
  const any = await query.query(`SELECT EXISTS (SELECT 1 FROM ${ctx.t.sessions}) AS any`);
  return sessionNotFoundError(sessionId, storeLocation(ctx.schema), any.rows[0]?.['any'] !== true);
}

/** One item of a session snapshot: its metadata first, then its messages in pages. */
export type SnapshotItem =
  { kind: 'metadata'; metadata: StoredMetadata } | { kind: 'page'; messages: MessageRecord[] };

/**
 * Reads a session in one consistent snapshot (a REPEATABLE READ, read-only transaction on one connection): the
 * metadata, then the messages in `seq` order, `pageSize` rows per query (keyset pagination on the primary key),
 * so a long session streams without holding it in one result.
 *
 * @throws SessionNotFoundError before yielding anything, when the session does not exist.
 */
export async function* readSnapshot(
  ctx: StoreContext,
  sessionId: string,
  pageSize: number,
  signal?: AbortSignal,
): AsyncGenerator<SnapshotItem> {
  const { t } = ctx;
  const client = await ctx.pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  let open = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    const head = await client.query(
      `SELECT session_id, project_hash, start_time, last_updated, metadata FROM ${t.sessions}
       WHERE session_id = $1`,
      [sessionId],
    );
    const row = head.rows[0];
    if (row === undefined) throw await notFound(ctx, client, sessionId);
    yield { kind: 'metadata', metadata: metadataOf(row, ctx) };
    let after = -1;
    for (;;) {
      throwIfAborted(signal);
      const page = await client.query(
        `SELECT seq::float8 AS seq, body FROM ${t.messages}
         WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [sessionId, after, pageSize],
      );
      const messages: MessageRecord[] = [];
      for (const r of page.rows) {
        const parsed = MessageRecord.safeParse(JSON.parse(String(r['body'])));
        if (parsed.success) messages.push(parsed.data);
        else ctx.logger.warn('postgres: skipped an invalid stored message', { sessionId });
      }
      if (messages.length > 0) yield { kind: 'page', messages };
      if (page.rows.length < pageSize) break;
      after = Number(page.rows.at(-1)?.['seq']);
    }
    open = false;
    await client.query('COMMIT');
  } catch (err) {
    if (isConnectionFailure(err)) broken ??= err as Error;
    throw err;
  } finally {
    if (open && broken === undefined) {
      await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
    }
    client.off('error', onError);
    client.release(broken ?? false);
  }
}

/** Loads a whole session from one snapshot. */
export async function loadSession(
  ctx: StoreContext,
  sessionId: string,
  pageSize: number,
  signal?: AbortSignal,
): Promise<StoredSession> {
  let metadata: StoredMetadata | undefined;
  const messages: MessageRecord[] = [];
  for await (const item of readSnapshot(ctx, sessionId, pageSize, signal)) {
    if (item.kind === 'metadata') metadata = item.metadata;
    else for (const m of item.messages) messages.push(m);
  }
  if (metadata === undefined)
    throw new InternalError(`postgres: the snapshot of ${sessionId} had no metadata`);
  return { metadata, messages, location: sessionLocation(ctx.schema, sessionId) };
}

/** A session's metadata alone (the first item of its snapshot). */
export async function loadMetadataOnly(
  ctx: StoreContext,
  sessionId: string,
  signal?: AbortSignal,
): Promise<StoredMetadata> {
  const snapshot = readSnapshot(ctx, sessionId, 1, signal);
  try {
    const first = await snapshot.next();
    if (first.done || first.value.kind !== 'metadata') {
      throw new InternalError(`postgres: the snapshot of ${sessionId} had no metadata`);
    }
    return first.value.metadata;
  } finally {
    await snapshot.return(undefined);
  }
}

/** Which sessions a listing covers. */
export interface ListFilter {
  /** Only sessions with this `projectHash`; undefined lists every project. */
  projectHash: string | undefined;
  /** Only sessions whose paused turn waits for approval decisions. */
  waitingForApproval?: boolean;
}

/** A page of {@link SessionSummary} rows and the cursor of the next one. */
export interface SessionPage {
  /** Sessions of this page, oldest start first. */
  sessions: SessionSummary[];
  /** Pass as `cursor` to get the next page; undefined on the last page. */
  nextCursor: string | undefined;
}

function encodeCursor(startTime: string, sessionId: string): string {
  return Buffer.from(JSON.stringify([startTime, sessionId])).toString('base64url');
}

/** Decodes a list cursor; undefined for a cursor that is not ours. */
export function decodeCursor(cursor: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return [value[0] as string, value[1] as string];
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * One page of sessions (subagent sessions excluded), oldest start first, by keyset pagination on
 * `(start_time, session_id)` — served by the `sessions_project_start` / `sessions_start` indexes. The first
 * prompt comes from the `messages_prompt` partial index: one lookup per listed session.
 */
export async function listSessionPage(
  ctx: StoreContext,
  filter: ListFilter,
  limit: number,
  after: [string, string] | undefined,
): Promise<SessionPage> {
  const { t } = ctx;
  const where = [`s.kind <> 'subagent'`];
  const params: unknown[] = [];
  if (filter.projectHash !== undefined) {
    params.push(filter.projectHash);
    where.push(`s.project_hash = $${params.length}`);
  }
  if (filter.waitingForApproval === true) where.push('s.waiting_approval');
  if (after !== undefined) {
    params.push(after[0], after[1]);
    where.push(`(s.start_time, s.session_id) > ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit + 1);
  const result = await ctx.pool.query(
    `SELECT s.session_id, s.start_time, s.last_updated, s.summary, s.kind, s.message_count,
       (SELECT m.prompt FROM ${t.messages} m WHERE m.session_id = s.session_id AND m.prompt IS NOT NULL
        ORDER BY m.seq LIMIT 1) AS first_prompt
     FROM ${t.sessions} s WHERE ${where.join(' AND ')}
     ORDER BY s.start_time, s.session_id LIMIT $${params.length}`,
    params,
  );
  const rows = result.rows.slice(0, limit);
  const sessions = rows.map((r): SessionSummary => {
    const sessionId = String(r['session_id']);
    const summary = r['summary'];
    const prompt = r['first_prompt'];
    return {
      sessionId,
      startTime: String(r['start_time']),
      lastUpdated: String(r['last_updated']),
      ...(typeof summary === 'string' ? { summary } : {}),
      ...(typeof prompt === 'string' ? { firstPrompt: prompt } : {}),
      messageCount: Number(r['message_count']),
      kind: r['kind'] === 'subagent' ? 'subagent' : 'main',
      location: sessionLocation(ctx.schema, sessionId),
    };
  });
  const last = sessions.at(-1);
  const more = result.rows.length > limit && last !== undefined;
  return { sessions, nextCursor: more ? encodeCursor(last.startTime, last.sessionId) : undefined };
}
