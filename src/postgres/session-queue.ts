import { ConfigurationError } from '../errors.js';
import { validateSessionId } from '../sessions/session-paths.js';
import { withRetry } from './pg-retry.js';
import type { PostgresLease } from './postgres-lease.js';
import type { PostgresSessionStore } from './postgres-session-store.js';
import { inTransaction, type StoreContext } from './store-context.js';

/** A decision for one held call, as `session.resolveApprovals` takes it. */
export interface QueuedDecision {
  callId: string;
  decision: 'allow' | 'allow_always' | 'deny';
  message?: string;
}

/** One input waiting for a worker: a prompt to send, or decisions for the calls a paused turn holds. */
export type SessionInput =
  | { id: number; sessionId: string; kind: 'prompt'; prompt: string }
  | { id: number; sessionId: string; kind: 'approval'; decisions: QueuedDecision[] };

/** A call a paused turn holds for approval (from the stored paused turn). */
export interface WaitingCall {
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
}

function parseInput(row: Record<string, unknown>): SessionInput | undefined {
  const id = Number(row['id']);
  const sessionId = String(row['session_id']);
  try {
    const payload = JSON.parse(String(row['payload'])) as Record<string, unknown>;
    if (row['kind'] === 'prompt' && typeof payload['prompt'] === 'string') {
      return { id, sessionId, kind: 'prompt', prompt: payload['prompt'] };
    }
    if (row['kind'] === 'approval' && Array.isArray(payload['decisions'])) {
      return {
        id,
        sessionId,
        kind: 'approval',
        decisions: payload['decisions'] as QueuedDecision[],
      };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * The work queue of `gemini-agent-sdk/postgres`: inputs for sessions (prompts, approval decisions) in a table of
 * the store's schema. Producers enqueue; {@link PostgresSessionWorker}s claim sessions that have inputs. A claim
 * is the session's write lease itself (taken while the claimed input rows are locked `FOR UPDATE SKIP LOCKED`, so
 * concurrent workers pick different sessions), which is why a dead worker's sessions move to another worker
 * exactly when its leases expire.
 */
export class PostgresSessionQueue {
  constructor(readonly store: PostgresSessionStore) {}

  private async ctx(): Promise<StoreContext> {
    return this.store.sharedContext();
  }

  /**
   * Queues a prompt for a session (created by the worker if it does not exist). With a `dedupeKey`, a second
   * enqueue with the same key for the same session is a no-op (returns `created: false`).
   */
  async enqueuePrompt(
    sessionId: string,
    prompt: string,
    options: { dedupeKey?: string } = {},
  ): Promise<{ id: number | undefined; created: boolean }> {
    if (typeof prompt !== 'string' || prompt.length === 0) {
      throw new ConfigurationError('enqueuePrompt needs a non-empty prompt string.');
    }
    return this.enqueue(sessionId, 'prompt', { prompt }, options.dedupeKey);
  }

  /**
   * Queues decisions for calls a session's paused turn holds. Use the call ids as `dedupeKey` (the default) so an
   * approver that sees the same pause twice decides once.
   */
  async enqueueApprovals(
    sessionId: string,
    decisions: readonly QueuedDecision[],
    options: { dedupeKey?: string } = {},
  ): Promise<{ id: number | undefined; created: boolean }> {
    if (decisions.length === 0)
      throw new ConfigurationError('enqueueApprovals needs at least one decision.');
    const key = options.dedupeKey ?? `approval:${decisions.map((d) => d.callId).join(',')}`;
    return this.enqueue(sessionId, 'approval', { decisions }, key);
  }

  private async enqueue(
    sessionId: string,
    kind: SessionInput['kind'],
    payload: object,
    dedupeKey: string | undefined,
  ): Promise<{ id: number | undefined; created: boolean }> {
    validateSessionId(sessionId);
    const ctx = await this.ctx();
    const result = await withRetry('enqueue', ctx.retry, ctx.logger, () =>
      ctx.pool.query(
        `INSERT INTO ${ctx.t.inputs} (session_id, kind, payload, dedupe_key) VALUES ($1, $2, $3, $4)
         ON CONFLICT (session_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING id::float8 AS id`,
        [sessionId, kind, JSON.stringify(payload), dedupeKey ?? null],
      ),
    );
    const row = result.rows[0];
    return { id: row === undefined ? undefined : Number(row['id']), created: row !== undefined };
  }

  /**
   * Claims up to `limit` sessions that have undone inputs and no live lease, and takes their leases. A session
   * whose paused turn waits for approval is claimed only once a decision for it is queued. Returns the leases (the
   * caller owns them).
   */
  async claim(limit: number): Promise<PostgresLease[]> {
    const ctx = await this.ctx();
    const { t } = ctx;
    return inTransaction(ctx.pool, 'BEGIN', async (client) => {
      const rows = await client.query(
        `SELECT i.session_id FROM ${t.inputs} i
         LEFT JOIN ${t.sessions} s ON s.session_id = i.session_id
         WHERE i.done_at IS NULL AND (i.kind = 'approval' OR NOT coalesce(s.waiting_approval, false))
           AND NOT EXISTS (SELECT 1 FROM ${t.leases} l WHERE l.session_id = i.session_id AND l.expires_at > now())
         ORDER BY i.id LIMIT $1 FOR UPDATE OF i SKIP LOCKED`,
        [limit * 4],
      );
      const ids = [...new Set(rows.rows.map((r) => String(r['session_id'])))].slice(0, limit);
      const leases: PostgresLease[] = [];
      for (const id of ids) {
        try {
          leases.push((await this.store.acquireLease(id)) as PostgresLease);
        } catch (err) {
          if ((err as { code?: unknown }).code !== 'SESSION_LOCKED') throw err;
        }
      }
      return leases;
    });
  }

  /** A session's undone inputs, oldest first. */
  async pending(sessionId: string): Promise<SessionInput[]> {
    const ctx = await this.ctx();
    const result = await withRetry('pending inputs', ctx.retry, ctx.logger, () =>
      ctx.pool.query(
        `SELECT id::float8 AS id, session_id, kind, payload FROM ${ctx.t.inputs}
         WHERE session_id = $1 AND done_at IS NULL ORDER BY id`,
        [sessionId],
      ),
    );
    return result.rows.flatMap((r) => parseInput(r) ?? []);
  }

  /** Marks inputs handled (their effect is in the session, or they were obsolete). */
  async markDone(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const ctx = await this.ctx();
    await withRetry('mark inputs done', ctx.retry, ctx.logger, () =>
      ctx.pool.query(
        `UPDATE ${ctx.t.inputs} SET done_at = now() WHERE id = ANY($1::bigint[]) AND done_at IS NULL`,
        [ids],
      ),
    );
  }

  /**
   * Sessions whose paused turn waits for decisions and has none queued yet, with the held calls — what an approver
   * (a human's inbox, a policy service) works through.
   */
  async waitingApprovals(limit = 100): Promise<Array<{ sessionId: string; calls: WaitingCall[] }>> {
    const ctx = await this.ctx();
    const { t } = ctx;
    const result = await withRetry('waiting approvals', ctx.retry, ctx.logger, () =>
      ctx.pool.query(
        `SELECT s.session_id, s.metadata FROM ${t.sessions} s
         WHERE s.waiting_approval AND NOT EXISTS (
           SELECT 1 FROM ${t.inputs} i WHERE i.session_id = s.session_id AND i.kind = 'approval' AND i.done_at IS NULL)
         ORDER BY s.last_updated LIMIT $1`,
        [limit],
      ),
    );
    return result.rows.map((r) => ({
      sessionId: String(r['session_id']),
      calls: heldCalls(String(r['metadata'])),
    }));
  }

  /** Inputs queued in total and still undone. */
  async counts(): Promise<{ total: number; undone: number }> {
    const ctx = await this.ctx();
    const result = await ctx.pool.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE done_at IS NULL)::int AS undone FROM ${ctx.t.inputs}`,
    );
    return {
      total: Number(result.rows[0]?.['total'] ?? 0),
      undone: Number(result.rows[0]?.['undone'] ?? 0),
    };
  }
}

/** The calls a stored paused turn holds (`pending` state), from the session's metadata text. */
function heldCalls(metadataText: string): WaitingCall[] {
  try {
    const metadata = JSON.parse(metadataText) as { pausedTurn?: { turn?: { calls?: unknown[] } } };
    const calls = metadata.pausedTurn?.turn?.calls ?? [];
    return calls.flatMap((c) => {
      const call = c as {
        state?: string;
        approval?: { callId?: string; toolName?: string; request?: { args?: unknown } };
      };
      if (call.state !== 'pending' || typeof call.approval?.callId !== 'string') return [];
      return [
        {
          callId: call.approval.callId,
          toolName: String(call.approval.toolName ?? ''),
          args: (call.approval.request?.args ?? {}) as Record<string, unknown>,
        },
      ];
    });
  } catch {
    return [];
  }
}
