import { ConfigurationError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  createFilePersistence,
  createMemoryPersistence,
  createStorePersistence,
  type StoreSessionPersistence,
} from '../sessions/session-persistence.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { GeminiCliAgentOptions } from './agent-options.js';

const STORE_METHODS = ['acquireLease', 'create', 'append', 'load', 'list', 'delete'] as const;

function isSessionStore(value: unknown): value is SessionStore {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return STORE_METHODS.every((name) => typeof candidate[name] === 'function');
}

/**
 * Where an agent's sessions live, from its `sessionStore` and `persist` options: the given store; memory for
 * `persist: false`; else gemini-cli's JSONL files (one folder per project, from each session's `cwd`).
 *
 * @throws ConfigurationError for a `sessionStore` that is not a store, a non-boolean `persist`, or both
 *   `persist: false` and a `sessionStore`.
 */
export function createAgentPersistence(
  options: Pick<GeminiCliAgentOptions, 'sessionStore' | 'persist'>,
  logger: Logger,
): StoreSessionPersistence {
  const { sessionStore, persist } = options;
  if (persist !== undefined && typeof persist !== 'boolean') {
    throw new ConfigurationError(
      `The persist option must be true or false (got ${JSON.stringify(persist) ?? String(persist)}).`,
    );
  }
  if (sessionStore !== undefined) {
    if (!isSessionStore(sessionStore)) {
      throw new ConfigurationError(
        `The sessionStore option must be a SessionStore (${STORE_METHODS.join(', ')}), e.g. new ` +
          'MemorySessionStore() or new FileSessionStore({ projectRoot }).',
      );
    }
    if (persist === false) {
      throw new ConfigurationError(
        'persist: false keeps sessions in memory, but a sessionStore was given too: pass one of them.',
      );
    }
    return createStorePersistence({ store: sessionStore });
  }
  return persist === false ? createMemoryPersistence() : createFilePersistence({ logger });
}

/** Validates the `approvalTtlMs` option. */
export function validateApprovalTtl(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new ConfigurationError(
    `approvalTtlMs must be a positive number of milliseconds (got ${String(value)}).`,
  );
}
