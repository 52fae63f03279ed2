import type { Logger } from '../logger.js';
import { abortableSleep, throwIfAborted } from '../core/abort.js';

/** How the store retries operations that failed on a transient database error. */
export interface PostgresRetryOptions {
  /** Attempts in total, the first one included. Default 6. */
  attempts?: number;
  /** Delay before the first retry; doubled each time (with jitter). Default 50 ms. */
  baseDelayMs?: number;
  /** Longest delay between two attempts. Default 2 000 ms. */
  maxDelayMs?: number;
}

/** Resolved retry settings. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The policy for `retry` options (`false` means a single attempt). */
export function retryPolicy(options: PostgresRetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
  return {
    attempts: options?.attempts ?? 6,
    baseDelayMs: options?.baseDelayMs ?? 50,
    maxDelayMs: options?.maxDelayMs ?? 2_000,
  };
}

/** SQLSTATEs worth another attempt: the server is going away, overloaded, or the transaction lost a race. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '53300', // too_many_connections
  '57P01', // admin_shutdown (e.g. pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
]);

const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * True when `err` is a connection failure or a transient server condition, i.e. the same operation may succeed
 * on a fresh connection. A statement that failed on a broken connection may still have committed: callers that
 * retry writes check for that first (see `withRetry`'s `previous`).
 */
export function isTransientPgError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08')) return true;
    if (TRANSIENT_NODE_CODES.has(code)) return true;
  }
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|connection error|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    message,
  );
}

/**
 * Runs `attempt` until it succeeds, fails on a non-transient error, or the attempts are used up. `attempt` gets
 * the attempt number (0-based) so that a retry can first check whether an ambiguous failure took effect.
 */
export async function withRetry<T>(
  what: string,
  policy: RetryPolicy,
  logger: Logger,
  attempt: (n: number, previous: unknown) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  let previous: unknown;
  for (let n = 0; ; n++) {
    throwIfAborted(signal);
    try {
      return await attempt(n, previous);
    } catch (err) {
      if (!isTransientPgError(err) || n + 1 >= policy.attempts) throw err;
      previous = err;
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
      const jittered = Math.round(delay / 2 + Math.random() * (delay / 2));
      logger.warn('postgres: transient error, retrying', {
        operation: what,
        attempt: n + 1,
        delayMs: jittered,
        error: err instanceof Error ? err.message : String(err),
      });
      await abortableSleep(jittered, signal);
    }
  }
}
