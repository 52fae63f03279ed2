/**
 * P8 hooks overhead: tool rounds with no hook, with a hook on an event the round never fires (the hooks feature is
 * present but adds no seam), and with one in-process BeforeTool hook — interleaved in one client process. A
 * BeforeTool command hook (one `bash` per call) is shown for scale, without a goal.
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';
import { pairedRatios } from '../lib/paired.mjs';

export const id = 'P8';
export const title = 'Hooks overhead per tool round';
const GOAL =
  'a tool round with 0 hooks for it ≤ 1.02× the hook-less agent; with one in-process BeforeTool hook ≤ 1.05×';
const ROUNDS = 200;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'hooks/hook.js'))
    return { skipped: 'hooks (dist/hooks) have not landed' };
  const dir = tempDir('h8-p8-');
  const env = { ...process.env, GEMINI_CLI_HOME: dir };
  // 150 runs per variant: the goals are a few per cent, one 200-round run is ~40 ms, and at 60 runs the paired
  // ratio's quartiles were ±10 % at load 3–4, enough to move the BeforeTool ratio of medians across 1.05× from run
  // to run (bench/analysis.md, P8).
  const reps = ctx.runs(150);
  const commandReps = Math.max(1, Math.min(3, reps));
  const args = [
    join(BENCH, 'children', 'p8-hooks.mjs'),
    String(ROUNDS),
    String(reps),
    String(commandReps),
  ];
  const r = await measure(process.execPath, args, { cwd: ROOT, env, timeoutMs: 600_000 });
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `client failed: exit ${r.code}: ${r.stderr.trim().slice(-600)}` };
  const s = Object.fromEntries(Object.entries(out.samples).map(([k, v]) => [k, summarize(v)]));
  const base = s.none.median;
  const ratio = (k) => s[k].median / base;
  const perRound = (k) => (s[k].median - base) / ROUNDS;
  const met = ratio('unrelated') <= 1.02 && ratio('before-tool') <= 1.05;
  const paired = (k) => pairedRatios(out.samples[k], out.samples.none);
  const noise = (k) => {
    const p = paired(k);
    return `${round(p.median, 3)}× (${round(p.q1, 3)}–${round(p.q3, 3)})`;
  };
  const row = (name, k, goal) => [
    name,
    fmt(s[k], 'ms', 0),
    `${round(ratio(k), 3)}×`,
    k === 'none' ? '—' : noise(k),
    `${perRound(k) >= 0 ? '+' : ''}${round(perRound(k) * 1000, 1)} µs`,
    goal,
  ];
  return {
    goal: {
      figure: `${round(ratio('unrelated'), 3)}× with no hook for the round, ${round(ratio('before-tool'), 3)}× with one in-process BeforeTool hook (+${round(perRound('before-tool') * 1000, 0)} µs per round)`,
      goal: GOAL,
      met,
    },
    details: {
      rounds: ROUNDS,
      reps,
      ratios: {
        unrelated: round(ratio('unrelated'), 4),
        beforeTool: round(ratio('before-tool'), 4),
        command: round(ratio('command'), 2),
      },
      pairedRatios: { unrelated: paired('unrelated'), beforeTool: paired('before-tool') },
      ...s,
    },
    tables: [
      {
        headers: [
          'agent',
          `loop CPU, ${ROUNDS} rounds`,
          'vs no hooks',
          'paired ratio, median (q1–q3)',
          'per round',
          'goal',
        ],
        rows: [
          row('no hooks', 'none', '—'),
          row('a SessionEnd hook only', 'unrelated', '≤ 1.02×'),
          row('one in-process BeforeTool hook', 'before-tool', '≤ 1.05×'),
          row('one BeforeTool command hook (bash)', 'command', 'for scale'),
        ],
      },
    ],
    commands: [`node bench/children/p8-hooks.mjs ${ROUNDS} ${reps} ${commandReps}`],
    notes: [
      `One client process runs every variant (${reps} runs each, interleaved with a rotating order, after one warm-up run each); the figure is the median of process.cpuUsage() around each ${ROUNDS}-round sendStream. The paired ratio divides each run by the no-hooks run of the same repetition; its quartiles are the noise of the comparison.`,
      'The model is an in-process ContentGenerator answering each call with a prebuilt chunk, and nothing is persisted, so what is left is the loop and the hooks.',
      'An agent with no hooks registered has no hooks feature at all; with hooks only for other events, the feature adds no interceptor to the tool round.',
    ],
  };
}
