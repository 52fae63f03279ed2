/**
 * P12 client: the per-turn cost of the context accounting before a model call (ContextTracker.estimate, then the
 * next call's calibrate) after the history reached 200 and 4,000 turns, and the same with a full re-estimate of the
 * history per turn (what an O(n²) session would pay) as the reference. Sizes run interleaved, `rounds` times each;
 * each sample is the nanoseconds per turn over 200 turns (5 for the full re-estimate) added after the history
 * reached its size.
 * Prints one JSON line: { samples: { name: number[] }, checked }.
 * argv: rounds
 */
import process from 'node:process';
// Internal module: dist/ is bundled per public entry point, so it is loaded from the sources (run with tsx).
import { ContextTracker, estimateTokens } from '../../src/loop/context-window.ts';

const rounds = Number(process.argv[2] ?? 15);
const TURN = { role: 'user', parts: [{ text: 'tool output line\n'.repeat(200) }] };
const WINDOW = 200;
/** The full re-estimate is slow by design: fewer turns per sample (the figure is per turn either way). */
const FULL_WINDOW = 5;

/** Nanoseconds per turn, incremental: the tracker estimates only what was added since the last count. */
function incremental(size) {
  const tracker = new ContextTracker();
  const history = Array.from({ length: size }, () => TURN);
  tracker.estimate(history);
  tracker.calibrate(history.length, 1000);
  const started = process.hrtime.bigint();
  for (let i = 0; i < WINDOW; i++) {
    history.push(TURN);
    tracker.estimate(history);
    tracker.calibrate(history.length, 1000 + i); // each model call brings a new count
  }
  return Number(process.hrtime.bigint() - started) / WINDOW;
}

/** Nanoseconds per turn when the whole history is estimated again before each call (the reference). */
function full(size) {
  const history = Array.from({ length: size }, () => TURN);
  const started = process.hrtime.bigint();
  let sum = 0;
  for (let i = 0; i < FULL_WINDOW; i++) {
    history.push(TURN);
    for (const content of history) sum += estimateTokens(content.parts);
  }
  if (sum <= 0) throw new Error('the full estimate counted nothing');
  return Number(process.hrtime.bigint() - started) / FULL_WINDOW;
}

// The tracker must count what a full estimate counts, so a broken tracker cannot look fast.
const check = new ContextTracker();
const probe = Array.from({ length: 300 }, () => TURN);
const expected = probe.reduce((n, c) => n + estimateTokens(c.parts), 0);
const got = check.estimate(probe);
if (Math.abs(got - expected) > probe.length) {
  throw new Error(`ContextTracker.estimate gave ${got}, a full estimate ${expected}`);
}

const variants = {
  'incremental-200': () => incremental(200),
  'incremental-4000': () => incremental(4000),
  'full-200': () => full(200),
  'full-4000': () => full(4000),
};
for (const run of Object.values(variants)) run(); // warm-up
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const names = Object.keys(variants);
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(round + i) % names.length];
    samples[name].push(variants[name]());
  }
}
process.stdout.write(`${JSON.stringify({ samples, checked: { estimate: got, expected } })}\n`);
