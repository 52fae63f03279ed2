/**
 * A feature from outside, through the public API: a tool, a system-prompt section, a policy rule, a model
 * interceptor, a tool interceptor and a per-session teardown (see docs/features.md).
 *
 * Run: npx tsx examples/features.ts   (replays examples/replays/features.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent, tool, z, type Feature } from 'gemini-agent-sdk';

const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/features.jsonl', import.meta.url));

const audit: string[] = [];

const wordCount = tool(
  {
    name: 'word_count',
    description: 'Counts the words of a text',
    inputSchema: z.object({ text: z.string().describe('the text') }),
  },
  ({ text }) => String(text.split(/\s+/).filter(Boolean).length),
);

const auditing: Feature = {
  name: 'audit',
  tools: [wordCount],
  systemSection: 'Count words with the word_count tool, never by hand.',
  // Tools that are not in the `tools` option ask first (and are refused headless) unless a rule lets them run.
  policy: [
    {
      origin: { tier: 'default', source: 'audit feature' },
      rules: [{ toolName: 'word_count', decision: 'allow' }],
    },
  ],
  async interceptModel(call, next) {
    audit.push(`model call ${call.turn}`);
    return next();
  },
  async interceptTool(run, next) {
    const result = await next();
    audit.push(`${run.tool.name}(${JSON.stringify(run.args)}) -> ${String(result.llmContent)}`);
    return result;
  },
  initialize(session) {
    audit.push(`session ${session.resumed ? 'resumed' : 'started'}`);
    return () => {
      audit.push('session closed');
    };
  },
};

const agent = new GeminiCliAgent({ features: [auditing], builtinTools: false, fakeResponses });
const session = agent.session();
for await (const event of session.sendStream('How many words are in "the quick brown fox"?')) {
  if (event.type === 'content') process.stdout.write(event.value);
}
process.stdout.write('\n');
await agent.close(); // closes the session: its teardown runs
console.log(audit.map((line) => `[audit] ${line}`).join('\n'));
