#!/usr/bin/env node
/**
 * P3 diagnostic (bench/analysis.md): does `@google/genai`'s request path cost more on the objects our session
 * passes than on a JSON clone of them (identical JSON)? Runs a 200-round session against a FakeGeminiServer
 * process, captures the parameters of its last `generateContentStreamInternal` call, then sends those parameters and
 * their clone alternately to a second loopback server and prints the client CPU per 50 calls of each. With
 * `--allow-natives-syntax` it also counts objects in dictionary mode.
 *
 *   node [--allow-natives-syntax] bench/p3-shape-ab.mjs        (after npm run build)
 */
import process from 'node:process';
import { startServerProcess } from './lib/server-process.mjs';

const genai = await import('@google/genai');
let captured;
const internal = genai.Models.prototype.generateContentStreamInternal;
genai.Models.prototype.generateContentStreamInternal = function (params) {
  captured = params;
  return internal.call(this, params);
};
const { GeminiCliAgent, tool, z } = await import('gemini-agent-sdk');
const rounds = 200;
const server = await startServerProcess({ kind: 'tool-rounds', rounds, tool: 'tick' });
const agent = new GeminiCliAgent({
  instructions: 'x',
  model: 'gemini-2.5-flash',
  apiKey: 'bench-fake-key',
  baseUrl: server.baseUrl,
  cwd: process.cwd(),
  limits: { maxTurns: rounds + 5 },
  tools: [
    tool({ name: 'tick', description: 'd', inputSchema: z.object({ i: z.number() }) }, ({ i }) => {
      return `tick ${i} ok`;
    }),
  ],
});
const session = agent.session();
for await (const _event of session.sendStream('go')) {
  // drain
}
await session.close();
await server.stop();

const { abortSignal: _signal, httpOptions: _http, ...config } = captured.config ?? {};
const ours = { ...captured, config };
const clone = JSON.parse(JSON.stringify(ours));
const answers = await startServerProcess({ kind: 'text', count: 600 });
const ai = new genai.GoogleGenAI({
  apiKey: 'bench-fake-key',
  httpOptions: { baseUrl: answers.baseUrl },
});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function time(params, n) {
  const t0 = cpu();
  for (let i = 0; i < n; i++) {
    const stream = await internal.call(ai.models, params);
    for await (const _chunk of stream) {
      // drain
    }
  }
  return Math.round(cpu() - t0);
}
await time(ours, 20);
await time(clone, 20);
const res = { ours: [], clone: [] };
for (let r = 0; r < 5; r++) {
  res.ours.push(await time(ours, 50));
  res.clone.push(await time(clone, 50));
}
await answers.stop();
let slow = 'not checked (run with --allow-natives-syntax)';
try {
  const hasFast = new Function('o', 'return %HasFastProperties(o)');
  let objects = 0;
  let dictionary = 0;
  const seen = new Set();
  const walk = (v) => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (!Array.isArray(v)) {
      objects++;
      if (!hasFast(v)) dictionary++;
    }
    for (const k of Object.keys(v)) walk(v[k]);
  };
  walk(ours.contents);
  slow = `${dictionary} of ${objects} objects in dictionary mode`;
} catch {
  // natives syntax not enabled
}
process.stdout.write(
  `${JSON.stringify({
    contents: ours.contents.length,
    sameJson: JSON.stringify(ours) === JSON.stringify(clone),
    cpuMsPer50Calls: res,
    slow,
  })}\n`,
);
