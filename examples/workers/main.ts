/**
 * The worker model end to end: queues tasks for a few sessions, starts N worker processes (worker.ts), approves
 * or refuses the calls they pause on (the approver a product would put behind a human's inbox), waits until every
 * input is handled, then stops the workers with SIGTERM and prints what each session ended with.
 *
 *   PG_URL=postgres://… npx tsx --tsconfig examples/tsconfig.json examples/workers/main.ts [workers] [sessions]
 *
 * Sessions and the queue live in the schema PG_SCHEMA (default workers_demo), recreated on each run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PostgresSessionQueue, PostgresSessionStore } from 'gemini-agent-sdk/postgres';

const url = process.env['PG_URL'];
if (!url) {
  console.error('Set PG_URL=postgres://user:password@host:5432/database');
  process.exit(2);
}
const schema = process.env['PG_SCHEMA'] ?? 'workers_demo';
const workers = Number(process.argv[2] ?? 3);
const sessions = Number(process.argv[3] ?? 6);

const store = new PostgresSessionStore({ connectionString: url, schema });
const queue = new PostgresSessionQueue(store);
await store.migrate();
for (let s = 0; s < sessions; s++) {
  const id = `demo-${s}`;
  await queue.enqueuePrompt(id, `Task 1: set colour-${s} to blue.`, { dedupeKey: `${id}/1` });
  await queue.enqueuePrompt(id, `Task 2: set secret-${s} to 42.`, { dedupeKey: `${id}/2` });
}

// Workers: this file's own loader (tsx) runs worker.ts too.
const workerFile = fileURLToPath(new URL('./worker.js', import.meta.url)).replace(/\.js$/, '.ts');
const children: ChildProcess[] = [];
for (let w = 0; w < workers; w++) {
  const child = spawn(process.execPath, [...process.execArgv, workerFile], {
    env: { ...process.env, PG_SCHEMA: schema, WORKER_NAME: `w${w + 1}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
}

// The approver: secrets are refused, the rest approved. One decision per held call (dedupe by call id).
for (;;) {
  for (const waiting of await queue.waitingApprovals()) {
    await queue.enqueueApprovals(
      waiting.sessionId,
      waiting.calls.map((c) => ({
        callId: c.callId,
        decision: String(c.args['key']).startsWith('secret')
          ? ('deny' as const)
          : ('allow' as const),
      })),
    );
  }
  const { undone } = await queue.counts();
  if (undone === 0 && (await queue.waitingApprovals()).length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}

for (const child of children) child.kill('SIGTERM');
await Promise.all(children.map((c) => new Promise((resolve) => c.once('exit', resolve))));
for (const summary of await store.list()) {
  const { messages } = await store.load(summary.sessionId);
  const last = messages.at(-1);
  // A model message's content is its text (gemini-cli's shape); a user message's is a list of parts.
  const content = last?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p) => (typeof p === 'string' ? p : (p['text'] ?? ''))).join('')
        : '';
  console.log(`${summary.sessionId}: ${summary.messageCount} messages; last: ${text}`);
}
await store.close();
