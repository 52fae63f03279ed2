/**
 * P8 client: tool rounds through one process's sessions, with and without hooks. A minimal in-process model (no
 * HTTP, no request copies) answers each call with the next scripted chunk, so the figure is the loop's own cost per
 * round plus the hooks'. The variants run interleaved in the same process (same JIT state), `reps` times each.
 * Prints one JSON line: loop CPU per variant and run.
 * argv: rounds reps commandReps
 */
import process from 'node:process';
import { GeminiCliAgent, hook, tool, z } from 'gemini-agent-sdk';

const [roundsArg, repsArg, commandRepsArg] = process.argv.slice(2);
const rounds = Number(roundsArg);
const reps = Number(repsArg);
const commandReps = Number(commandRepsArg);

const tick = tool(
  {
    name: 'tick',
    description: 'Advances the benchmark counter.',
    inputSchema: z.object({ i: z.number() }),
  },
  ({ i }) => `tick ${i} ok`,
);

function chunk(parts) {
  return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] };
}

/** Answers call n with `tick(i = n)`, then says done. */
function model() {
  let n = 0;
  const next = () =>
    n < rounds
      ? chunk([{ functionCall: { name: 'tick', args: { i: n++ } } }])
      : chunk([{ text: 'done' }]);
  return {
    async generateContentStream() {
      const c = next();
      return (async function* () {
        yield c;
      })();
    },
    async generateContent() {
      return next();
    },
    async countTokens() {
      return { totalTokens: 0 };
    },
  };
}

const VARIANTS = {
  none: [],
  unrelated: [hook({ event: 'SessionEnd', name: 'unrelated' }, () => undefined)],
  'before-tool': [hook({ event: 'BeforeTool', name: 'watch', matcher: 'tick' }, () => undefined)],
};

async function once(variant, settings) {
  const agent = new GeminiCliAgent({
    contentGenerator: model(),
    tools: [tick],
    builtinTools: false,
    persist: false,
    limits: { maxTurns: rounds + 5 },
    hooks: VARIANTS[variant] ?? [],
    ...(settings ? { settings } : { settings: false }),
  });
  const session = agent.session();
  await session.initialize();
  const cpu0 = process.cpuUsage();
  let calls = 0;
  for await (const event of session.sendStream('go'))
    if (event.type === 'tool_call_request') calls++;
  const cpu = process.cpuUsage(cpu0);
  await session.close();
  if (calls !== rounds) throw new Error(`${variant}: expected ${rounds} calls, got ${calls}`);
  return (cpu.user + cpu.system) / 1000;
}

const command = {
  overrides: {
    hooks: {
      BeforeTool: [
        { matcher: 'tick', hooks: [{ type: 'command', command: "cat > /dev/null; echo '{}'" }] },
      ],
    },
  },
};

const samples = { none: [], unrelated: [], 'before-tool': [], command: [] };
for (const v of Object.keys(VARIANTS)) await once(v); // warm-up
for (let r = 0; r < reps; r++) {
  // Rotate the order so no variant always runs first after a GC-heavy one.
  const order = Object.keys(VARIANTS);
  for (let k = 0; k < r % order.length; k++) order.push(order.shift());
  for (const v of order) samples[v].push(await once(v));
}
for (let r = 0; r < commandReps; r++) samples.command.push(await once('command', command));
process.stdout.write(`${JSON.stringify({ rounds, samples })}\n`);
