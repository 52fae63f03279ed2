/**
 * Skills: on-demand expertise. The agent lists each skill's name and description to the model; when a task
 * fits, the model calls `activate_skill` and receives the skill's instructions (SKILL.md) and file tree.
 *
 * `skillDir(path)` takes one skill folder (holding SKILL.md) or a folder of skills, as here.
 *
 * Run: npx tsx examples/skills.ts   (replays examples/replays/skills.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent, skillDir } from 'gemini-agent-sdk';

const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/skills.jsonl', import.meta.url));

const agent = new GeminiCliAgent({
  instructions: 'You are a helpful assistant.',
  skills: [skillDir(fileURLToPath(new URL('./skills', import.meta.url)))],
  fakeResponses,
});

const session = agent.session();
for await (const chunk of session.sendStream('Describe TypeScript in a haiku.')) {
  if (chunk.type === 'tool_call_request' && chunk.value.name === 'activate_skill') {
    console.log(`[skill activated] ${String(chunk.value.args['name'])}`);
  }
  if (chunk.type === 'content') process.stdout.write(chunk.value);
}
process.stdout.write('\n');
