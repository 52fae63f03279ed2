/**
 * SessionContext: tools (second argument) and dynamic instructions receive a fresh view of the session —
 * its id, transcript, cwd and timestamp — plus `fs` and `shell`, which stay inside the workspace and obey
 * the policy.
 *
 * Run: npx tsx examples/session-context.ts
 *      (replays examples/replays/session-context.jsonl unless GEMINI_API_KEY is set)
 */
import './temp-home.js';
import { fileURLToPath } from 'node:url';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';

const fakeResponses = process.env['GEMINI_API_KEY']
  ? undefined
  : fileURLToPath(new URL('./replays/session-context.jsonl', import.meta.url));

const describeSession = tool(
  {
    name: 'describe_session',
    description: 'Describe the current session and the package in the working directory.',
    inputSchema: z.object({}),
  },
  async (_params, ctx) => {
    // ctx.fs.readFile returns null when the file is missing or outside the workspace.
    const manifest = await ctx.fs.readFile('package.json');
    const name = manifest === null ? null : (JSON.parse(manifest) as { name?: string }).name;
    return {
      sessionId: ctx.sessionId,
      cwd: ctx.cwd,
      messagesSoFar: ctx.transcript.length,
      packageName: name ?? 'no package.json here',
    };
  },
);

const agent = new GeminiCliAgent({
  cwd: fileURLToPath(new URL('..', import.meta.url)), // this repository
  // A function is called with a fresh SessionContext before every model call.
  instructions: (ctx) =>
    `You are a concise assistant. Session ${ctx.sessionId}, time ${ctx.timestamp}.`,
  tools: [describeSession],
  fakeResponses,
});

const session = agent.session();
for await (const chunk of session.sendStream(
  'Which package is in this folder? Use describe_session.',
)) {
  if (chunk.type === 'tool_call_response')
    console.log(`[describe_session] ${chunk.value.resultDisplay}`);
  if (chunk.type === 'content') process.stdout.write(chunk.value);
}
process.stdout.write('\n');
