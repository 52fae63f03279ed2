/**
 * P5 concurrency: 10,000 sessions of one agent open in one process, each sending one prompt (at most IN_FLIGHT at
 * once) to a FakeGeminiServer process (real @google/genai client). Errors, wall time, and heap per idle session
 * beyond its history (heapUsed after GC, --expose-gc).
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { fmt, mib, round, summarize } from '../lib/stats.mjs';

export const id = 'P5';
export const title = '10,000 concurrent sessions in one process';
const GOAL = 'no errors; heap per idle session ≤ 16 KiB beyond its history';
// The count. One run takes minutes on the shared 2-core machine (file store: lock, create and fdatasync
// per session), so one run by default and a 15-minute limit.
const COUNT = 10_000;
// Sends in flight at once: all of them. The file store keeps at most 256 session files open and its opens wait
// for a free descriptor, so 10,000 sockets at once fit this machine's 20,000 (ulimit -n; bench/analysis.md).
const IN_FLIGHT = COUNT;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'agent/agent.js', 'testing/index.js'))
    return { skipped: 'the agent (dist/agent) or the testing kit (dist/testing) has not landed' };
  const n = ctx.runs(1);
  const samples = [];
  for (let i = 0; i < n; i++) {
    const env = { ...process.env, GEMINI_CLI_HOME: tempDir('h8-p5-') };
    delete env.GOOGLE_GEMINI_BASE_URL;
    const server = await startServerProcess({ kind: 'text', count: COUNT + 1 });
    let r;
    let summary;
    try {
      r = await measure(
        process.execPath,
        [
          '--expose-gc',
          join(BENCH, 'children', 'p5-concurrency.mjs'),
          server.baseUrl,
          String(COUNT),
          String(IN_FLIGHT),
        ],
        { cwd: ROOT, env, timeoutMs: 900_000 },
      );
    } finally {
      summary = await server.stop().catch((e) => ({ error: String(e) }));
    }
    const out = lastJsonLine(r.stdout);
    if (r.code !== 0 || !out) {
      return { error: `p5 child failed (exit ${r.code}): ${r.stderr.trim().slice(-800)}` };
    }
    const historyPerSession = (out.heapWithHistoryCopies - out.heapIdlePoolClosed) / COUNT;
    const perSession = (out.heapIdlePoolClosed - out.heapBefore) / COUNT;
    const withPool = (out.heapIdle - out.heapBefore) / COUNT;
    samples.push({
      ...out,
      server: {
        requests: summary.requests,
        unexpected: summary.unexpected?.length ?? summary.error,
      },
      perSessionBytes: perSession,
      perSessionWithPoolBytes: withPool,
      historyCopyBytes: historyPerSession,
      overheadBytes: perSession - historyPerSession,
      overheadWithPoolBytes: withPool - historyPerSession,
      peakRssKiB: r.peakTreeRssKiB,
      processCpuMs: r.cpuMs,
      stderr: r.stderr.trim(),
    });
  }
  const errors = samples.reduce(
    (a, s) => a + s.errors + (s.okText === COUNT ? 0 : COUNT - s.okText),
    0,
  );
  const overhead = summarize(samples.map((s) => s.overheadBytes / 1024));
  const wall = summarize(samples.map((s) => s.wallMs));
  const perSession = summarize(samples.map((s) => s.perSessionBytes / 1024));
  const withPool = summarize(samples.map((s) => s.overheadWithPoolBytes / 1024));
  const history = summarize(samples.map((s) => s.historyCopyBytes / 1024));
  const rss = summarize(samples.map((s) => mib(s.peakRssKiB)));
  const stderr = [...new Set(samples.map((s) => s.stderr).filter(Boolean))];
  return {
    goal: {
      figure: `${errors} errors; ${round(overhead.median, 1)} KiB heap per idle session beyond its history`,
      goal: GOAL,
      met: errors === 0 && overhead.median <= 16,
    },
    details: { sessions: COUNT, errors, samples },
    table: {
      headers: ['measure', `median (min–max) of ${n} runs`],
      rows: [
        ['errors (rejected sends + wrong answers)', String(errors)],
        [`wall, ${COUNT} sessions × 1 prompt, ${IN_FLIGHT} in flight`, fmt(wall, 'ms', 0)],
        ['heapUsed per idle session (after GC)', fmt(perSession, 'KiB', 1)],
        ['… of which a plain copy of its history', fmt(history, 'KiB', 2)],
        ['heap per idle session beyond its history', fmt(overhead, 'KiB', 1)],
        [
          '… right after the burst, with the HTTP pool’s keep-alive sockets',
          fmt(withPool, 'KiB', 1),
        ],
        ['peak RSS of the client process', fmt(rss, 'MiB', 1)],
      ],
    },
    commands: [
      `node bench/children/fake-server.mjs '{"kind":"text","count":${COUNT + 1}}'`,
      `node --expose-gc bench/children/p5-concurrency.mjs <baseUrl> ${COUNT} ${IN_FLIGHT}`,
    ],
    notes: [
      `One agent; ${COUNT} sessions created at once, all kept open, each sending \`hello i\`, ${IN_FLIGHT} sends in flight at once; each gets a one-chunk text answer. One warm-up session runs first so the baseline heap already holds the loaded code and the HTTP client.`,
      "Heap per idle session = (heapUsed with all sessions idle and referenced − heapUsed before) / count, after 4 forced GCs with an event-loop turn between them; the history share is measured by keeping a JSON copy of every session's history and collecting again. The send results are dropped first (the benchmark's, not the sessions').",
      "Idle means after the HTTP client's pooled keep-alive connections closed (6 s; one per request that ran at once, in undici's global pool, not per session); the row right after the burst includes them.",
      ...(stderr.length ? [`The child printed on stderr: \`${stderr[0].split('\n')[0]}\``] : []),
    ],
  };
}
