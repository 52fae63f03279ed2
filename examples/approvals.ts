/**
 * Policies and approvals. In the default mode, read-only tools run, while file writes and shell commands
 * need a human's approval. `onApproval` is that human: here it approves writing a note and refuses deleting
 * a folder. The model is told about the refusal and answers accordingly. Without `onApproval`, every call
 * that needs approval is denied — what `gemini -p` does.
 *
 * Run: npx tsx examples/approvals.ts   (replays examples/replays/approvals.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent } from 'gemini-agent-sdk';

const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/approvals.jsonl', import.meta.url));

// A scratch workspace, so the example never touches your files.
const workspace = await mkdtemp(join(tmpdir(), 'approvals-example-'));

const agent = new GeminiCliAgent({
  cwd: workspace,
  fakeResponses,
  policy: { mode: 'default' },
  onApproval: (request) => {
    const decision = request.toolName === 'run_shell_command' ? 'deny' : 'allow';
    console.log(`[approval] ${request.toolName}: ${request.description} → ${decision}`);
    return decision;
  },
});

const session = agent.session();
const prompt =
  'Write "- ship the CLI" to notes/todo.md, then delete the old build folder with rm -rf build.';
for await (const chunk of session.sendStream(prompt)) {
  if (chunk.type === 'tool_call_response') {
    const outcome = chunk.value.error ? `refused: ${chunk.value.error.message}` : 'done';
    console.log(`[tool] ${chunk.value.name} ${outcome}`);
  }
  if (chunk.type === 'content') process.stdout.write(chunk.value);
}
process.stdout.write('\n');
await session.close();

console.log(
  `[workspace] notes/todo.md contains: ${JSON.stringify(await readFile(join(workspace, 'notes', 'todo.md'), 'utf8'))}`,
);
await rm(workspace, { recursive: true, force: true });
