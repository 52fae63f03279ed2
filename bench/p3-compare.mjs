#!/usr/bin/env node
/**
 * P3 before/after in one run: our loop client from two checkouts (each with its own built dist/), interleaved
 * against the same fake server, plus the bare @google/genai loop as the common baseline. Prints medians and the
 * ratio after/before. Usage: node bench/p3-compare.mjs <before-checkout> [runs]
 */
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BENCH, lastJsonLine, tempDir } from './lib/env.mjs';
import { startServerProcess } from './lib/server-process.mjs';

const [beforeArg, runsArg] = process.argv.slice(2);
if (!beforeArg) {
  process.stderr.write('usage: node bench/p3-compare.mjs <before-checkout> [runs]\n');
  process.exit(2);
}
const ROUNDS = 200;
const runs = Number(runsArg ?? 9);
const variants = {
  before: join(resolve(beforeArg), 'bench', 'children', 'p3-ours.mjs'),
  after: join(BENCH, 'children', 'p3-ours.mjs'),
  bare: join(BENCH, 'children', 'p3-bare.mjs'),
};
const dir = tempDir('p3-compare-');
const env = { ...process.env, GEMINI_CLI_HOME: dir };
delete env.GOOGLE_GEMINI_BASE_URL;

async function once(variant, shapeFile) {
  const server = await startServerProcess({ kind: 'tool-rounds', rounds: ROUNDS, tool: 'tick' });
  const args = [
    variants[variant],
    server.baseUrl,
    String(ROUNDS),
    ...(variant === 'bare' ? [shapeFile] : []),
  ];
  const r = spawnSync(process.execPath, args, {
    cwd: resolve(variants[variant], '..', '..', '..'),
    env,
    encoding: 'utf8',
  });
  const summary = await server.stop();
  const out = lastJsonLine(r.stdout);
  if (r.status !== 0 || !out || out.calls !== ROUNDS)
    throw new Error(`${variant}: ${r.stderr.slice(-400)}`);
  return { out, summary };
}

const warm = await once('after');
const shapeFile = join(dir, 'shape.json');
writeFileSync(shapeFile, JSON.stringify(warm.summary.first));
await once('before');
await once('bare', shapeFile);
const samples = { before: [], after: [], bare: [] };
for (let i = 0; i < runs; i++) {
  for (const v of i % 2 === 0 ? ['before', 'after', 'bare'] : ['after', 'before', 'bare']) {
    samples[v].push((await once(v, shapeFile)).out.loopCpuMs);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
process.stdout.write(
  `${JSON.stringify({
    runs,
    rounds: ROUNDS,
    loopCpuMedianMs: m,
    samples,
    afterOverBefore: +(m.after / m.before).toFixed(3),
    beforeOverBare: +(m.before / m.bare).toFixed(3),
    afterOverBare: +(m.after / m.bare).toFixed(3),
  })}\n`,
);
