import { setMaxListeners } from 'node:events';
import { AbortError } from '../errors.js';

/**
 * The SDK's one set of abort helpers: every place that waits on work (model calls, retries, tools, approvals,
 * locks) uses these, so an abort always surfaces as the same {@link AbortError}.
 */

/** Builds the SDK's {@link AbortError} for an aborted signal; an AbortError reason is returned as is. */
export function abortErrorFrom(signal: AbortSignal): AbortError {
  const reason: unknown = signal.reason;
  if (reason instanceof AbortError) return reason;
  return new AbortError('The operation was aborted.', { cause: reason });
}

/** Throws the SDK's {@link AbortError} (with the signal's reason as `cause`) if `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortErrorFrom(signal);
}

/**
 * Settles like `promise`, but rejects with {@link AbortError} as soon as `signal` aborts, even when the work
 * behind `promise` ignores the signal. A later rejection of `promise` is swallowed (nobody awaits it any more).
 * Without a signal, `promise` is returned as is.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortErrorFrom(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(abortErrorFrom(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
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

/**
 * An AbortController that also aborts when any of `parents` does. `dispose()` detaches it from them.
 *
 * The new controller's signal has no listener limit: it is the one the loop and the tool scheduler own and fan
 * out to every tool running in parallel (one linked child and one race per tool, each removed when the tool
 * ends), so Node's default of 10 would print a false `MaxListenersExceededWarning` from 11 parallel tools on.
 */
export function linkedAbortController(...parents: Array<AbortSignal | undefined>): {
  controller: AbortController;
  dispose(): void;
} {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  const detach: Array<() => void> = [];
  for (const parent of parents) {
    if (!parent) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = (): void => controller.abort(parent.reason);
    parent.addEventListener('abort', onAbort, { once: true });
    detach.push(() => parent.removeEventListener('abort', onAbort));
  }
  return { controller, dispose: () => detach.forEach((d) => d()) };
}
