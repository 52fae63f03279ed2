import { setMaxListeners } from 'node:events';
import { AbortError } from '../errors.js';

/**
 * Settles like `promise`, but rejects with {@link AbortError} as soon as `signal` aborts, even when the work
 * behind `promise` ignores the signal. A later rejection of `promise` is swallowed (nobody awaits it any more).
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => undefined);
      reject(abortReason(signal));
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

function abortReason(signal: AbortSignal): AbortError {
  const reason: unknown = signal.reason;
  return reason instanceof AbortError
    ? reason
    : new AbortError('The operation was aborted.', { cause: reason });
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
