import type { Logger } from '../logger.js';
import { withClient, type PostgresClient, type PostgresPool } from './pg-pool.js';
import type { RetryPolicy } from './pg-retry.js';
import type { TableNames } from './sql-names.js';

/** What the store's query modules share: the pool, the tables, timing and retries. */
export interface StoreContext {
  pool: PostgresPool;
  t: TableNames;
  /** The schema name, unquoted (for messages). */
  schema: string;
  /** Lease time to live, in seconds (a lease not renewed for this long can be taken over). */
  ttlSeconds: number;
  retry: RetryPolicy;
  logger: Logger;
}

/** Where the sessions of a schema live, as error messages name it. */
export function storeLocation(schema: string): string {
  return `postgres schema ${schema}`;
}

/**
 * Runs `fn` inside a transaction on one pooled connection (see {@link withClient}); rolls back on error.
 */
export async function inTransaction<T>(
  pool: PostgresPool,
  begin: string,
  fn: (client: PostgresClient) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query(begin);
    try {
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}
