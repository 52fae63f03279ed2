import type PgModule from 'pg';
import { ConfigurationError } from '../errors.js';

/** The rows of a query result (the part of `pg`'s `QueryResult` the store reads). */
export interface PostgresQueryResult {
  rows: Array<Record<string, unknown>>;
  rowCount: number | null;
}

/** One connection checked out of a pool (structurally `pg`'s `PoolClient`). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Returns the connection; pass an error to destroy it instead (after a connection failure). */
  release(err?: Error | boolean): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Checks a connection out for a sequence of statements. While it is checked out, a connection the server drops
 * between two statements emits `error` on the client (which would crash the process without a listener): it is
 * recorded, and the connection is destroyed instead of returned to the pool when `fn` ends.
 */
export async function withClient<T>(
  pool: PostgresPool,
  fn: (client: PostgresClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    if (isConnectionFailure(err)) broken ??= err as Error;
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken ?? false);
  }
}

/** True for errors after which a connection must not be reused. */
export function isConnectionFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P'))) return true;
  return /ECONNRESET|EPIPE|Connection terminated|connection error/i.test(
    `${code ?? ''} ${err.message}`,
  );
}

/**
 * The connection pool the store uses: structurally `pg.Pool` (`new pg.Pool({ connectionString, max })`), so a pool
 * the application already has can be passed as is.
 */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Creates a `pg.Pool`, loading the optional peer dependency `pg` on first use.
 *
 * @throws ConfigurationError when `pg` is not installed.
 */
export async function createPgPool(connectionString: string, max: number): Promise<PostgresPool> {
  let pg: typeof PgModule;
  try {
    pg = (await import('pg')).default;
  } catch (err) {
    throw new ConfigurationError(
      'The PostgreSQL session store needs the "pg" package: npm install pg (it is an optional peer ' +
        'dependency of gemini-agent-sdk).',
      { cause: err },
    );
  }
  return new pg.Pool({ connectionString, max }) as unknown as PostgresPool;
}
