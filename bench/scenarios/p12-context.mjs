/**
 * P12 context accounting (issue 24): the per-turn cost of the token estimate before a model call stays flat as a
 * session's history grows — 4,000 turns of history against 200, in one child process — because the tracker
 * estimates only the turns added since the model's last count. A full re-estimate per turn (the O(n²) session)
 * runs beside it as the reference.
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, lastJsonLine } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';

export const id = 'P12';
export const title = 'Context accounting per turn as the history grows';
/** Twenty times the history may cost at most twice as much per turn (a full re-estimate costs about 20×). */
const LIMIT = 2;
const GOAL = `per-turn cost at 4,000 turns of history ≤ ${LIMIT}× the cost at 200 (no O(n²) token estimation)`;

/** @param {{ runs: (n: number) => number }} ctx */
export async function run(ctx) {
  const rounds = ctx.runs(15);
  const args = [
    '--import',
    'tsx',
    join(BENCH, 'children', 'p12-context-flat-cost.mjs'),
    String(rounds),
  ];
  const r = await measure(process.execPath, args, { cwd: ROOT, timeoutMs: 300_000 });
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `client failed: exit ${r.code}: ${r.stderr.trim().slice(-600)}` };
  // Samples in µs per turn.
  const s = Object.fromEntries(
    Object.entries(out.samples).map(([k, v]) => [k, summarize(v.map((ns) => ns / 1000))]),
  );
  const ratio = s['incremental-4000'].median / s['incremental-200'].median;
  const fullRatio = s['full-4000'].median / s['full-200'].median;
  return {
    goal: {
      figure: `${round(ratio, 2)}× (a full re-estimate: ${round(fullRatio, 1)}×)`,
      goal: GOAL,
      met: ratio <= LIMIT,
    },
    details: {
      rounds,
      ratio: round(ratio, 2),
      fullRatio: round(fullRatio, 2),
      checked: out.checked,
      ...s,
    },
    tables: [
      {
        headers: ['accounting', 'per turn at 200 turns', 'at 4,000 turns', 'ratio', 'goal'],
        rows: [
          [
            'ContextTracker (last count + turns since)',
            fmt(s['incremental-200'], 'µs', 1),
            fmt(s['incremental-4000'], 'µs', 1),
            `${round(ratio, 2)}×`,
            `≤ ${LIMIT}×`,
          ],
          [
            'full re-estimate per turn (reference)',
            fmt(s['full-200'], 'µs', 0),
            fmt(s['full-4000'], 'µs', 0),
            `${round(fullRatio, 1)}×`,
            '',
          ],
        ],
      },
    ],
    commands: [`node --import tsx bench/children/p12-context-flat-cost.mjs ${rounds}`],
    notes: [
      `One child process runs the four variants interleaved (${rounds} rounds after a warm-up); each sample is the time per turn over 200 turns added (5 for the full re-estimate) once the history reached its size; the figure is the median.`,
      'The child first checks that the tracker counts what a full estimate counts, so a tracker that skips work cannot look fast.',
    ],
  };
}
