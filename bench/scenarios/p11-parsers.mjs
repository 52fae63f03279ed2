/**
 * P11 parsers of user files (issue 16): hostile inputs cost what their size says, never more — a YAML alias bomb in
 * a SKILL.md against a plain SKILL.md of the same size, a policy TOML and a settings.json of 5 MB against the same
 * files at 0.5 MB, and a policy rule whose pattern backtracks exponentially in a backtracking engine, matched
 * against 1,000,000 and 100,000 characters. Every pair runs interleaved in one child process.
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { fmt, round, summarize } from '../lib/stats.mjs';

export const id = 'P11';
export const title = 'Parsers of user files on hostile inputs';
/** Ten times the input may cost at most 15 times the CPU (linear within 1.5×); a bomb at most 10× its plain twin. */
const LINEAR = 15;
const BOMB = 10;
const GOAL = `alias-bomb SKILL.md ≤ ${BOMB}× a plain one of the same size; 10× the input (policy TOML, settings.json, a backtracking-prone pattern) ≤ ${LINEAR}× the CPU`;

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('policy/index.js')) return { skipped: 'dist/ lacks the policy entry point' };
  const dir = tempDir('h8-p11-');
  const reps = ctx.runs(7);
  const args = ['--import', 'tsx', join(BENCH, 'children', 'p11-parsers.mjs'), String(reps), dir];
  const r = await measure(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, GEMINI_CLI_HOME: dir },
    timeoutMs: 600_000,
  });
  const out = lastJsonLine(r.stdout);
  if (r.code !== 0 || !out)
    return { error: `client failed: exit ${r.code}: ${r.stderr.trim().slice(-600)}` };
  const s = Object.fromEntries(Object.entries(out.samples).map(([k, v]) => [k, summarize(v)]));
  const ratio = (big, small) => s[big].median / s[small].median;
  const pairs = [
    [
      'SKILL.md, 1 MB',
      'skill-bomb',
      'skill-plain',
      'a YAML alias bomb (9 × 9 aliases)',
      'plain',
      BOMB,
    ],
    ['policy TOML', 'policy-5MB', 'policy-0.5MB', '5 MB (74,000 rules)', '0.5 MB', LINEAR],
    [
      'settings.json',
      'settings-5MB',
      'settings-0.5MB',
      '5 MB (100,000 tools.allowed)',
      '0.5 MB',
      LINEAR,
    ],
    ['argsPattern "(a|aa)*c"', 'regex-1M', 'regex-100k', '1,000,000 characters', '100,000', LINEAR],
  ];
  const ratios = Object.fromEntries(
    pairs.map(([, big, small]) => [big, round(ratio(big, small), 2)]),
  );
  const met = pairs.every(([, big, small, , , limit]) => ratio(big, small) <= limit);
  return {
    goal: {
      figure: pairs
        .map(([name, big, small]) => `${name} ${round(ratio(big, small), 1)}×`)
        .join(', '),
      goal: GOAL,
      met,
    },
    details: { reps, ratios, checked: out.checked, sizes: out.sizes, ...s },
    tables: [
      {
        headers: ['input', 'hostile / large', 'CPU', 'baseline', 'CPU', 'ratio', 'goal'],
        rows: pairs.map(([name, big, small, bigLabel, smallLabel, limit]) => [
          name,
          bigLabel,
          fmt(s[big], 'ms', 1),
          smallLabel,
          fmt(s[small], 'ms', 1),
          `${round(ratio(big, small), 2)}×`,
          `≤ ${limit}×`,
        ]),
      },
    ],
    commands: [`node bench/children/p11-parsers.mjs ${reps} <temp dir>`],
    notes: [
      `One child process runs every variant (${reps} runs each, interleaved with a rotating order, after a warm-up); the figure is the median of process.cpuUsage() around each parse.`,
      'Each parser is checked to have done its job first (the bomb loads by name, the 5 MB policy yields its rules, the settings their list, the pattern does not match), so a broken parser cannot look fast.',
      "V8's own backtracking engine needs about a second for the same pattern on 30 characters; the policy engine compiles argsPattern with re2js (linear time) and refuses nested quantifiers such as (a+)+ when the rule is loaded.",
    ],
  };
}
