/**
 * P7 client, the peer: the Vercel AI SDK (`ai` + `@ai-sdk/google`, installed into bench/peers/vercel-ai/ by
 * bench/lib/vercel-peer.mjs) runs the same multi-step tool loop as p3-ours.mjs against the same kind of
 * FakeGeminiServer process: `streamText` with the tick tool, streaming, `stopWhen: stepCountIs(rounds + 5)`.
 * Prints the same JSON line as p3-ours.mjs (loop CPU and wall after start-up, tool calls seen, finished).
 * argv: baseUrl rounds
 */
import process from 'node:process';
import { createRequire } from 'node:module';
import { URL, pathToFileURL } from 'node:url';
import { PROMPT, INSTRUCTIONS, MODEL, TOOL_NAME, tickAction } from './p3-shared.mjs';

const [baseUrl, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
// The peer's own packages (its zod included), resolved from its folder, not from the repository's node_modules.
const peer = createRequire(new URL('../peers/vercel-ai/package.json', import.meta.url));
const load = (name) => import(pathToFileURL(peer.resolve(name)).href);
const { streamText, tool, stepCountIs } = await load('ai');
const { createGoogleGenerativeAI } = await load('@ai-sdk/google');
const { z } = await load('zod');

const google = createGoogleGenerativeAI({ apiKey: 'bench-fake-key', baseURL: `${baseUrl}/v1beta` });
const tools = {
  [TOOL_NAME]: tool({
    description: 'Advances the benchmark counter.',
    inputSchema: z.object({ i: z.number().describe('round number') }),
    execute: async ({ i }) => tickAction(i),
  }),
};

const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let calls = 0;
let finished = false;
let error;
const result = streamText({
  model: google(MODEL),
  system: INSTRUCTIONS,
  prompt: PROMPT,
  tools,
  stopWhen: stepCountIs(rounds + 5),
  maxRetries: 0,
});
for await (const part of result.fullStream) {
  if (part.type === 'tool-call') calls++;
  if (part.type === 'error') error = String(part.error?.message ?? part.error);
  if (part.type === 'finish') finished = true;
}
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    calls,
    finished: finished && error === undefined,
    ...(error ? { error } : {}),
    text: await result.text,
    loopCpuMs: (cpu.user + cpu.system) / 1000,
    loopWallMs: wallMs,
    processCpuMs: (total.user + total.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
  })}\n`,
);
