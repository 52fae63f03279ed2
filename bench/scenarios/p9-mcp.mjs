/**
 * P9 MCP: per-call overhead of an MCP stdio tool against a native `tool()` doing the same work (an echo), and the
 * start-up cost of an agent with three MCP servers against each server alone (they start in parallel, so three
 * must not delay the first answer by more than the slowest one does).
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, median, round, summarize } from '../lib/stats.mjs';

export const id = 'P9';
export const title = 'MCP: stdio call overhead and start-up with 3 servers';
const GOAL =
  'first answer with 3 servers − without ≤ 1.25 × (slowest single server − without); MCP call overhead reported';
const CALLS = 50;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'mcp/mcp-connection.js', 'testing/index.js'))
    return {
      skipped: 'the MCP client (dist/mcp) or the testing kit (dist/testing) has not landed',
    };
  const n = ctx.runs(5);
  const env = { ...process.env, GEMINI_CLI_HOME: tempDir('h8-p9-') };
  const r = await measure(
    process.execPath,
    [join(BENCH, 'children', 'p9-mcp.mjs'), String(n), String(CALLS)],
    { cwd: ROOT, env, timeoutMs: 600_000 },
  );
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `p9 child failed (exit ${r.code}): ${r.stderr.trim().slice(-800)}` };
  const native = summarize(out.native);
  const mcp = summarize(out.mcp);
  const overhead = mcp.median - native.median;
  const base = median(out.startup.none);
  const singles = ['everything', 'filesystem', 'fault'];
  const slowest = Math.max(...singles.map((s) => median(out.startup[s]))) - base;
  const all = median(out.startup.all) - base;
  const ratio = all / slowest;
  const startup = Object.fromEntries(
    ['none', ...singles, 'all'].map((k) => [k, summarize(out.startup[k])]),
  );
  return {
    goal: {
      figure: `3 servers ${round(all, 0)} ms vs slowest alone ${round(slowest, 0)} ms (${round(ratio, 2)}×); MCP call ${round(mcp.median, 2)} ms vs native ${round(native.median, 2)} ms (+${round(overhead, 2)} ms)`,
      goal: GOAL,
      met: ratio <= 1.25,
    },
    details: { native, mcp, overheadMs: round(overhead, 3), startup, ratio: round(ratio, 3) },
    table: {
      headers: ['measure', 'median (min–max)'],
      rows: [
        ['native tool() echo, per call', fmt(native, 'ms', 2)],
        ['MCP stdio echo, per call', fmt(mcp, 'ms', 2)],
        ['first answer, no MCP server', fmt(startup.none, 'ms', 0)],
        ...singles.map((s) => [`first answer, ${s} alone`, fmt(startup[s], 'ms', 0)]),
        ['first answer, all 3 servers', fmt(startup.all, 'ms', 0)],
      ],
    },
    commands: [`node bench/children/p9-mcp.mjs ${n} ${CALLS}`],
    notes: [
      `Per call: one session making ${CALLS} sequential calls (ScriptedModel), wall ÷ ${CALLS}; the MCP echo is test/mcp/servers/fault-server.mjs over stdio, trusted.`,
      'Start-up: `sendStream` on a fresh agent until its first content event (servers start when the first session initializes); each figure minus the no-server figure is the servers’ share.',
    ],
  };
}
