import { describe, expect, it } from 'vitest';
import { ConfigurationError, SessionLockedError, SessionNotFoundError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { MessageRecord } from '../sessions/records.js';
import { usePostgres } from '../../test/helpers/postgres.js';
import { LATEST_SCHEMA_VERSION } from './migrations.js';
import type { PostgresLease } from './postgres-lease.js';
import { PostgresSessionStore } from './postgres-session-store.js';

const pg = usePostgres();
const T0 = '2026-03-04T05:06:07.000Z';

function msg(id: string, text: string, type: MessageRecord['type'] = 'user'): MessageRecord {
  return { id, timestamp: T0, type, content: [{ text }] };
}

function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string) => void lines.push(m);
  return { lines, debug: push, info: push, warn: push, error: push };
}

describe('PostgresSessionStore: leases and fencing', () => {
  it('refuses a write from a holder whose lease expired and was taken over, and changes nothing', async () => {
    const a = pg.store();
    const b = new PostgresSessionStore({ connectionString: pg.url, schema: a.schema });
    const lease = await a.acquireLease('fenced');
    await a.create(lease, { startTime: T0 });
    await a.append(lease, [msg('m1', 'before')]);
    await expect(b.acquireLease('fenced')).rejects.toThrow(/pid \d+ on .*lease expires in/);
    // The holder stalls past its lease (as a paused VM would): the row expires without a heartbeat.
    await pg.admin.query(
      `UPDATE "${a.schema}".leases SET expires_at = now() - interval '1 second' WHERE session_id = 'fenced'`,
    );
    const taken = await b.acquireLease('fenced');
    await b.append(taken, [msg('m2', 'new holder')]);
    const stale = a.append(lease, [msg('m3', 'stale holder')]);
    await expect(stale).rejects.toBeInstanceOf(SessionLockedError);
    await expect(stale).rejects.toThrow(/fencing token is no longer current/);
    // Once lost, always lost: the lease cannot come back even after the new holder is gone.
    await taken.release();
    await expect(a.append(lease, [msg('m4', 'again')])).rejects.toBeInstanceOf(SessionLockedError);
    const stored = await b.load('fenced');
    expect(stored.messages.map((m) => m.id)).toEqual(['m1', 'm2']);
    await lease.release();
    await b.close();
    await pg.dispose(a);
  });

  it('hands out increasing fencing tokens and lets exactly one of many racing stores win', async () => {
    const first = pg.store();
    const others = Array.from(
      { length: 6 },
      () =>
        new PostgresSessionStore({
          connectionString: pg.url,
          schema: first.schema,
          maxConnections: 1,
        }),
    );
    await first.migrate();
    const results = await Promise.allSettled(others.map((s) => s.acquireLease('race')));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => r.reason instanceof SessionLockedError),
    ).toBe(true);
    const winner = (won[0] as PromiseFulfilledResult<PostgresLease>).value;
    await winner.release();
    const next = (await first.acquireLease('race')) as PostgresLease;
    expect(BigInt(next.token)).toBeGreaterThan(BigInt(winner.token));
    await next.release();
    await Promise.all(others.map((s) => s.close()));
    await pg.dispose(first);
  });

  it('renews leases with a heartbeat and marks a lease lost when the database says another holder has it', async () => {
    const logger = collectingLogger();
    const store = pg.store({ lease: { ttlMs: 600, heartbeatMs: 100 }, logger });
    const lease = await store.acquireLease('beating');
    await store.create(lease, { startTime: T0 });
    const before = await store.leaseHolder('beating');
    await new Promise((r) => setTimeout(r, 900));
    const after = await store.leaseHolder('beating');
    expect(after?.token).toBe(before?.token);
    expect(after!.expiresAt.getTime()).toBeGreaterThan(before!.expiresAt.getTime());
    await pg.admin.query(
      `UPDATE "${store.schema}".leases SET token = token + 1000 WHERE session_id = 'beating'`,
    );
    await expect
      .poll(() => logger.lines.some((l) => /taken over/.test(l)), { timeout: 5_000 })
      .toBe(true);
    await expect(store.append(lease, [msg('x', 'x')])).rejects.toBeInstanceOf(SessionLockedError);
    await pg.dispose(store);
  });

  it('takes over the lease of a holder that stopped renewing once it expires', async () => {
    const dead = pg.store({ lease: { ttlMs: 300, heartbeatMs: 100 } });
    const lease = await dead.acquireLease('orphan');
    await dead.create(lease, { startTime: T0 });
    // The holder dies without releasing: no heartbeat any more.
    (dead as unknown as { context: Promise<{ keeper: { stop(): void } }> }).context.then((c) =>
      c.keeper.stop(),
    );
    const logger = collectingLogger();
    const heir = new PostgresSessionStore({
      connectionString: pg.url,
      schema: dead.schema,
      logger,
    });
    await expect
      .poll(
        () =>
          heir
            .acquireLease('orphan')
            .then((l) => l.release())
            .then(
              () => true,
              () => false,
            ),
        {
          timeout: 5_000,
          interval: 100,
        },
      )
      .toBe(true);
    expect(logger.lines).toContain('postgres: took over an expired session lease');
    await heir.close();
    await pg.dispose(dead);
  });
});

describe('PostgresSessionStore: connection loss', () => {
  it('retries appends on lost connections and applies each exactly once', async () => {
    const store = pg.store({ retry: { attempts: 30, baseDelayMs: 5, maxDelayMs: 100 } });
    const lease = await store.acquireLease('flaky');
    await store.create(lease, { startTime: T0 });
    let killing = true;
    // Drops the store's connections every 60 ms or so while it appends: each append that meets a dropped
    // connection must be retried on a fresh one, and applied once.
    const killer = (async () => {
      let killed = 0;
      while (killing) {
        const r = await pg.admin.query(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND application_name <> 'gas-test-admin'
             AND backend_type = 'client backend'`,
        );
        killed += Number(r.rows[0]?.['n'] ?? 0);
        await new Promise((res) => setTimeout(res, 60));
      }
      return killed;
    })();
    try {
      for (let i = 0; i < 60; i++) {
        await store.append(lease, [msg(`m${i}`, `#${i}`), { $set: { lastUpdated: `t${i}` } }]);
        if (i % 20 === 10) {
          await store.append(lease, [{ $rewindTo: `m${i}` }, msg(`m${i}`, `#${i} again`)]);
        }
      }
    } finally {
      killing = false;
    }
    expect(await killer).toBeGreaterThan(0);
    const stored = await store.load('flaky');
    expect(stored.messages.map((m) => m.id)).toEqual(Array.from({ length: 60 }, (_, i) => `m${i}`));
    expect(stored.metadata.lastUpdated).toBe('t59');
    const [summary] = await store.list();
    expect(summary?.messageCount).toBe(60);
    await lease.release();
    await pg.dispose(store);
  });
});

describe('PostgresSessionStore: reads, lists, metadata', () => {
  it('streams messages in pages from one snapshot and keeps any JSON text exactly', async () => {
    const store = pg.store({ pageSize: 7 });
    const lease = await store.acquireLease('paged');
    await store.create(lease, { startTime: T0 });
    const odd = 'nul \u0000, emoji 🧪, quote " and \\ backslash';
    await store.append(
      lease,
      Array.from({ length: 50 }, (_, i) => msg(`p${i}`, i === 3 ? odd : `#${i}`)),
    );
    const pages: number[] = [];
    const ids: string[] = [];
    for await (const page of store.readMessages('paged')) {
      pages.push(page.length);
      if (ids.length === 0) await store.append(lease, [msg('late', 'not in this snapshot')]);
      ids.push(...page.map((m) => m.id));
    }
    expect(pages).toEqual([7, 7, 7, 7, 7, 7, 7, 1]);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `p${i}`));
    const loaded = await store.load('paged');
    expect(loaded.messages).toHaveLength(51);
    expect(loaded.messages[3]?.content).toEqual([{ text: odd }]);
    await expect(store.readMessages('nope').next()).rejects.toBeInstanceOf(SessionNotFoundError);
    await lease.release();
    await pg.dispose(store);
  });

  it('lists by project with keyset pages, and finds the sessions waiting for approval', async () => {
    const store = pg.store({ projectRoot: '/srv/app-a' });
    const other = new PostgresSessionStore({
      connectionString: pg.url,
      schema: store.schema,
      projectRoot: '/srv/app-b',
    });
    for (let i = 0; i < 5; i++) {
      const lease = await store.acquireLease(`a${i}`);
      await store.create(lease, { startTime: `2026-01-0${i + 1}T00:00:00.000Z` });
      await store.append(lease, [
        msg(`u${i}`, `<session_context>x</session_context>`),
        msg(`v${i}`, `prompt ${i}`),
      ]);
      if (i === 2) {
        await store.append(lease, [
          msg('g', 'calls', 'gemini'),
          { $set: { pausedTurn: { modelMessageId: 'g', turn: { version: 1, calls: [] } } } },
        ]);
      }
      await lease.release();
    }
    const b = await other.acquireLease('b0');
    await other.create(b, { startTime: '2025-12-31T00:00:00.000Z' });
    await b.release();
    const first = await store.listPage({ limit: 2 });
    expect(first.sessions.map((s) => s.sessionId)).toEqual(['a0', 'a1']);
    expect(first.sessions[0]).toMatchObject({
      firstPrompt: 'prompt 0',
      messageCount: 2,
      kind: 'main',
    });
    const second = await store.listPage({ limit: 2, cursor: first.nextCursor! });
    expect(second.sessions.map((s) => s.sessionId)).toEqual(['a2', 'a3']);
    const third = await store.listPage({ limit: 2, cursor: second.nextCursor! });
    expect(third.sessions.map((s) => s.sessionId)).toEqual(['a4']);
    expect(third.nextCursor).toBeUndefined();
    expect((await other.list()).map((s) => s.sessionId)).toEqual(['b0']);
    expect((await store.listPage({ allProjects: true })).sessions.map((s) => s.sessionId)).toEqual([
      'b0',
      'a0',
      'a1',
      'a2',
      'a3',
      'a4',
    ]);
    expect(
      (await store.listPage({ waitingForApproval: true })).sessions.map((s) => s.sessionId),
    ).toEqual(['a2']);
    expect((await store.loadMetadata('a2'))['pausedTurn']).toMatchObject({ modelMessageId: 'g' });
    await expect(store.listPage({ cursor: 'garbage' })).rejects.toBeInstanceOf(ConfigurationError);
    await other.close();
    await pg.dispose(store);
  });
});

describe('PostgresSessionStore: schema and options', () => {
  it('migrates once even when several stores start together; verify mode names the command to run', async () => {
    const schema = `mig_${process.pid}`;
    const stores = Array.from(
      { length: 3 },
      () => new PostgresSessionStore({ connectionString: pg.url, schema }),
    );
    const results = await Promise.all(stores.map((s) => s.migrate()));
    expect(results.flatMap((r) => r.applied.map((a) => a.version)).sort()).toEqual(
      Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    expect(results.every((r) => r.to === LATEST_SCHEMA_VERSION)).toBe(true);
    const verifying = new PostgresSessionStore({
      connectionString: pg.url,
      schema: `${schema}_empty`,
      migrate: 'verify',
    });
    await expect(verifying.list()).rejects.toThrow(/gemini-agent postgres migrate/);
    await pg.admin.query(
      `INSERT INTO "${schema}".schema_migrations (version, name) VALUES (999, 'future')`,
    );
    const old = new PostgresSessionStore({ connectionString: pg.url, schema });
    await expect(old.list()).rejects.toMatchObject({ code: 'POSTGRES_SCHEMA_TOO_NEW' });
    await Promise.all([...stores, verifying, old].map((s) => s.close()));
    await pg.admin.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('rejects bad options with a message that says what to pass', () => {
    expect(() => new PostgresSessionStore({} as never)).toThrow(
      /exactly one of connectionString and pool/,
    );
    expect(
      () => new PostgresSessionStore({ connectionString: 'postgres://x', schema: 'Bad-Name' }),
    ).toThrow(/Invalid PostgreSQL schema name/);
    expect(
      () =>
        new PostgresSessionStore({
          connectionString: 'postgres://x',
          lease: { ttlMs: 1000, heartbeatMs: 1000 },
        }),
    ).toThrow(/heartbeatMs .* must be shorter than lease.ttlMs/);
  });

  it('fails with a typed error, after its retries, when the server is unreachable', async () => {
    const store = new PostgresSessionStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/none',
      retry: { attempts: 2, baseDelayMs: 1 },
    });
    await expect(store.list()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await store.close();
  });
});
