/**
 * P10 telemetry overhead: tool rounds with telemetry off, with the telemetry feature on the no-op global provider,
 * and recording every span in memory — interleaved in one client process (bench/children/p10-telemetry.mjs).
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';
import { pairedRatios } from '../lib/paired.mjs';

export const id = 'P10';
export const title = 'Telemetry overhead per tool round';
const GOAL = 'off: no telemetry feature, so the loop is unchanged; the no-op provider ≤ 1.05× off';
const ROUNDS = 200;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'telemetry/telemetry-feature.js'))
    return { skipped: 'telemetry (dist/telemetry) has not landed' };
  const dir = tempDir('h8-p10-');
  const env = { ...process.env, GEMINI_CLI_HOME: dir };
  // 60 runs per variant: the goals are a few per cent, and one 200-round run is ~35 ms on an idle machine.
  const reps = ctx.runs(60);
  const args = [join(BENCH, 'children', 'p10-telemetry.mjs'), String(ROUNDS), String(reps)];
  const r = await measure(process.execPath, args, { cwd: ROOT, env, timeoutMs: 600_000 });
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `client failed: exit ${r.code}: ${r.stderr.trim().slice(-600)}` };
  const s = Object.fromEntries(Object.entries(out.samples).map(([k, v]) => [k, summarize(v)]));
  const base = s.off.median;
  const ratio = (k) => s[k].median / base;
  const perRound = (k) => (s[k].median - base) / ROUNDS;
  const met = ratio('no-op provider') <= 1.05;
  const paired = (k) => pairedRatios(out.samples[k], out.samples.off);
  const noise = (k) => {
    const p = paired(k);
    return `${round(p.median, 3)}× (${round(p.q1, 3)}–${round(p.q3, 3)})`;
  };
  const row = (name, k, goal) => [
    name,
    fmt(s[k], 'ms', 0),
    `${round(ratio(k), 3)}×`,
    k === 'off' ? '—' : noise(k),
    `${perRound(k) >= 0 ? '+' : ''}${round(perRound(k) * 1000, 1)} µs`,
    goal,
  ];
  return {
    goal: {
      figure: `${round(ratio('no-op provider'), 3)}× on the no-op provider, ${round(ratio('recording'), 3)}× recording every span (+${round(perRound('recording') * 1000, 0)} µs per round)`,
      goal: GOAL,
      met,
    },
    details: {
      rounds: ROUNDS,
      reps,
      ratios: { noop: round(ratio('no-op provider'), 4), recording: round(ratio('recording'), 4) },
      pairedRatios: { noop: paired('no-op provider'), recording: paired('recording') },
      ...s,
    },
    tables: [
      {
        headers: [
          'agent',
          `loop CPU, ${ROUNDS} rounds`,
          'vs off',
          'paired ratio, median (q1–q3)',
          'per round',
          'goal',
        ],
        rows: [
          row('telemetry off (no feature)', 'off', '—'),
          row('telemetry on, no SDK registered', 'no-op provider', '≤ 1.05×'),
          row('recording spans in memory', 'recording', 'for scale'),
        ],
      },
    ],
    commands: [`node bench/children/p10-telemetry.mjs ${ROUNDS} ${reps}`],
    notes: [
      `One client process runs every variant (${reps} runs each, interleaved with a rotating order, after one warm-up run each); the figure is the median of process.cpuUsage() around each ${ROUNDS}-round sendStream. The paired ratio divides each run by the telemetry-off run of the same repetition; its quartiles are the noise of the comparison.`,
      'With telemetry off (enabled: false, or @opentelemetry/api not installed) the agent has no telemetry feature, so no interceptor runs: the same loop as before telemetry existed.',
    ],
  };
}
