/**
 * P5 client (run with --expose-gc): `count` sessions of one agent send one prompt each, all at once, to a
 * FakeGeminiServer process (real @google/genai client through our adapter). Then, with every session still
 * referenced and idle, measures heapUsed after GC, and the heap taken by plain copies of the same histories.
 * argv: baseUrl count
 */
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { GeminiCliAgent } from 'gemini-agent-sdk';

const [baseUrl, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');

function settle() {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage();
}
async function settleAsync() {
  // Let pending socket/timer callbacks run, then collect.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return settle();
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
const results = await Promise.allSettled(sessions.map((s, i) => s.send(`hello ${i}`)));
const wallMs = performance.now() - t0;
const errors = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
const okText = results.filter(
  (r) => r.status === 'fulfilled' && r.value.text.startsWith('answer'),
).length;
const idle = await settleAsync();

// The histories themselves, as plain objects (what any client must keep): heap of count copies.
const histories = sessions.map((s) => JSON.parse(JSON.stringify(s.getHistory())));
const withCopies = await settleAsync();
const historyBytes = JSON.stringify(histories[0]).length;

for (const s of sessions) await s.close();
process.stdout.write(
  `${JSON.stringify({
    count,
    errors: errors.length,
    firstErrors: [...new Set(errors)].slice(0, 3),
    okText,
    wallMs,
    heapBefore: before.heapUsed,
    heapIdle: idle.heapUsed,
    heapWithHistoryCopies: withCopies.heapUsed,
    externalDelta: idle.external - before.external,
    rssDelta: idle.rss - before.rss,
    historyJsonBytes: historyBytes,
    historyLength: histories[0].length,
    keepAlive: sessions.length + histories.length,
  })}\n`,
);
