// Per-turn cost of the context accounting as a history grows (issue #24): the estimate before each model call
// must cost the turns added since the last one, not the whole history (no O(n²) over a session).
// Run: npm run build && node bench/context-flat-cost.mjs  — prints the cost per turn at 200 and at 4,000 turns and
// their ratio (flat: about 1; a full re-estimate per turn would be about 20).
import process from 'node:process';
import { ContextTracker } from '../dist/loop/context-window.js';

const TURN = { role: 'user', parts: [{ text: 'tool output line\n'.repeat(200) }] };

/** Nanoseconds per estimate for the `window` turns after the history reached `size` turns. */
function perTurn(size, window = 200) {
  const tracker = new ContextTracker();
  const history = [];
  for (let i = 0; i < size; i++) history.push(TURN);
  tracker.estimate(history);
  tracker.calibrate(history.length, 1000);
  const started = process.hrtime.bigint();
  for (let i = 0; i < window; i++) {
    history.push(TURN);
    tracker.estimate(history);
    tracker.calibrate(history.length, 1000 + i); // each model call brings a new count
  }
  return Number(process.hrtime.bigint() - started) / window;
}

const small = [];
const large = [];
for (let round = 0; round < 15; round++) {
  small.push(perTurn(200));
  large.push(perTurn(4000));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = median(small);
const b = median(large);
process.stdout.write(
  JSON.stringify({
    perTurnNsAt200: Math.round(a),
    perTurnNsAt4000: Math.round(b),
    ratio: +(b / a).toFixed(2),
  }),
);
