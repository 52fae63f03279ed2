/**
 * The failover acceptance test: 3 worker processes (examples/workers/worker.ts) run 50 sessions, each two tasks
 * with tool calls and a call that needs approval, while a random worker is killed with SIGKILL every 1.5–3 s (one that
 * is up, while another is up too) and replaced, as a supervisor would. The approver paces the run by the kills, so
 * at least three happen however fast the machine is. At the end every session's history is complete and
 * valid, no message is doubled, every approval was decided exactly once, and no approved tool ran twice. The
 * figures are printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresSessionQueue, type PostgresSessionStore } from '../../src/postgres/index.js';
import { createStorePersistence } from '../../src/sessions/session-persistence.js';
import { ROOT } from '../cli/helpers/built-cli.js';
import { usePostgres } from '../helpers/postgres.js';

const pg = usePostgres();
const SESSIONS = 50;
const TASKS = 2;
const WORKERS = 3;
const WORKER = join(ROOT, 'examples', 'workers', 'worker.ts');

interface Worker {
  name: string;
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const all: Worker[] = [];
afterAll(() => {
  for (const w of all)
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
});

function startWorker(name: string, schema: string): Worker {
  // One process per worker: node with tsx's loader (the tsx CLI would run the worker in a child process that a
  // SIGKILL of the CLI leaves running).
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['GEMINI_CLI_HOME'] ?? '/tmp',
      GEMINI_CLI_HOME: process.env['GEMINI_CLI_HOME'] ?? '/tmp',
      TSX_TSCONFIG_PATH: join(ROOT, 'examples', 'tsconfig.json'),
      PG_URL: pg.url,
      PG_SCHEMA: schema,
      WORKER_NAME: name,
      WORKER_CONCURRENCY: '12',
      LEASE_TTL_MS: '1500',
      TOOL_DELAY_MS: '200',
      MODEL_DELAY_MS: '15',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffer = '';
  const collect = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const worker = { name, child, lines, exited };
  all.push(worker);
  return worker;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (c: Content) => (c.parts ?? []).map((p) => p.text ?? '').join('');

describe('failover: 3 workers, 50 sessions, kill -9 every few seconds', () => {
  it('loses no message, doubles none, and decides every approval exactly once', async () => {
    const schema = 'failover';
    const store: PostgresSessionStore = pg.store({ schema });
    const queue = new PostgresSessionQueue(store);
    await store.migrate();
    for (let s = 0; s < SESSIONS; s++) {
      for (let t = 1; t <= TASKS; t++) {
        const key = t === 2 && s % 5 === 0 ? `secret-${s}` : `key-${s}-${t}`;
        await queue.enqueuePrompt(`s${s}`, `Task ${t}: set ${key} to v${t}.`, {
          dedupeKey: `task-${t}`,
        });
      }
    }
    const started = Date.now();
    const live: Worker[] = [];
    let serial = 0;
    for (let w = 0; w < WORKERS; w++) live.push(startWorker(`w${++serial}`, schema));

    // The approver: one decision per held call (the queue dedupes by call id); secrets are refused. It paces the
    // run by the kills: until a worker has been killed k times, it decides at most (k + 1) quarters of the calls,
    // so the run cannot end (on a fast idle machine) before the third kill, and kills still come at random times.
    const decisions = new Map<string, 'allow' | 'deny'>();
    const quarter = Math.ceil((SESSIONS * TASKS) / 4);
    let kills = 0;
    let nextKill = Date.now() + 1500 + Math.random() * 1500;
    const deadline = started + 100_000;
    for (;;) {
      for (const waiting of await queue.waitingApprovals()) {
        if (decisions.size >= (kills + 1) * quarter) break;
        const batch = waiting.calls.map((c) => {
          const decision = String(c.args['key']).startsWith('secret')
            ? ('deny' as const)
            : ('allow' as const);
          return { callId: c.callId, decision };
        });
        const { created } = await queue.enqueueApprovals(waiting.sessionId, batch);
        if (created)
          for (const d of batch) decisions.set(`${waiting.sessionId}/${d.callId}`, d.decision);
      }
      const { undone } = await queue.counts();
      if (undone === 0 && (await queue.waitingApprovals()).length === 0) break;
      if (Date.now() > deadline) {
        const tail = live.map((w) => `${w.name}:\n${w.lines.slice(-15).join('\n')}`).join('\n');
        throw new Error(`failover run did not finish: ${undone} inputs left\n${tail}`);
      }
      // Kill a worker that is up, as long as another one is up too: restarts alone must never stall the run.
      const ready = live.filter((w) => w.lines.some((l) => l.endsWith('] ready')));
      if (ready.length >= 2 && Date.now() >= nextKill) {
        const victim = ready[Math.floor(Math.random() * ready.length)]!;
        live.splice(live.indexOf(victim), 1);
        victim.child.kill('SIGKILL');
        await victim.exited;
        kills++;
        live.push(startWorker(`w${++serial}`, schema));
        nextKill = Date.now() + 1500 + Math.random() * 1500;
      }
      await sleep(100);
    }
    const elapsedMs = Date.now() - started;

    // Graceful shutdown: SIGTERM (once a worker is up), exit 0, every lease released.
    for (const w of live) {
      const until = Date.now() + 30_000;
      while (!w.lines.some((l) => l.endsWith('] ready'))) {
        if (w.child.exitCode !== null || Date.now() > until) {
          throw new Error(`worker ${w.name} never came up:\n${w.lines.join('\n')}`);
        }
        await sleep(50);
      }
      w.child.kill('SIGTERM');
    }
    const exits = await Promise.all(live.map((w) => w.exited));
    expect(exits.map((e) => e.code)).toEqual(live.map(() => 0));
    expect((await store.status()).liveLeases).toBe(0);

    // Every session: complete, valid, nothing doubled; every approval decided once; no approved tool ran twice.
    const persistence = createStorePersistence({ store });
    const effects = await pg.admin.query(
      `SELECT op, session_id, count(*)::int AS n FROM "${schema}".demo_effects GROUP BY 1, 2`,
    );
    const ran = new Map(effects.rows.map((r) => [`${r['session_id']}/${r['op']}`, Number(r['n'])]));
    expect([...ran.values()].every((n) => n === 1)).toBe(true);
    let messages = 0;
    let toolCalls = 0;
    let interrupted = 0;
    let allowedRan = 0;
    let denied = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const id = `s${s}`;
      const stored = await store.load(id);
      messages += stored.messages.length;
      const history = await persistence.loadHistory(id);
      // Each task prompt once, each finished once.
      for (let t = 1; t <= TASKS; t++) {
        const prompts = history.filter(
          (c) => c.role === 'user' && textOf(c).startsWith(`Task ${t}:`),
        );
        expect(prompts, `${id} task ${t} prompt`).toHaveLength(1);
        const answers = history.filter(
          (c) => c.role === 'model' && new RegExp(`^Task ${t}[ :]`).test(textOf(c)),
        );
        expect(answers, `${id} task ${t} answer`).toHaveLength(1);
      }
      expect(history.at(-1)?.role).toBe('model');
      const seenCalls = new Set<string>();
      history.forEach((content, i) => {
        const calls = (content.parts ?? []).flatMap((p) =>
          p.functionCall ? [p.functionCall] : [],
        );
        if (content.role !== 'model' || calls.length === 0) return;
        const next = history[i + 1];
        const responses = (next?.parts ?? []).flatMap((p) =>
          p.functionResponse ? [p.functionResponse] : [],
        );
        expect(next?.role, `${id}: calls of turn ${i} answered`).toBe('user');
        expect(responses.map((r) => r.id)).toEqual(calls.map((c) => c.id));
        for (const [k, call] of calls.entries()) {
          expect(seenCalls.has(call.id!), `${id}: call ${call.id} made once`).toBe(false);
          seenCalls.add(call.id!);
          toolCalls++;
          const response = responses[k]!.response ?? {};
          const error = response['error'] === undefined ? undefined : String(response['error']);
          if (error !== undefined && /interrupted/i.test(error)) interrupted++;
          if (call.name !== 'set_value') continue;
          const key = `${id}/${String(call.args?.['op'])}`;
          expect(error ?? '', `${id}: ${call.id} was never abandoned undecided`).not.toMatch(
            /no decision|did not run|not approved/i,
          );
          if (error === undefined) {
            allowedRan++;
            expect(ran.get(key), `${id}: approved ${call.id} ran exactly once`).toBe(1);
          } else if (!/interrupted/i.test(error)) {
            denied++;
            expect(ran.has(key), `${id}: denied ${call.id} never ran`).toBe(false);
          }
        }
      });
    }
    // Every approval request got exactly one queued decision, and each was delivered (or found obsolete) once.
    const approvals = await pg.admin.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE done_at IS NOT NULL)::int AS done,
              count(DISTINCT (session_id, dedupe_key))::int AS keys FROM "${schema}".inputs WHERE kind = 'approval'`,
    );
    const row = approvals.rows[0]!;
    if (row['n'] !== decisions.size) {
      const rows = await pg.admin.query(
        `SELECT session_id, dedupe_key, payload, done_at FROM "${schema}".inputs WHERE kind = 'approval' ORDER BY session_id, id`,
      );
      process.stdout.write(
        `DEBUG decisions ${JSON.stringify([...decisions.keys()].sort())}\nDEBUG rows ${JSON.stringify(rows.rows)}\n`,
      );
    }
    expect(row['n']).toBe(decisions.size);
    expect(row['keys']).toBe(decisions.size);
    expect(row['done']).toBe(decisions.size);
    expect(allowedRan + denied).toBeGreaterThanOrEqual(SESSIONS * TASKS);

    const lines = all.flatMap((w) => w.lines);
    const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
    const figures = {
      sessions: SESSIONS,
      tasks: SESSIONS * TASKS,
      workersStarted: serial,
      kills,
      takeovers: count(/took over an expired lease/),
      recoveredTurns: count(/\] recovered /),
      messages,
      toolCalls,
      approvalsDecided: decisions.size,
      approvedAndRan: allowedRan,
      denied,
      interruptedCalls: interrupted,
      seconds: Math.round(elapsedMs / 100) / 10,
    };
    process.stdout.write(`failover figures: ${JSON.stringify(figures)}\n`);
    expect(kills).toBeGreaterThanOrEqual(3);
    await pg.dispose(store);
  }, 150_000);
});
