#!/usr/bin/env node
/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by module (file) and by function, plus the
 * inclusive time of functions in the repository's dist/ — enough to say which module bounds a scenario.
 *
 *   node bench/lib/cpuprofile-summary.mjs <file.cpuprofile> [top=15]
 */
import process from 'node:process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param {string} file path of a .cpuprofile
 * @param {number} top rows per table
 * @returns {{ totalMs: number, byModule: Array<[string, number]>, byFunction: Array<[string, number]>,
 *   inclusiveDist: Array<[string, number]> }}
 */
export function summarizeProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (dt[i] ?? 0));
  }
  const moduleOf = (cf) => {
    const url = cf.url || `(${cf.functionName || 'native'})`;
    const short = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'node_modules/');
    return short.startsWith('node_modules/') ? short : short.replace(/^.*\/dist\//, 'dist/');
  };
  const byModule = new Map();
  const byFunction = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const [id, us] of selfUs) {
    const n = nodes.get(id);
    const cf = n.callFrame;
    total += us;
    const mod = moduleOf(cf);
    byModule.set(mod, (byModule.get(mod) ?? 0) + us);
    const fn = `${cf.functionName || '(anonymous)'} ${mod}:${cf.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    // inclusive time of each dist/ function on the stack (counted once per sample stack)
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const c = nodes.get(cur).callFrame;
      const m = moduleOf(c);
      if (!m.startsWith('dist/')) continue;
      const key = `${c.functionName || '(anonymous)'} ${m}:${c.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const sorted = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => [k, Math.round(v / 100) / 10]);
  return {
    totalMs: Math.round(total / 1000),
    byModule: sorted(byModule),
    byFunction: sorted(byFunction),
    inclusiveDist: sorted(inclusive),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  const s = summarizeProfile(file, Number(top ?? 15));
  process.stdout.write(`total sampled: ${s.totalMs} ms\n`);
  for (const [title, rows] of [
    ['self time by module', s.byModule],
    ['self time by function', s.byFunction],
    ['inclusive time of dist/ functions', s.inclusiveDist],
  ]) {
    process.stdout.write(`\n${title} (ms):\n`);
    for (const [k, v] of rows) process.stdout.write(`  ${String(v).padStart(8)}  ${k}\n`);
  }
}

/**
 * The profile of the first .cpuprofile in `dir` as report tables (self time by module, inclusive time of the
 * package's own functions).
 * @param {string} dir folder given to `node --cpu-prof-dir`
 * @param {string} caption what was profiled
 */
export function profileTables(dir, caption, top = 12) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return [];
  const s = summarizeProfile(join(dir, file), top);
  return [
    {
      caption: `${caption} — \`node --cpu-prof\`, ${s.totalMs} ms sampled. Self time by module:`,
      headers: ['module', 'self ms'],
      rows: s.byModule.map(([k, v]) => [k, String(v)]),
    },
    {
      caption: 'Inclusive time of the package’s own functions (dist/):',
      headers: ['function', 'inclusive ms'],
      rows: s.inclusiveDist.map(([k, v]) => [k, String(v)]),
    },
  ];
}
