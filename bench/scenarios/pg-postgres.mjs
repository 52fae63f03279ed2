/**
 * PG sessions in PostgreSQL (`gemini-agent-sdk/postgres`) against the file store, both durable (PostgreSQL with
 * its default fsync and synchronous commit, the file store with fdatasync per append), on a cluster this
 * scenario starts in a temp dir (scripts/pg-cluster.mjs; PG_URL uses an existing server instead):
 * - appends/s and the cost of one append at ~10, ~1,000 and ~10,000 messages, through the agent's persistence seam;
 * - resume of a 10,000-message session (load + rebuild the exact history);
 * - 1,000 sessions opened, written and closed concurrently over one pool of 10 connections.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ROOT, distHas, tempDir } from '../lib/env.mjs';
import { fmt, median, round, summarize } from '../lib/stats.mjs';
import { startPostgres } from '../../scripts/pg-cluster.mjs';

export const id = 'PG';
export const title = 'Sessions in PostgreSQL vs the file store';
const GOAL =
  'Postgres append cost flat from 10 to 10,000 messages (≤ 1.5×); resume of 10,000 messages ≤ 3× the file store; 1,000 concurrent sessions over a pool of 10 with no error';
const COUNT = 10_000;
const CONCURRENT = 1_000;
const WINDOWS = [
  { key: 'small', label: 'appends 1–20', from: 0, to: 20 },
  { key: 'mid', label: 'appends 951–1,050', from: 950, to: 1_050 },
  { key: 'big', label: 'appends 9,901–10,000', from: 9_900, to: 10_000 },
];

function entry(i) {
  const text = `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}`;
  const timestamp = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return i % 2 === 0
    ? { kind: 'user', content: { role: 'user', parts: [{ text }] }, timestamp }
    : { kind: 'model', content: { role: 'model', parts: [{ text }] }, timestamp, model: 'bench' };
}

async function appendRun(persistence, cwd) {
  const sid = randomUUID();
  const log = await persistence.open(sid, { resume: false, cwd });
  const perAppend = new Array(COUNT);
  const t0 = performance.now();
  for (let i = 0; i < COUNT; i++) {
    const a = performance.now();
    await log.append(entry(i));
    perAppend[i] = performance.now() - a;
  }
  const totalMs = performance.now() - t0;
  await log.close();
  const windows = Object.fromEntries(
    WINDOWS.map((w) => [w.key, median(perAppend.slice(w.from, w.to))]),
  );
  return { sid, windows, appendsPerSecond: (COUNT / totalMs) * 1000 };
}

async function resumeMs(persistence, cwd, sid) {
  const t0 = performance.now();
  const log = await persistence.open(sid, { resume: true, cwd });
  const ms = performance.now() - t0;
  const length = log.history.length;
  await log.close();
  if (length !== COUNT) throw new Error(`resume rebuilt ${length} messages, expected ${COUNT}`);
  return ms;
}

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'sessions/index.js', 'postgres/index.js'))
    return { skipped: 'the PostgreSQL store (dist/postgres/index.js) is not built' };
  // createStorePersistence is exported by the ./sessions subpath (the root exports were trimmed).
  const sdk = {
    ...(await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)),
    ...(await import(pathToFileURL(join(ROOT, 'dist', 'sessions', 'index.js')).href)),
  };
  const { PostgresSessionStore } = await import(
    pathToFileURL(join(ROOT, 'dist', 'postgres', 'index.js')).href
  );
  const server = await startPostgres({ durable: true, maxConnections: 60 });
  try {
    const home = tempDir('h8-p7-');
    const cwd = join(home, 'project');
    mkdirSync(cwd);
    const file = sdk.createStorePersistence({
      store: new sdk.FileSessionStore({ home, projectRoot: cwd }),
    });
    const pgStore = new PostgresSessionStore({
      connectionString: server.url,
      schema: 'bench',
      projectRoot: cwd,
    });
    await pgStore.migrate();
    const pgp = sdk.createStorePersistence({ store: pgStore });

    ctx.log('  PG: 10,000 appends on each store…');
    const fileRun = await appendRun(file, cwd);
    const pgRun = await appendRun(pgp, cwd);
    const fileResume = [];
    const pgResume = [];
    for (let i = 0; i < ctx.runs(5); i++) {
      fileResume.push(await resumeMs(file, cwd, fileRun.sid));
      pgResume.push(await resumeMs(pgp, cwd, pgRun.sid));
    }
    await pgStore.close();

    ctx.log(`  PG: ${CONCURRENT} concurrent sessions over a pool of 10…`);
    const poolStore = new PostgresSessionStore({
      connectionString: server.url,
      schema: 'bench_pool',
      projectRoot: cwd,
      maxConnections: 10,
    });
    await poolStore.migrate();
    const pooled = sdk.createStorePersistence({ store: poolStore });
    let errors = 0;
    const perSession = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, s) => {
        const a = performance.now();
        try {
          const log = await pooled.open(`c-${s}`, { resume: false, cwd });
          for (let i = 0; i < 4; i++) await log.append(entry(i));
          await log.close();
          const again = await pooled.open(`c-${s}`, { resume: true, cwd });
          if (again.history.length !== 4) errors++;
          await again.close();
        } catch {
          errors++;
        }
        perSession.push(performance.now() - a);
      }),
    );
    const concurrentMs = performance.now() - t0;
    const listed = (await poolStore.list()).length;
    await poolStore.close();

    const pgFlat = pgRun.windows.big / pgRun.windows.small;
    const fileR = summarize(fileResume);
    const pgR = summarize(pgResume);
    const resumeRatio = pgR.median / fileR.median;
    const met = pgFlat <= 1.5 && resumeRatio <= 3 && errors === 0 && listed === CONCURRENT;
    return {
      goal: {
        figure: `Postgres ${round(pgRun.appendsPerSecond, 0)} appends/s vs file ${round(fileRun.appendsPerSecond, 0)} (×${round(pgFlat, 2)} from 10 to 10k); resume 10k ${round(pgR.median, 0)} vs ${round(fileR.median, 0)} ms; ${CONCURRENT} sessions / pool of 10: ${round(concurrentMs / 1000, 1)} s, ${errors} errors`,
        goal: GOAL,
        met,
      },
      details: {
        file: { ...fileRun, resumeMs: fileR },
        postgres: { ...pgRun, resumeMs: pgR, flatRatio: round(pgFlat, 3) },
        concurrent: {
          sessions: CONCURRENT,
          pool: 10,
          wallMs: round(concurrentMs, 0),
          errors,
          listed,
          perSessionMs: summarize(perSession),
        },
      },
      tables: [
        {
          caption: `Appends through the agent's persistence seam (one awaited append per message), ${COUNT} messages of ~350 bytes; both stores durable:`,
          headers: ['store', 'appends/s', ...WINDOWS.map((w) => `${w.label}, ms`), '÷ cost at 10'],
          rows: [
            ['file (fdatasync per append)', fileRun, fileRun.windows.big / fileRun.windows.small],
            ['PostgreSQL (commit per append)', pgRun, pgFlat],
          ].map(([name, r, flat]) => [
            name,
            String(round(r.appendsPerSecond, 0)),
            ...WINDOWS.map((w) => String(round(r.windows[w.key], 3))),
            `${round(flat, 2)}×`,
          ]),
        },
        {
          caption: `Resume of the ${COUNT}-message session (open with resume: load, fold, rebuild the exact history), ${pgResume.length} runs:`,
          headers: ['store', 'resume, median (min–max)'],
          rows: [
            ['file', fmt(fileR, 'ms', 0)],
            ['PostgreSQL (pages of 1,000 from one snapshot)', fmt(pgR, 'ms', 0)],
            ['PostgreSQL ÷ file', `${round(resumeRatio, 2)}×`],
          ],
        },
        {
          caption: `${CONCURRENT} sessions at once on one PostgresSessionStore with a pool of 10 connections (each: create, 4 appends, close, resume, close):`,
          headers: ['measure', 'value'],
          rows: [
            ['wall time', `${round(concurrentMs / 1000, 2)} s`],
            ['appends/s (all sessions)', String(round((CONCURRENT * 4 * 1000) / concurrentMs, 0))],
            ['per session, median (min–max)', fmt(summarize(perSession), 'ms', 0)],
            ['errors', String(errors)],
            ['sessions listed afterwards', String(listed)],
          ],
        },
      ],
    };
  } finally {
    await server.stop();
  }
}
