/**
 * The simplest agent: the equivalent of `gemini -p "what does this project do?"`. The agent may look at the
 * project with gemini-cli's built-in read-only tools (read_file, list_directory, glob, grep_search…).
 *
 * Run: npx tsx examples/simple.ts   (replays examples/replays/simple.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent } from 'gemini-agent-sdk';

// Without GEMINI_API_KEY, replay the recorded answer shipped next to this file.
const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/simple.jsonl', import.meta.url));

const simpleAgent = new GeminiCliAgent({
  cwd: fileURLToPath(new URL('..', import.meta.url)), // this repository
  fakeResponses,
});

// A brand-new session (`await simpleAgent.resumeSession(id)` continues an old one).
const session = simpleAgent.session();

for await (const chunk of session.sendStream('what does this project do?')) {
  // Every chunk is a `{ type, value }` event, as gemini-cli streams them.
  if (chunk.type === 'content') process.stdout.write(chunk.value);
  if (chunk.type === 'tool_call_request') {
    console.log(`[tool] ${chunk.value.name} ${JSON.stringify(chunk.value.args)}`);
  }
  if (chunk.type === 'tool_call_response') {
    console.log(
      `[tool] ${chunk.value.name} → ${chunk.value.error ? chunk.value.error.message : 'ok'}`,
    );
  }
}
process.stdout.write('\n');
