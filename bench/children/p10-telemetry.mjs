/**
 * P10 client: tool rounds through one process's sessions with telemetry off (no feature), with the telemetry feature
 * on OpenTelemetry's no-op global provider (the default when @opentelemetry/api is installed and no SDK is
 * registered), and recording every span into the SDK's in-memory exporter. Same in-process model as P8. The variants
 * run interleaved in the same process, `reps` times each. Prints one JSON line: loop CPU per variant and run.
 * argv: rounds reps
 */
import process from 'node:process';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

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

function chunk(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
  };
}

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

const exporter = new InMemorySpanExporter();
const recording = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const VARIANTS = {
  off: { enabled: false },
  'no-op provider': {},
  recording: { tracerProvider: recording },
};

async function once(variant) {
  const agent = new GeminiCliAgent({
    contentGenerator: model(),
    tools: [tick],
    builtinTools: false,
    persist: false,
    settings: false,
    limits: { maxTurns: rounds + 5 },
    telemetry: VARIANTS[variant],
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
  if (variant === 'recording') {
    await recording.forceFlush();
    const spans = exporter.getFinishedSpans().length;
    exporter.reset();
    if (spans !== 2 * rounds + 2)
      throw new Error(`recording: expected ${2 * rounds + 2} spans, got ${spans}`);
  }
  return (cpu.user + cpu.system) / 1000;
}

const samples = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, []]));
for (const v of Object.keys(VARIANTS)) await once(v); // warm-up
for (let r = 0; r < reps; r++) {
  const order = Object.keys(VARIANTS);
  for (let k = 0; k < r % order.length; k++) order.push(order.shift());
  for (const v of order) samples[v].push(await once(v));
}
process.stdout.write(`${JSON.stringify({ rounds, samples })}\n`);
