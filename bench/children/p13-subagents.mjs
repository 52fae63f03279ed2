/**
 * P13 client: the cost of delegating to a subagent against a direct tool call, in one process. `direct`: the parent
 * model calls an in-process tool `rounds` times. `subagent`: the parent calls `invoke_agent` `rounds` times, and each
 * subagent run answers at once with `complete_task` (its own history, system prompt, tool registry, policy checks
 * and transcript, one model call). Same in-process model as P8/P10; the variants run interleaved, `reps` times
 * each. Prints one JSON line: loop CPU per variant and run.
 * argv: rounds reps
 */
import process from 'node:process';
import { GeminiCliAgent, subagent, tool, z } from 'gemini-agent-sdk';

const [roundsArg, repsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const reps = Number(repsArg);

const tick = tool(
  {
    name: 'tick',
    description: 'Advances the benchmark counter.',
    inputSchema: z.object({ i: z.number() }),
  },
  ({ i }) => `tick ${i} ok`,
);

const worker = subagent({
  name: 'worker',
  description: 'Does one small task.',
  instructions: 'Do the task, then call complete_task.',
  tools: [],
});

function chunk(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
  };
}

/** The subagent's requests declare complete_task; the parent's do not. */
function isSubagentRequest(request) {
  const declarations = (request.config?.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  return declarations.some((d) => d.name === 'complete_task');
}

function model(variant) {
  let n = 0;
  const next = (request) => {
    if (isSubagentRequest(request))
      return chunk([
        { functionCall: { name: 'complete_task', args: { result: `task ${n} done` } } },
      ]);
    if (n >= rounds) return chunk([{ text: 'done' }]);
    const i = n++;
    return variant === 'direct'
      ? chunk([{ functionCall: { name: 'tick', args: { i } } }])
      : chunk([
          {
            functionCall: {
              name: 'invoke_agent',
              args: { agent_name: 'worker', prompt: `Do task ${i}.` },
            },
          },
        ]);
  };
  return {
    async generateContentStream(request) {
      const c = next(request);
      return (async function* () {
        yield c;
      })();
    },
    async generateContent(request) {
      return next(request);
    },
    async countTokens() {
      return { totalTokens: 0 };
    },
  };
}

const VARIANTS = ['direct', 'subagent'];

async function once(variant) {
  const agent = new GeminiCliAgent({
    contentGenerator: model(variant),
    tools: [tick],
    subagents: [worker],
    builtinTools: false,
    persist: false,
    settings: false,
    agentDiscovery: false,
    limits: { maxTurns: rounds + 5 },
  });
  const session = agent.session();
  await session.initialize();
  const cpu0 = process.cpuUsage();
  let calls = 0;
  let finished = 0;
  for await (const event of session.sendStream('go')) {
    if (event.type === 'tool_call_response' && event.value.error === undefined) calls++;
    if (
      event.type === 'tool_call_response' &&
      event.value.name === 'invoke_agent' &&
      JSON.stringify(event.value.responseParts).includes('Termination Reason: GOAL')
    )
      finished++;
  }
  const cpu = process.cpuUsage(cpu0);
  await session.close();
  if (calls !== rounds) throw new Error(`${variant}: expected ${rounds} calls, got ${calls}`);
  if (variant === 'subagent' && finished !== rounds)
    throw new Error(`subagent: expected ${rounds} runs ending with GOAL, got ${finished}`);
  return (cpu.user + cpu.system) / 1000;
}

const samples = Object.fromEntries(VARIANTS.map((v) => [v, []]));
for (const v of VARIANTS) await once(v); // warm-up
for (let r = 0; r < reps; r++) {
  const order = r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
  for (const v of order) samples[v].push(await once(v));
}
process.stdout.write(`${JSON.stringify({ rounds, samples })}\n`);
