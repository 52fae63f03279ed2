import { ConfigurationError, SessionError } from '../errors.js';
import type { PostgresClient, PostgresPool } from './pg-pool.js';
import type { TableNames } from './sql-names.js';
import { inTransaction } from './store-context.js';

/** One schema change: applied once, in version order, inside the migration transaction. */
export interface Migration {
  /** Schema version after this migration (1, 2, …). */
  version: number;
  /** What it does, recorded in `schema_migrations`. */
  name: string;
  /** The statements, for the given tables. */
  statements(t: TableNames): string[];
}

/**
 * The store's schema history. Never edit an applied migration: add a new one. Each index is justified by a query
 * in the store (see docs/scaling.md, "Schema").
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, messages, leases',
    statements: (t) => [
      `CREATE SEQUENCE ${t.leaseTokens}`,
      `CREATE TABLE ${t.sessions} (
        session_id text COLLATE "C" PRIMARY KEY,
        project_hash text NOT NULL,
        kind text NOT NULL DEFAULT 'main',
        start_time text COLLATE "C" NOT NULL,
        last_updated text NOT NULL,
        summary text,
        metadata text NOT NULL,
        message_count integer NOT NULL DEFAULT 0,
        next_seq bigint NOT NULL DEFAULT 0,
        waiting_approval boolean NOT NULL DEFAULT false,
        last_write uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      // list(): one project's sessions, oldest start first, keyset pages on (start_time, session_id).
      `CREATE INDEX sessions_project_start ON ${t.sessions} (project_hash, start_time, session_id)
        WHERE kind <> 'subagent'`,
      // list({ allProjects: true }): the same order across projects.
      `CREATE INDEX sessions_start ON ${t.sessions} (start_time, session_id) WHERE kind <> 'subagent'`,
      // waitingForApproval(): the approvals inbox, a small partial index.
      `CREATE INDEX sessions_waiting_approval ON ${t.sessions} (last_updated) WHERE waiting_approval`,
      `CREATE TABLE ${t.messages} (
        session_id text COLLATE "C" NOT NULL REFERENCES ${t.sessions} (session_id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        message_id text NOT NULL,
        type text NOT NULL,
        prompt text,
        body text NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
      // Upserts by message id (ON CONFLICT target) and $rewindTo's lookup of a message's position.
      `CREATE UNIQUE INDEX messages_id ON ${t.messages} (session_id, message_id)`,
      // list()'s firstPrompt: the first message of a session that is a real prompt.
      `CREATE INDEX messages_prompt ON ${t.messages} (session_id, seq) WHERE prompt IS NOT NULL`,
      `CREATE TABLE ${t.leases} (
        session_id text COLLATE "C" PRIMARY KEY,
        token bigint NOT NULL,
        holder_id uuid NOT NULL,
        holder text NOT NULL,
        acquired_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
      // Heartbeats renew every lease of a store in one statement by token.
      `CREATE UNIQUE INDEX leases_token ON ${t.leases} (token)`,
    ],
  },
  {
    version: 2,
    name: 'work queue inputs',
    statements: (t) => [
      `CREATE TABLE ${t.inputs} (
        id bigserial PRIMARY KEY,
        session_id text COLLATE "C" NOT NULL,
        kind text NOT NULL CHECK (kind IN ('prompt', 'approval')),
        payload text NOT NULL,
        dedupe_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        done_at timestamptz
      )`,
      // claim(): the oldest undone inputs, skipping rows other workers have locked.
      `CREATE INDEX inputs_pending ON ${t.inputs} (id) WHERE done_at IS NULL`,
      // A worker reads one session's inputs in order.
      `CREATE INDEX inputs_session ON ${t.inputs} (session_id, id)`,
      // One input per (session, key): an approver that decides twice enqueues once.
      `CREATE UNIQUE INDEX inputs_dedupe ON ${t.inputs} (session_id, dedupe_key)
        WHERE dedupe_key IS NOT NULL`,
    ],
  },
];

/** The newest schema version this SDK knows. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/** Result of {@link migrateSchema}. */
export interface MigrationResult {
  /** Schema version before. 0 when the schema had no tables of ours. */
  from: number;
  /** Schema version now. */
  to: number;
  /** The migrations applied by this call, in order. */
  applied: Array<{ version: number; name: string }>;
}

function tooNew(schema: string, version: number): SessionError {
  return new SessionError(
    `The PostgreSQL schema ${schema} is at version ${version}, newer than this SDK understands ` +
      `(${LATEST_SCHEMA_VERSION}). Upgrade gemini-agent-sdk on this worker before pointing it at that database.`,
    { code: 'POSTGRES_SCHEMA_TOO_NEW' },
  );
}

async function currentVersion(query: PostgresClient | PostgresPool, t: TableNames, schema: string) {
  const exists = await query.query('SELECT to_regclass($1) IS NOT NULL AS present', [
    `"${schema}".schema_migrations`,
  ]);
  if (exists.rows[0]?.['present'] !== true) return 0;
  const result = await query.query(
    `SELECT coalesce(max(version), 0)::int AS v FROM ${t.migrations}`,
  );
  return Number(result.rows[0]?.['v'] ?? 0);
}

/** The schema's version (0 when it has none of our tables), without changing anything. */
export async function schemaVersion(
  pool: PostgresPool,
  t: TableNames,
  schema: string,
): Promise<number> {
  return currentVersion(pool, t, schema);
}

/**
 * Brings the schema to {@link LATEST_SCHEMA_VERSION} in one transaction, under a transaction-scoped advisory lock,
 * so that workers starting together migrate once and the others wait and find nothing to do.
 *
 * @throws SessionError (code `POSTGRES_SCHEMA_TOO_NEW`) when the schema is newer than this SDK.
 */
export async function migrateSchema(
  pool: PostgresPool,
  t: TableNames,
  schema: string,
): Promise<MigrationResult> {
  return inTransaction(pool, 'BEGIN', async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `gemini-agent-sdk:migrate:${schema}`,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${t.schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.migrations} (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const from = await currentVersion(client, t, schema);
    if (from > LATEST_SCHEMA_VERSION) throw tooNew(schema, from);
    const applied: MigrationResult['applied'] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= from) continue;
      for (const statement of m.statements(t)) await client.query(statement);
      await client.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [
        m.version,
        m.name,
      ]);
      applied.push({ version: m.version, name: m.name });
    }
    return { from, to: Math.max(from, LATEST_SCHEMA_VERSION), applied };
  });
}

/**
 * Checks that the schema is at the version this SDK writes.
 *
 * @throws ConfigurationError when migrations are pending (run `store.migrate()` or `gemini-agent postgres migrate`).
 * @throws SessionError (code `POSTGRES_SCHEMA_TOO_NEW`) when the schema is newer than this SDK.
 */
export async function verifySchema(
  pool: PostgresPool,
  t: TableNames,
  schema: string,
): Promise<void> {
  const version = await currentVersion(pool, t, schema);
  if (version > LATEST_SCHEMA_VERSION) throw tooNew(schema, version);
  if (version < LATEST_SCHEMA_VERSION) {
    throw new ConfigurationError(
      `The PostgreSQL schema ${schema} is at version ${version}; this SDK needs ${LATEST_SCHEMA_VERSION}. Run ` +
        `\`gemini-agent postgres migrate --url <connection string> --schema ${schema}\` or store.migrate(), or ` +
        `construct the store with migrate: 'auto'.`,
    );
  }
}
