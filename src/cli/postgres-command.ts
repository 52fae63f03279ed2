import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';

/** The `gemini-agent postgres --help` text. */
export const POSTGRES_HELP_TEXT = `Usage: gemini-agent postgres <command> [--url <connection string>] [--schema <name>]

Manage the PostgreSQL session store (gemini-agent-sdk/postgres; needs the pg package).

Commands:
  migrate    Create the store's tables, or bring them up to this SDK's schema version. Safe to run from several
             machines at once, and again and again (it does nothing when the schema is current).
  status     Print the schema version (and this SDK's), the number of sessions and of live leases.

Options:
  --url <connection string>   postgres://user:password@host:5432/database (default: $PG_URL, else $DATABASE_URL).
  --schema <name>             Schema holding the tables (default: gemini_agent).
  -h, --help                  Print this help.
`;

const OPTIONS = {
  url: { type: 'string' },
  schema: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `gemini-agent postgres migrate|status`: runs a PostgreSQL store maintenance command and prints the outcome. */
export async function postgresCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliUsageError(
      `${error instanceof Error ? error.message : String(error)}\nRun \`gemini-agent postgres --help\` for usage.`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(POSTGRES_HELP_TEXT);
    return ExitCode.Success;
  }
  const [command, ...extra] = positionals;
  if (command !== 'migrate' && command !== 'status') {
    throw new CliUsageError(
      `${command === undefined ? 'Missing' : `Unknown`} postgres command${command === undefined ? '' : ` "${command}"`}: ` +
        'use `gemini-agent postgres migrate` or `gemini-agent postgres status`.',
    );
  }
  if (extra.length > 0)
    throw new CliUsageError(`Unexpected argument "${extra[0]}" after ${command}.`);
  const env = io.env ?? {};
  const url = values.url ?? env['PG_URL'] ?? env['DATABASE_URL'];
  if (url === undefined || url === '') {
    throw new CliUsageError(
      'No database: pass --url postgres://user:password@host:5432/database, or set PG_URL or DATABASE_URL.',
    );
  }
  // The package's own subpath, as a user would load it (pg is an optional peer; loaded only for this command).
  const { PostgresSessionStore } = await import('gemini-agent-sdk/postgres');
  const store = new PostgresSessionStore({
    connectionString: url,
    maxConnections: 1,
    retry: { attempts: 3 },
    ...(values.schema !== undefined ? { schema: values.schema } : {}),
  });
  try {
    if (command === 'migrate') {
      const result = await store.migrate();
      if (result.applied.length === 0) {
        io.stdout(`Schema ${store.schema} is up to date (version ${result.to}).\n`);
      } else {
        const names = result.applied.map((m) => `${m.version} ${m.name}`).join('; ');
        io.stdout(
          `Schema ${store.schema}: migrated from version ${result.from} to ${result.to} (${names}).\n`,
        );
      }
      return ExitCode.Success;
    }
    const status = await store.status();
    const state =
      status.version === status.latest
        ? 'up to date'
        : status.version < status.latest
          ? 'migrations pending: run `gemini-agent postgres migrate`'
          : 'newer than this SDK: upgrade gemini-agent-sdk';
    io.stdout(
      `Schema ${status.schema}: version ${status.version} (this SDK: ${status.latest}, ${state}).\n` +
        `Sessions: ${status.sessions}. Live leases: ${status.liveLeases}.\n`,
    );
    return ExitCode.Success;
  } finally {
    await store.close();
  }
}
