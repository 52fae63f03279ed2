/**
 * P6 parallel tools: one model turn calling k = 1, 4, 16 tools that each take 200 ms (ScriptedModel, so no
 * network), then a text answer. Wall time of the whole sendStream per k.
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';

export const id = 'P6';
export const title = 'Parallel tools in one turn (k × 200 ms)';
const GOAL = 'wall per turn ≤ 1.2 × 200 ms = 240 ms for k = 1, 4, 16';
const KS = [1, 4, 16];

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'agent/agent.js', 'testing/index.js'))
    return { skipped: 'the agent (dist/agent) or the testing kit (dist/testing) has not landed' };
  const n = ctx.runs(9);
  const env = { ...process.env, GEMINI_CLI_HOME: tempDir('h8-p6-') };
  const r = await measure(
    process.execPath,
    [join(BENCH, 'children', 'p6-parallel.mjs'), String(n), KS.join(',')],
    { cwd: ROOT, env, timeoutMs: 300_000 },
  );
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `p6 child failed (exit ${r.code}): ${r.stderr.trim().slice(-800)}` };
  const per = {};
  for (const k of KS) {
    per[k] = {
      wallMs: summarize(out[k].map((x) => x.wallMs)),
      startSpreadMs: summarize(out[k].map((x) => x.startSpreadMs)),
      toolSpanMs: summarize(out[k].map((x) => x.toolSpanMs)),
    };
  }
  const worst = Math.max(...KS.map((k) => per[k].wallMs.median));
  const stderr = r.stderr.trim();
  return {
    goal: {
      figure: KS.map((k) => `k=${k}: ${round(per[k].wallMs.median, 1)} ms`).join(', '),
      goal: GOAL,
      met: worst <= 240,
    },
    details: { worstMedianMs: round(worst, 1), ratioTo200: round(worst / 200, 3), per, stderr },
    table: {
      headers: [
        'k tools',
        'turn wall median (min–max)',
        '÷ 200 ms',
        'spread of tool starts',
        'first start → last end',
      ],
      rows: KS.map((k) => [
        String(k),
        fmt(per[k].wallMs, 'ms', 1),
        `${round(per[k].wallMs.median / 200, 3)}×`,
        fmt(per[k].startSpreadMs, 'ms', 2),
        fmt(per[k].toolSpanMs, 'ms', 1),
      ]),
    },
    commands: [`node bench/children/p6-parallel.mjs ${n} ${KS.join(',')}`],
    notes: [
      `A turn is one whole \`sendStream\`: model call → k tool calls → model call → finished; ${n} runs per k after one warm-up, a fresh agent and session each.`,
      ...(stderr
        ? [
            `The child printed on stderr: \`${stderr.split('\n')[0]}\` (${stderr.split('\n').filter((l) => l.includes('MaxListeners')).length} times).`,
          ]
        : []),
    ],
  };
}
