import { describeSessionStoreConformance } from '../testing/vitest/store-conformance.js';
import { usePostgres } from '../../test/helpers/postgres.js';
import type { PostgresSessionStore } from './postgres-session-store.js';

const pg = usePostgres();

describeSessionStoreConformance('postgres', () => pg.store(), {
  cleanup: (store) => pg.dispose(store as PostgresSessionStore),
});
