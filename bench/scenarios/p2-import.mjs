/**
 * P2 import cost: `import('gemini-agent-sdk')` (the built package, through its self-reference) vs
 * `import('@google/genai')` vs `node -e 0`, each in a fresh process.
 */
import process from 'node:process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BENCH, DIST, ROOT, lastJsonLine } from '../lib/env.mjs';
import { repeatInterleaved } from '../lib/repeat.mjs';
import { fmt, mib, round } from '../lib/stats.mjs';

export const id = 'P2';
export const title = 'Import cost';
const GOAL =
  'import gemini-agent-sdk ≤ import @google/genai + 30 ms (wall, median of 30 interleaved runs)';

/** Groups a module path by package (node_modules/<pkg>) or by top folder of the built package (dist/<folder>). */
function groupOf(path) {
  const p = path.replace(/^file:\/\//, '');
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p);
  if (nm) return nm[1];
  const d = /\/dist\/([^/]+)\//.exec(p);
  return d
    ? `gemini-agent-sdk dist/${d[1]}/`
    : p.includes('/dist/')
      ? 'gemini-agent-sdk dist/*.js'
      : p;
}

/** Modules loaded by importing `spec`, grouped, as table rows (most first). */
function moduleCounts(spec) {
  const res = spawnSync(process.execPath, [join(BENCH, 'children', 'p2-modules.mjs'), spec], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const out = lastJsonLine(res.stdout);
  if (res.status !== 0 || !out) return undefined;
  const counts = new Map();
  const add = (path, kind) => {
    const key = `${groupOf(path)} (${kind})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const line of res.stderr.split('\n'))
    if (line.startsWith('LOAD ')) add(line.slice(5), 'ESM');
  for (const path of out.cjs) add(path, 'CommonJS');
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((a, [, n]) => a + n, 0);
  return { total, rows: rows.map(([k, n]) => [k, String(n)]) };
}

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!existsSync(join(DIST, 'index.js'))) return { skipped: 'dist/index.js is missing' };
  const node = process.execPath;
  const importOf = (spec) => [
    '--input-type=module',
    '-e',
    `const m = await import('${spec}'); if (Object.keys(m).length === 0) process.exit(3);`,
  ];
  const variants = [
    { name: 'node -e 0', command: node, args: ['-e', '0'], cwd: ROOT },
    { name: "import('@google/genai')", command: node, args: importOf('@google/genai'), cwd: ROOT },
    {
      name: "import('gemini-agent-sdk')",
      command: node,
      args: importOf('gemini-agent-sdk'),
      cwd: ROOT,
    },
  ];
  const res = await repeatInterleaved(variants, { runs: ctx.runs(30), warmup: 2, log: ctx.log });
  const base = res['node -e 0'];
  const genai = res["import('@google/genai')"];
  const ours = res["import('gemini-agent-sdk')"];
  const rows = Object.entries(res).map(([name, r]) =>
    r.error
      ? [name, `failed: ${r.error.split('\n')[0].slice(0, 160)}`, '', '', '']
      : [
          name,
          fmt(r.wallMs, 'ms', 0),
          base.wallMs ? `+${round(r.wallMs.median - base.wallMs.median, 0)} ms` : '',
          fmt(r.cpuMs, 'ms', 0),
          fmt(
            {
              median: mib(r.peakTreeRssKiB.median),
              min: mib(r.peakTreeRssKiB.min),
              max: mib(r.peakTreeRssKiB.max),
            },
            'MiB',
            1,
          ),
        ],
  );
  const table = {
    headers: ['process', 'wall median (min–max)', 'over node -e 0', 'CPU user+sys', 'peak RSS'],
    rows,
  };
  const commands = [
    'node -e 0',
    `node --input-type=module -e "const m = await import('@google/genai'); …"   (cwd: repo root)`,
    `node --input-type=module -e "const m = await import('gemini-agent-sdk'); …"   (cwd: repo root, package self-reference → dist/index.js)`,
  ];
  if (ours.error || genai.error) {
    return {
      goal: {
        figure: `not run: ${(ours.error ?? genai.error).split('\n')[0]}`,
        goal: GOAL,
        met: false,
      },
      details: res,
      table,
      commands,
    };
  }
  const delta = ours.wallMs.median - genai.wallMs.median;
  const mods = moduleCounts('gemini-agent-sdk');
  const genaiMods = moduleCounts('@google/genai');
  const modTable = mods && {
    caption: `Modules evaluated by \`import('gemini-agent-sdk')\`: ${mods.total} (\`import('@google/genai')\`: ${genaiMods?.total ?? '?'}), by package:`,
    headers: ['package or folder', 'modules'],
    rows: mods.rows,
  };
  return {
    goal: {
      figure: `${round(ours.wallMs.median, 0)} ms vs genai ${round(genai.wallMs.median, 0)} ms (${delta >= 0 ? '+' : ''}${round(delta, 0)} ms); RSS ${round(mib(ours.peakTreeRssKiB.median), 1)} vs ${round(mib(genai.peakTreeRssKiB.median), 1)} MiB`,
      goal: GOAL,
      met: delta <= 30,
    },
    details: {
      deltaVsGenaiMs: round(delta, 1),
      overNodeMs: round(ours.wallMs.median - base.wallMs.median, 1),
      rssRatioVsGenai: round(ours.peakTreeRssKiB.median / genai.peakTreeRssKiB.median, 2),
      ...res,
    },
    tables: [table, ...(modTable ? [modTable] : [])],
    commands: [
      ...commands,
      'node bench/children/p2-modules.mjs gemini-agent-sdk   # module list (loader hook)',
    ],
  };
}
