import { AbortError } from '../errors.js';

/** Throws the SDK's {@link AbortError} (with the signal's reason as `cause`) if `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortErrorFrom(signal);
}

/** Builds the SDK's {@link AbortError} for an aborted signal; an AbortError reason is returned as is. */
export function abortErrorFrom(signal: AbortSignal): AbortError {
  const reason: unknown = signal.reason;
  if (reason instanceof AbortError) return reason;
  return new AbortError('The operation was aborted.', { cause: reason });
}

/**
 * Waits `ms` milliseconds. Rejects with {@link AbortError} at once when `signal` aborts (before or during the
 * wait), and clears its timer so nothing keeps the process alive.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortErrorFrom(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortErrorFrom(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
