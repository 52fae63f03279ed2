/** A running throwaway PostgreSQL (see pg-cluster.mjs). */
export interface TestPostgres {
  /** Connection string of a database the caller owns. */
  url: string;
  /** True when it is a database on the server named by `PG_URL` rather than a cluster started here. */
  external: boolean;
  /** Stops the cluster started here (or drops the database created on `PG_URL`). */
  stop(): Promise<void>;
}

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** Keep PostgreSQL's default durability (fsync, synchronous commit). Default false (tests). */
  durable?: boolean;
  /** `max_connections` of the cluster. Default 100. */
  maxConnections?: number;
}

/** Starts a cluster in a temp folder on a free loopback port, or creates a database on `PG_URL`. */
export function startPostgres(options?: StartPostgresOptions): Promise<TestPostgres>;
