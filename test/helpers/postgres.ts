import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestPostgres } from '../../scripts/pg-cluster.mjs';
import {
  PostgresSessionStore,
  type PostgresSessionStoreOptions,
} from '../../src/postgres/index.js';

/** A PostgreSQL for one test file and fresh schemas in it (each store gets its own, dropped afterwards). */
export interface PostgresFixture {
  /** Connection string of the file's database. */
  readonly url: string;
  /** An admin pool on it (for inspecting tables in tests). */
  readonly admin: pg.Pool;
  /** A store on a new, empty schema. */
  store(options?: Partial<PostgresSessionStoreOptions>): PostgresSessionStore;
  /** Closes a store made by {@link PostgresFixture.store} and drops its schema. */
  dispose(store: PostgresSessionStore): Promise<void>;
}

let counter = 0;

/**
 * Starts a cluster (or uses `PG_URL`) before the file's tests and stops it after them (see scripts/pg-cluster.mjs).
 */
export function usePostgres(): PostgresFixture {
  let server: TestPostgres | undefined;
  let admin: pg.Pool | undefined;
  const stores = new Set<PostgresSessionStore>();
  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Pool({
      connectionString: server.url,
      max: 2,
      application_name: 'gas-test-admin',
    });
    admin.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    for (const store of stores) await store.close();
    await admin?.end();
    await server?.stop();
  }, 60_000);
  const fixture: PostgresFixture = {
    get url() {
      if (server === undefined) throw new Error('usePostgres: the server is not started yet');
      return server.url;
    },
    get admin() {
      if (admin === undefined) throw new Error('usePostgres: the server is not started yet');
      return admin;
    },
    store(options = {}) {
      const store = new PostgresSessionStore({
        connectionString: fixture.url,
        schema: `t_${process.pid}_${++counter}`,
        maxConnections: 4,
        ...options,
      });
      stores.add(store);
      return store;
    },
    async dispose(store) {
      stores.delete(store);
      await store.close();
      await fixture.admin.query(`DROP SCHEMA IF EXISTS "${store.schema}" CASCADE`);
    },
  };
  return fixture;
}
