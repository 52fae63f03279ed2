/**
 * One worker process: claims sessions from the Postgres work queue, runs their prompts and approval decisions,
 * and hands them back. Start as many as you like, on as many machines as you like; kill any of them (even with
 * kill -9): its sessions move to the others once its leases expire, and no message is lost or doubled.
 *
 *   PG_URL=postgres://… npx tsx --tsconfig examples/tsconfig.json examples/workers/worker.ts
 *
 * Environment: PG_URL (required), PG_SCHEMA (default gemini_agent), WORKER_NAME, WORKER_CONCURRENCY (8),
 * LEASE_TTL_MS (30000), TOOL_DELAY_MS (100), MODEL_DELAY_MS (20). With GEMINI_API_KEY set, Gemini answers
 * instead of the offline demo model. SIGTERM (or Ctrl-C): finish the current inputs, release every lease, exit 0.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import { PostgresSessionStore, PostgresSessionWorker } from 'gemini-agent-sdk/postgres';
import { demoModel } from './demo-model.js';

const env = process.env;
const url = env['PG_URL'];
if (!url) {
  console.error('Set PG_URL=postgres://user:password@host:5432/database');
  process.exit(2);
}
const schema = env['PG_SCHEMA'] ?? 'gemini_agent';
const name = env['WORKER_NAME'] ?? `worker-${process.pid}`;
const ttlMs = Number(env['LEASE_TTL_MS'] ?? 30_000);
const toolDelay = Number(env['TOOL_DELAY_MS'] ?? 100);
const say = (line: string) => process.stdout.write(`[${name}] ${line}\n`);

const store = new PostgresSessionStore({
  connectionString: url,
  schema,
  holderName: `${name} (pid ${process.pid} on ${hostname()})`,
  lease: { ttlMs, heartbeatMs: Math.floor(ttlMs / 4) },
  logger: {
    debug() {},
    info: (message) => {
      if (message.includes('took over')) say('took over an expired lease');
    },
    warn() {},
    error() {},
  },
});
// Signals first: a SIGTERM during start-up still shuts down cleanly.
const running: { worker?: PostgresSessionWorker; db?: pg.Pool } = {};
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  say('stopping: finishing the current inputs');
  await running.worker?.stop();
  await store.close();
  await running.db?.end();
  say('stopped');
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await store.migrate();

// The tools act on the same database: set_value is the side effect that needs a human's approval.
const effects = new pg.Pool({ connectionString: url, max: 2 });
running.db = effects;
effects.on('error', () => undefined);
// CREATE TABLE IF NOT EXISTS is not safe against itself: workers starting together can collide in pg_type.
// A transaction-scoped advisory lock makes the first one create the table and the others find it.
const ddl = await effects.connect();
try {
  await ddl.query('BEGIN');
  await ddl.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`demo_effects:${schema}`]);
  await ddl.query(`CREATE TABLE IF NOT EXISTS "${schema}".demo_effects (
    op text NOT NULL, session_id text NOT NULL, key text NOT NULL, value text NOT NULL,
    worker text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  await ddl.query('COMMIT');
} catch (err) {
  await ddl.query('ROLLBACK').catch(() => undefined);
  throw err;
} finally {
  ddl.release();
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  tool(
    {
      name: 'lookup',
      description: 'Reads the current value of a key',
      inputSchema: z.object({ key: z.string() }),
    },
    async ({ key }) => {
      await pause(toolDelay);
      return { key, current: 'unset' };
    },
  ),
  tool(
    {
      name: 'set_value',
      description: 'Sets a key (needs approval)',
      inputSchema: z.object({ key: z.string(), value: z.string(), op: z.string() }),
    },
    async ({ key, value, op }, ctx) => {
      await pause(toolDelay);
      await effects.query(
        `INSERT INTO "${schema}".demo_effects (op, session_id, key, value, worker) VALUES ($1, $2, $3, $4, $5)`,
        [op, ctx.sessionId, key, value, name],
      );
      return { key, value };
    },
  ),
];

const worker = new PostgresSessionWorker({
  store,
  concurrency: Number(env['WORKER_CONCURRENCY'] ?? 8),
  pollMs: 100,
  agent: (sessionStore) =>
    new GeminiCliAgent({
      sessionStore,
      tools,
      builtinTools: false,
      approvals: 'pause',
      policy: { rules: [{ toolName: 'set_value', decision: 'ask_user' }] },
      ...(env['GEMINI_API_KEY']
        ? {}
        : { contentGenerator: demoModel(Number(env['MODEL_DELAY_MS'] ?? 20)) }),
    }),
  onEvent: (event) => {
    if (event.type === 'delivered')
      say(`delivered ${event.input.kind} #${event.input.id} to ${event.sessionId}`);
    else if (event.type === 'failed') say(`failed ${event.sessionId}: ${String(event.error)}`);
    else if (event.type !== 'released') say(`${event.type} ${event.sessionId}`);
  },
});

running.worker = worker;
if (!stopping) {
  worker.start();
  say('ready');
}
