#!/usr/bin/env node
/**
 * `npm run bench`: runs the benchmark scenarios P1–P13 and PG against the built package and writes bench/results.json
 * and docs/benchmarks.md. Plain Node, no test runner.
 *
 *   node bench/run.mjs                 full run (writes both outputs)
 *   node bench/run.mjs --only P2,P6    selected scenarios; prints results, writes nothing unless --write
 *   node bench/run.mjs --quick         fewer repetitions (for trying things out)
 *   node bench/run.mjs --no-build      never run `npm run build` (default: build when dist/ is missing or stale)
 */
import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanupTempDirs, ensureBuilt, machine } from './lib/env.mjs';
import { writeResults } from './lib/report.mjs';

const SCENARIOS = {
  P1: './scenarios/p1-one-shot.mjs',
  P2: './scenarios/p2-import.mjs',
  P3: './scenarios/p3-loop-overhead.mjs',
  P4: './scenarios/p4-persistence.mjs',
  P5: './scenarios/p5-concurrency.mjs',
  P6: './scenarios/p6-parallel-tools.mjs',
  P7: './scenarios/p7-vercel-ai.mjs',
  PG: './scenarios/pg-postgres.mjs',
  P8: './scenarios/p8-hooks.mjs',
  P9: './scenarios/p9-mcp.mjs',
  P10: './scenarios/p10-telemetry.mjs',
  P11: './scenarios/p11-parsers.mjs',
  P12: './scenarios/p12-context.mjs',
  P13: './scenarios/p13-subagents.mjs',
};
/** Total budget of a run (the issue's limit is 20 minutes on the 2-core machine). */
const BUDGET_MS = 20 * 60_000;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(
    'usage: node bench/run.mjs [--only P1,P2] [--quick] [--no-build] [--build] [--write]\n',
  );
  process.exit(0);
}
const onlyArg = argv.find((a) => a.startsWith('--only'));
const only = onlyArg
  ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : argv[argv.indexOf(onlyArg) + 1])
      .toUpperCase()
      .split(',')
  : undefined;
const quick = argv.includes('--quick');
const write = !only || argv.includes('--write');

const log = (s) => process.stderr.write(`${s}\n`);
const started = Date.now();
const startedAt = new Date(started).toISOString();

let build = 'dist/ as found';
if (!argv.includes('--no-build')) {
  try {
    build = ensureBuilt({ force: argv.includes('--build') }).note;
  } catch (err) {
    log(`bench: ${String(err instanceof Error ? err.message : err)}`);
    process.exit(1);
  }
}

const ctx = {
  /** Repetition count for a scenario: `n` normally, about a third with --quick (at least 2). */
  runs: (n) => (quick ? Math.max(2, Math.round(n / 3)) : n),
  quick,
  log: (s) => log(s),
  /** Milliseconds left in the run's budget. */
  remainingMs: () => BUDGET_MS - (Date.now() - started),
};

const results = [];
for (const [id, path] of Object.entries(SCENARIOS)) {
  if (only && !only.includes(id)) continue;
  const mod = await import(path);
  const t0 = Date.now();
  log(`${mod.id} ${mod.title}…`);
  let outcome;
  if (ctx.remainingMs() < 60_000) {
    outcome = { skipped: 'the 20-minute budget of the run was used up by the earlier scenarios' };
  } else {
    try {
      outcome = await mod.run(ctx);
    } catch (err) {
      outcome = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  const g = outcome.goal;
  log(
    `${mod.id} done in ${seconds.toFixed(1)} s: ${
      g
        ? `${g.figure} — goal ${g.goal}: ${g.met ? 'met' : 'NOT met'}`
        : `not run: ${outcome.skipped ?? outcome.error}`
    }`,
  );
  results.push({ id: mod.id, title: mod.title, seconds, outcome });
}
cleanupTempDirs();

const run = {
  machine: machine(),
  startedAt,
  totalSeconds: (Date.now() - started) / 1000,
  command: `node bench/run.mjs${argv.length ? ` ${argv.join(' ')}` : ''}`,
  build,
  scenarios: results,
};
if (write) {
  await writeResults(run);
  log(`bench: wrote bench/results.json and docs/benchmarks.md (${run.totalSeconds.toFixed(0)} s).`);
} else {
  const file = join(tmpdir(), `h8-bench-partial-${started}.json`);
  writeFileSync(file, JSON.stringify(run, null, 2));
  log(`bench: partial run (--only); details in ${file}; bench/results.json not touched.`);
}
