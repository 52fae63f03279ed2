import { ConfigurationError } from '../errors.js';

/** A schema name the store accepts: an unquoted PostgreSQL identifier, lower case. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The default schema holding the store's tables. */
export const DEFAULT_SCHEMA = 'gemini_agent';

/** Fully qualified, quoted table names of one schema. */
export interface TableNames {
  /** The quoted schema. */
  schema: string;
  /** Schema version rows (one per applied migration). */
  migrations: string;
  /** One row per session: merged metadata and the columns `list()` needs. */
  sessions: string;
  /** One row per live message, in `seq` order. */
  messages: string;
  /** One row per held write lease. */
  leases: string;
  /** The sequence the fencing tokens come from. */
  leaseTokens: string;
  /** The work queue's inputs (prompts and approval decisions waiting for a worker). */
  inputs: string;
}

/**
 * Checks a schema name and returns the quoted table names in it.
 *
 * @throws ConfigurationError for a name that is not a plain lower-case identifier.
 */
export function tableNames(schema: string): TableNames {
  if (!SCHEMA_NAME.test(schema)) {
    throw new ConfigurationError(
      `Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _ ` +
        '(at most 63 characters, not starting with a digit), e.g. "gemini_agent".',
    );
  }
  const q = `"${schema}"`;
  return {
    schema: q,
    migrations: `${q}.schema_migrations`,
    sessions: `${q}.sessions`,
    messages: `${q}.messages`,
    leases: `${q}.leases`,
    leaseTokens: `${q}.lease_tokens`,
    inputs: `${q}.inputs`,
  };
}
