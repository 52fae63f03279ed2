/**
 * P5 client (run with --expose-gc): `count` sessions of one agent send one prompt each, all at once, to a
 * FakeGeminiServer process (real @google/genai client through our adapter). Then, with every session still
 * referenced and idle, measures heapUsed after GC, and the heap taken by plain copies of the same histories.
 * argv: baseUrl count [inFlight]
 */
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setImmediate, setTimeout } from 'node:timers';
import { GeminiCliAgent } from 'gemini-agent-sdk';

const [baseUrl, countArg, inFlightArg] = process.argv.slice(2);
const count = Number(countArg);
// At most this many sends in flight at once (default: all of them).
const inFlight = Number(inFlightArg ?? count);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

async function settleAsync(waitMs = 50) {
  // Let pending socket/timer callbacks run, then collect; a turn of the event loop between collections lets
  // FinalizationRegistry callbacks (undici's per-request ones) drop what they hold.
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage();
}

const agent = new GeminiCliAgent({
  instructions: 'You are a benchmark.',
  model: 'gemini-2.5-flash',
  apiKey: 'bench-fake-key',
  baseUrl,
  cwd: process.cwd(),
});
// Warm-up: one full session, so code, the client module and the connection pool are loaded before the baseline.
const warm = agent.session();
await warm.send('warm up');
await warm.close();

const before = await settleAsync();
const t0 = performance.now();
const sessions = Array.from({ length: count }, () => agent.session());
// The send results (each with its events) are the benchmark's, not the sessions': only counts outlive the burst.
const { wallMs, errors, okText } = await (async () => {
  const results = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await sessions[i].send(`hello ${i}`).then(
        (value) => ({ status: 'fulfilled', value }),
        (reason) => ({ status: 'rejected', reason }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return {
    wallMs: performance.now() - t0,
    errors: results.filter((r) => r.status === 'rejected').map((r) => String(r.reason)),
    okText: results.filter((r) => r.status === 'fulfilled' && r.value.text.startsWith('answer'))
      .length,
  };
})();
const idle = await settleAsync();
// The HTTP client keeps one pooled keep-alive connection per request that ran at once (undici's global pool, not
// per session); they close after the server's keep-alive timeout (5 s for Node's http server). Idle again after.
const pooled = await settleAsync(6_000);

// The histories themselves, as plain objects (what any client must keep): heap of count copies.
const histories = sessions.map((s) => JSON.parse(JSON.stringify(s.getHistory())));
const withCopies = await settleAsync();
const historyBytes = JSON.stringify(histories[0]).length;

for (const s of sessions) await s.close();
process.stdout.write(
  `${JSON.stringify({
    count,
    inFlight,
    errors: errors.length,
    firstErrors: [...new Set(errors)].slice(0, 3),
    okText,
    wallMs,
    heapBefore: before.heapUsed,
    heapIdle: idle.heapUsed,
    heapIdlePoolClosed: pooled.heapUsed,
    heapWithHistoryCopies: withCopies.heapUsed,
    externalDelta: idle.external - before.external,
    rssDelta: idle.rss - before.rss,
    historyJsonBytes: historyBytes,
    historyLength: histories[0].length,
    keepAlive: sessions.length + histories.length,
  })}\n`,
);
