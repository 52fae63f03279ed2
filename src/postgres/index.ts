/**
 * `gemini-agent-sdk/postgres`: sessions in PostgreSQL for many workers — {@link PostgresSessionStore} (leases with
 * fencing tokens, paged reads, migrations). Needs the optional peer dependency `pg`.
 */
export { PostgresSessionStore } from './postgres-session-store.js';
export type {
  PostgresSessionStoreOptions,
  PostgresListOptions,
  PostgresStoreStatus,
} from './store-options.js';
export type { PostgresLease } from './postgres-lease.js';
export type { SessionPage } from './session-reads.js';
export type { LeaseHolder } from './store-admin.js';
export type { MigrationResult } from './migrations.js';
export { LATEST_SCHEMA_VERSION } from './migrations.js';
export type { PostgresPool, PostgresClient, PostgresQueryResult } from './pg-pool.js';
export type { PostgresRetryOptions } from './pg-retry.js';
export { PostgresSessionQueue } from './session-queue.js';
export type { SessionInput, QueuedDecision, WaitingCall } from './session-queue.js';
export {
  PostgresSessionWorker,
  DEFAULT_RECOVERY_PROMPT,
  DELIVERED_INPUTS_KEY,
} from './session-worker.js';
export type { PostgresSessionWorkerOptions, WorkerEvent } from './session-worker.js';
export { WorkerSessionStore } from './worker-store.js';
