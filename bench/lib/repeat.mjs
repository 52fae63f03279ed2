/** Interleaved repetition of command variants, so slow drift on a shared machine hits every variant alike. */
import { measure } from './proc-tree.mjs';
import { summarize } from './stats.mjs';

/**
 * Runs each variant `runs` times, round-robin, after `warmup` unmeasured rounds. A variant whose `check(result)`
 * returns a string fails: the error is recorded and that variant stops.
 * @param {Array<{ name: string, command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv,
 *   check?: (r: Awaited<ReturnType<typeof measure>>) => string | undefined, timeoutMs?: number }>} variants
 * @param {{ runs: number, warmup?: number, log?: (s: string) => void }} options
 */
export async function repeatInterleaved(variants, { runs, warmup = 1, log = () => {} }) {
  const state = new Map(variants.map((v) => [v.name, { samples: [], error: undefined }]));
  for (let round = -warmup; round < runs; round++) {
    for (const v of variants) {
      const s = state.get(v.name);
      if (s.error) continue;
      const r = await measure(v.command, v.args, {
        cwd: v.cwd,
        env: v.env,
        timeoutMs: v.timeoutMs ?? 120_000,
      });
      const problem =
        r.code !== 0
          ? `exit ${r.code}${r.signal ? ` (${r.signal})` : ''}: ${(r.stderr || r.stdout).trim().slice(-800)}`
          : v.check?.(r);
      if (problem) {
        s.error = problem;
        log(`  ${v.name}: FAILED — ${problem.split('\n')[0]}`);
        continue;
      }
      if (round >= 0) s.samples.push(r);
    }
  }
  const out = {};
  for (const v of variants) {
    const s = state.get(v.name);
    out[v.name] = {
      error: s.error,
      runs: s.samples.length,
      wallMs: s.samples.length ? summarize(s.samples.map((r) => r.wallMs)) : undefined,
      cpuMs: s.samples.length ? summarize(s.samples.map((r) => r.cpuMs)) : undefined,
      peakTreeRssKiB: s.samples.length
        ? summarize(s.samples.map((r) => r.peakTreeRssKiB))
        : undefined,
      peakProcRssKiB: s.samples.length
        ? summarize(s.samples.map((r) => r.peakProcRssKiB))
        : undefined,
      processes: s.samples.length ? Math.max(...s.samples.map((r) => r.processes)) : undefined,
      cpuSource: s.samples[0]?.cpuSource,
      lastStdout: s.samples.at(-1)?.stdout,
    };
  }
  return out;
}
