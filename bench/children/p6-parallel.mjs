/**
 * P6 client: one model turn calling k tools that each take 200 ms (ScriptedModel, no network), then a text turn.
 * For k in the list, runs `runs` sessions (plus one warm-up) and prints per-k wall times of the whole sendStream
 * and the overlap of the tool executions (latest start − earliest start).
 * argv: runs k1,k2,…
 */
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import { ScriptedModel, callTurn, textTurn } from 'gemini-agent-sdk/testing';

const [runsArg, ksArg] = process.argv.slice(2);
const runs = Number(runsArg);
const ks = ksArg.split(',').map(Number);
const TOOL_MS = 200;

async function turn(k) {
  const starts = [];
  const ends = [];
  const wait = tool(
    {
      name: 'wait_200ms',
      description: 'Waits 200 ms.',
      inputSchema: z.object({ n: z.number() }),
    },
    async ({ n }) => {
      starts.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, TOOL_MS));
      ends.push(performance.now());
      return `waited ${n}`;
    },
  );
  const calls = Array.from({ length: k }, (_, n) => ({ name: 'wait_200ms', args: { n } }));
  const model = new ScriptedModel([callTurn(...calls), textTurn('all done')]);
  const agent = new GeminiCliAgent({ contentGenerator: model, tools: [wait], cwd: process.cwd() });
  const session = agent.session();
  await session.initialize();
  const t0 = performance.now();
  let responses = 0;
  for await (const e of session.sendStream(`run ${k} waits`)) {
    if (e.type === 'tool_call_response') responses++;
  }
  const wallMs = performance.now() - t0;
  await session.close();
  model.assertComplete();
  if (responses !== k || starts.length !== k) {
    throw new Error(`k=${k}: ${starts.length} tools ran, ${responses} tool_call_response events`);
  }
  return {
    wallMs,
    startSpreadMs: Math.max(...starts) - Math.min(...starts),
    toolSpanMs: Math.max(...ends) - Math.min(...starts),
  };
}

const out = {};
for (const k of ks) {
  await turn(k); // warm-up
  out[k] = [];
  for (let i = 0; i < runs; i++) out[k].push(await turn(k));
}
process.stdout.write(`${JSON.stringify(out)}\n`);
