/**
 * Runs a FakeGeminiServer (from the built `gemini-agent-sdk/testing`) in its own process, so its CPU and memory
 * stay out of the measured client. argv[2] is a JSON spec:
 *   { "kind": "tool-rounds", "rounds": 200, "tool": "tick" }  → `rounds` turns calling `tool({i})`, then "done"
 *   { "kind": "text", "count": 1000 }                          → `count` one-chunk text answers
 * Prints `{"baseUrl": …}` once listening; when stdin ends, prints a summary line and exits.
 */
import process from 'node:process';
import { FakeGeminiServer, callTurn, textTurn } from 'gemini-agent-sdk/testing';

const spec = JSON.parse(process.argv[2] ?? '{}');
const turns = [];
if (spec.kind === 'tool-rounds') {
  for (let i = 0; i < spec.rounds; i++) {
    turns.push(callTurn({ name: spec.tool, args: { i }, id: `call-${i}` }));
  }
  turns.push(textTurn('done'));
} else if (spec.kind === 'text') {
  for (let i = 0; i < spec.count; i++) turns.push(textTurn(`answer ${i}`));
} else {
  throw new Error(`fake-server: unknown spec ${process.argv[2]}`);
}

const server = new FakeGeminiServer({ turns });
const baseUrl = await server.start();
process.stdout.write(`${JSON.stringify({ baseUrl })}\n`);

process.stdin.resume();
process.stdin.on('end', async () => {
  const byMethod = {};
  let bodyBytes = 0;
  for (const r of server.requests) {
    byMethod[r.method] = (byMethod[r.method] ?? 0) + 1;
    bodyBytes += JSON.stringify(r.body ?? '').length;
  }
  const first = server.requests.find((r) => r.method === 'generateContentStream');
  const last = server.requests.at(-1);
  const summary = {
    requests: server.requests.length,
    byMethod,
    bodyBytes,
    remaining: server.remaining,
    unexpected: server.unexpected.map((u) => u.reason),
    first: first ? { model: first.model, path: first.path, body: first.body } : undefined,
    lastContents: Array.isArray(last?.body?.contents) ? last.body.contents.length : undefined,
    /** The first model turn and tool answer as sent back in the last request (to compare clients). */
    sampleTurns: Array.isArray(last?.body?.contents) ? last.body.contents.slice(1, 3) : undefined,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await server.close();
  process.exit(0);
});
