import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { StoreReadOptions } from '../sessions/session-store.js';
import type { PostgresPool } from './pg-pool.js';
import type { PostgresRetryOptions } from './pg-retry.js';

/** Options of {@link PostgresSessionStore}: a `connectionString` or a `pool`, and tuning. */
export interface PostgresSessionStoreOptions {
  /** `postgres://user:pass@host:5432/db`. The store then owns a pool of `maxConnections` and closes it. */
  connectionString?: string;
  /** A `pg.Pool` (or compatible) the application owns; `close()` leaves it open. */
  pool?: PostgresPool;
  /** Size of the pool made from `connectionString`. Default 10. */
  maxConnections?: number;
  /** Schema holding the tables. Default `gemini_agent`. */
  schema?: string;
  /** The project new sessions belong to (`projectHash`) and `list()` shows. Default `process.cwd()`. */
  projectRoot?: string;
  /**
   * `auto` (default): bring the schema up to date on first use. `verify`: only check it, failing with a message to
   * run `gemini-agent postgres migrate` (for deployments where workers must not change the schema).
   */
  migrate?: 'auto' | 'verify';
  /** Lease timing: a lease not renewed for `ttlMs` (default 30 000) may be taken over; renewed every `heartbeatMs`. */
  lease?: { ttlMs?: number; heartbeatMs?: number };
  /** Retries of transient errors (lost connections, server restarts). `false`: none. */
  retry?: PostgresRetryOptions | false;
  /** Messages per query when reading a session. Default 1 000. */
  pageSize?: number;
  /** Names this process in lease rows and `SessionLockedError` messages. Default `pid <pid> on <host>`. */
  holderName?: string;
  /** Logger (retries, takeovers, lost leases). */
  logger?: Logger;
}

/** The zod schema {@link PostgresSessionStore} checks its options with. */
export const PostgresSessionStoreOptionsSchema = z
  .object({
    connectionString: z.string().min(1).optional(),
    pool: z
      .custom<PostgresPool>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as PostgresPool).query === 'function' &&
          typeof (v as PostgresPool).connect === 'function',
        { message: 'expected a pg.Pool' },
      )
      .optional(),
    maxConnections: z.number().int().min(1).max(1000).optional(),
    schema: z.string().optional(),
    projectRoot: z.string().optional(),
    migrate: z.enum(['auto', 'verify']).optional(),
    lease: z
      .object({
        ttlMs: z.number().int().min(100).optional(),
        heartbeatMs: z.number().int().min(10).optional(),
      })
      .optional(),
    retry: z
      .union([
        z.literal(false),
        z.object({
          attempts: z.number().int().min(1).max(100).optional(),
          baseDelayMs: z.number().min(0).optional(),
          maxDelayMs: z.number().min(0).optional(),
        }),
      ])
      .optional(),
    pageSize: z.number().int().min(1).max(100_000).optional(),
    holderName: z.string().min(1).max(200).optional(),
    logger: z.custom<Logger>((v) => typeof v === 'object' && v !== null).optional(),
  })
  .refine((o) => (o.connectionString === undefined) !== (o.pool === undefined), {
    message: 'pass exactly one of connectionString and pool',
  });

/** What {@link PostgresSessionStore.status} reports. */
export interface PostgresStoreStatus {
  /** The schema name. */
  schema: string;
  /** The schema's version; 0 when it has none of the store's tables yet. */
  version: number;
  /** The version this SDK writes (`migrate()` brings the schema to it). */
  latest: number;
  /** Sessions stored. */
  sessions: number;
  /** Leases currently held (not expired). */
  liveLeases: number;
}

/** Options of {@link PostgresSessionStore.listPage}. */
export interface PostgresListOptions extends StoreReadOptions {
  /** Sessions per page. Default 100. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** List this project's sessions instead of the store's `projectRoot`. */
  projectRoot?: string;
  /** List every project's sessions. */
  allProjects?: boolean;
  /** Only sessions whose paused turn waits for approval decisions (an approvals inbox). */
  waitingForApproval?: boolean;
}
