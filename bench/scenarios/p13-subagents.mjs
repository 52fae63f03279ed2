/**
 * P13 subagent overhead: parent rounds that delegate to a subagent (`invoke_agent`, the subagent answering at once
 * with `complete_task`) against rounds that call an in-process tool directly — interleaved in one client process
 * (bench/children/p13-subagents.mjs).
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';

export const id = 'P13';
export const title = 'Subagent round trip vs a direct tool call';
const GOAL =
  'a round delegated to a subagent (two model calls, two tool calls, its own history and prompt) ≤ 3× a direct tool round';
const ROUNDS = 100;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'subagents/subagent.js'))
    return { skipped: 'subagents have not landed' };
  const dir = tempDir('p13-');
  const env = { ...process.env, GEMINI_CLI_HOME: dir };
  const reps = ctx.runs(15);
  const args = [join(BENCH, 'children', 'p13-subagents.mjs'), String(ROUNDS), String(reps)];
  const r = await measure(process.execPath, args, { cwd: ROOT, env, timeoutMs: 600_000 });
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `client failed: exit ${r.code}: ${r.stderr.trim().slice(-600)}` };
  const s = Object.fromEntries(Object.entries(out.samples).map(([k, v]) => [k, summarize(v)]));
  const ratio = s.subagent.median / s.direct.median;
  const perRound = (k) => s[k].median / ROUNDS;
  const extra = perRound('subagent') - perRound('direct');
  return {
    goal: {
      figure: `${round(ratio, 2)}× a direct tool round (${round(perRound('subagent'), 3)} vs ${round(perRound('direct'), 3)} ms CPU, +${round(extra * 1000, 0)} µs per delegation)`,
      goal: GOAL,
      met: ratio <= 3,
    },
    details: { rounds: ROUNDS, reps, ratio: round(ratio, 4), ...s },
    tables: [
      {
        headers: ['parent round', `loop CPU, ${ROUNDS} rounds`, 'per round', 'vs direct'],
        rows: [
          [
            'direct tool call (tick)',
            fmt(s.direct, 'ms', 0),
            `${round(perRound('direct'), 3)} ms`,
            '1×',
          ],
          [
            'invoke_agent → subagent → complete_task',
            fmt(s.subagent, 'ms', 0),
            `${round(perRound('subagent'), 3)} ms`,
            `${round(ratio, 2)}×`,
          ],
        ],
      },
    ],
    commands: [`node bench/children/p13-subagents.mjs ${ROUNDS} ${reps}`],
    notes: [
      `One client process runs both variants (${reps} runs each, interleaved, alternating order, after one warm-up run each); the figure is the median of process.cpuUsage() around each ${ROUNDS}-round sendStream, persist: false, no built-in tools.`,
      'A delegated round costs at least two direct rounds (the parent’s model call and tool call, then the subagent’s); the rest is the run itself: a fresh history, the subagent’s system prompt and tool registry, its transcript log, policy checks of invoke_agent and complete_task, and the subagent_activity events.',
    ],
  };
}
