/**
 * The whole loop in one run (`npm run demo`): a custom tool call, a skill activation, and a session resumed
 * by a new agent. Without GEMINI_API_KEY it replays examples/replays/demo-*.jsonl (no network, no key); with
 * the key it talks to Gemini.
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import {
  GeminiCliAgent,
  skillDir,
  tool,
  z,
  type GeminiCliSession,
  type ServerGeminiStreamEvent,
} from 'gemini-agent-sdk';

const live = Boolean(process.env['GEMINI_API_KEY']);
const replay = (name: string): string | undefined =>
  live ? undefined : fileURLToPath(new URL(`./replays/${name}.jsonl`, import.meta.url));

const convertTemperature = tool(
  {
    name: 'convert_temperature',
    description: 'Convert a temperature from degrees Celsius to degrees Fahrenheit.',
    inputSchema: z.object({ celsius: z.number().describe('temperature in °C') }),
  },
  ({ celsius }) => ({ celsius, fahrenheit: Math.round(((celsius * 9) / 5 + 32) * 10) / 10 }),
);

const options = {
  instructions: 'You are a concise assistant. Use your tools for conversions.',
  tools: [convertTemperature],
  skills: [skillDir(fileURLToPath(new URL('./skills', import.meta.url)))],
};

const width = Math.min(process.stdout.columns ?? 80, 80);
const heading = (title: string): void => {
  console.log(`\n── ${title} ${'─'.repeat(Math.max(0, width - title.length - 4))}`);
};
const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
};

/** Sends one prompt and prints the conversation readably. */
async function ask(session: GeminiCliSession, prompt: string): Promise<void> {
  console.log(`you     › ${prompt}`);
  let answer = '';
  for await (const event of session.sendStream(prompt) as AsyncIterable<ServerGeminiStreamEvent>) {
    if (event.type === 'tool_call_request') {
      console.log(`tool    › ${event.value.name} ${JSON.stringify(event.value.args)}`);
    } else if (event.type === 'tool_call_response') {
      const display = event.value.resultDisplay;
      const shown =
        event.value.error?.message ??
        (typeof display === 'object' ? JSON.stringify(display.todos) : (display ?? ''));
      console.log(`result  › ${oneLine(shown)}`);
    } else if (event.type === 'content') {
      answer += event.value;
    }
  }
  console.log(`gemini  › ${answer.trim().split('\n').join('\n          ')}`);
}

console.log(
  live
    ? 'gemini-agent-sdk demo — talking to Gemini (GEMINI_API_KEY is set).'
    : 'gemini-agent-sdk demo — replaying examples/replays/demo-*.jsonl (set GEMINI_API_KEY to use Gemini).',
);

heading('1. A custom tool');
const agent = new GeminiCliAgent({ ...options, fakeResponses: replay('demo-session') });
const session = agent.session();
await ask(session, 'What is 21 °C in Fahrenheit?');

heading('2. A skill');
await ask(session, 'Now say that as a haiku.');
const sessionId = session.id;
await session.close(); // releases the session's lock, as the end of a process would

heading('3. A resumed session');
console.log(`(a new agent resumes session ${sessionId}, as a later process would)`);
const laterAgent = new GeminiCliAgent({ ...options, fakeResponses: replay('demo-resume') });
const resumed = await laterAgent.resumeSession(sessionId);
await ask(resumed, 'Which temperature did we convert, and what was the result?');

await resumed.close();
const { modelCalls, totalTokenCount } = resumed.usage;
console.log(
  `\nDone: session ${sessionId}, resumed with ${modelCalls} model call(s), ${totalTokenCount} tokens.`,
);
