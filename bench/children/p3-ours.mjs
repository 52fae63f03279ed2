/**
 * P3 client, our side: one GeminiCliSession (real @google/genai client through the SDK's Gemini adapter, baseUrl
 * pointing at the FakeGeminiServer process) runs `rounds` tool rounds. Prints one JSON line with the CPU and wall
 * time of the loop (process.cpuUsage / hrtime around the sendStream, after initialize()).
 * argv: baseUrl rounds
 */
import process from 'node:process';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import { PROMPT, INSTRUCTIONS, MODEL, TOOL_NAME, tickAction } from './p3-shared.mjs';

const [baseUrl, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const tick = tool(
  {
    name: TOOL_NAME,
    description: 'Advances the benchmark counter.',
    inputSchema: z.object({ i: z.number().describe('round number') }),
  },
  ({ i }) => tickAction(i),
);
const agent = new GeminiCliAgent({
  instructions: INSTRUCTIONS,
  tools: [tick],
  model: MODEL,
  apiKey: 'bench-fake-key',
  baseUrl,
  cwd: process.cwd(),
  limits: { maxTurns: rounds + 5 },
});
const session = agent.session();
await session.initialize();

const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let calls = 0;
let finished = false;
for await (const event of session.sendStream(PROMPT)) {
  if (event.type === 'tool_call_request') calls++;
  if (event.type === 'finished') finished = true;
}
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
const cpu = process.cpuUsage(cpu0);
await session.close();
const total = process.cpuUsage();
process.stdout.write(
  `${JSON.stringify({
    calls,
    finished,
    loopCpuMs: (cpu.user + cpu.system) / 1000,
    loopWallMs: wallMs,
    processCpuMs: (total.user + total.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
  })}\n`,
);
