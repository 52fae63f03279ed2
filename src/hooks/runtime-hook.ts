import type { SessionContext } from '../core/session-context.js';
import { DEFAULT_HOOK_TIMEOUT_MS, type HookRunResult } from './command-hook.js';
import type { HookInput } from './hook-types.js';

/** An in-process hook's function, untyped (the typed form is `hook()`'s handler). */
export type RuntimeHookAction = (input: HookInput, ctx: SessionContext) => unknown;

const CANCELLED = 'The hook was cancelled (the turn was aborted).';

class HookTimeout extends Error {}

/**
 * A hook run's {@link SessionContext}: the session's fields, `transcript` read through (copied only when read) and
 * the run's own `signal`, which aborts on the hook's timeout, on a throw and when the turn's signal aborts. The
 * signal is made on first read (most hooks never read it), already aborted when one of those happened before.
 * One object per run; the accessors live on the prototype and the run's state in private fields (writable though
 * the context is frozen).
 */
class HookContext implements SessionContext {
  readonly sessionId: string;
  readonly cwd: string;
  readonly timestamp: string;
  readonly fs: SessionContext['fs'];
  readonly shell: SessionContext['shell'];
  readonly agent: SessionContext['agent'];
  readonly session: SessionContext['session'];
  readonly #base: SessionContext;
  #controller: AbortController | undefined = undefined;
  #reason: unknown = undefined;
  #done = false;

  constructor(base: SessionContext) {
    this.sessionId = base.sessionId;
    this.cwd = base.cwd;
    this.timestamp = base.timestamp;
    this.fs = base.fs;
    this.shell = base.shell;
    this.agent = base.agent;
    this.session = base.session;
    this.#base = base;
    Object.freeze(this);
  }

  get transcript(): SessionContext['transcript'] {
    return this.#base.transcript;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      const parent = this.#base.signal;
      if (this.#done) this.#controller.abort(this.#reason);
      else if (parent.aborted) this.#controller.abort(parent.reason);
    }
    return this.#controller.signal;
  }

  /** Aborts a run's signal (now, or when it is first read); static, so the handler's context has no such method. */
  static abort(run: HookContext, reason: unknown): void {
    if (run.#done) return;
    run.#done = true;
    run.#reason = reason;
    run.#controller?.abort(reason);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function failure(error: unknown, timeoutMs: number, started: number): HookRunResult {
  const message =
    error instanceof HookTimeout
      ? `Hook timed out after ${timeoutMs}ms`
      : error instanceof Error
        ? error.message
        : String(error);
  return { success: false, output: undefined, durationMs: Date.now() - started, error: message };
}

function success(value: unknown, started: number): HookRunResult {
  return {
    success: true,
    output: value === null || value === undefined ? undefined : value,
    durationMs: Date.now() - started,
  };
}

/**
 * Runs an in-process hook as gemini-cli runs a runtime hook: raced against its timeout (default 60 s) and the
 * turn's signal; a timeout, a cancel or a throw aborts the hook's signal and is a failure (fail open).
 * `null`/`undefined` means no output. A handler that answers synchronously is answered synchronously (no promise,
 * no timer, no abort listener); one that returns a promise gets the race.
 */
export function runRuntimeHook(
  action: RuntimeHookAction,
  input: HookInput,
  ctx: SessionContext,
  timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): HookRunResult | Promise<HookRunResult> {
  const started = Date.now();
  const parent = ctx.signal;
  const own = new HookContext(ctx);
  if (parent.aborted) {
    HookContext.abort(own, parent.reason);
    return failure(new Error(CANCELLED), timeoutMs, started);
  }
  let value: unknown;
  try {
    value = action(input, own);
  } catch (error) {
    HookContext.abort(own, error);
    return failure(error, timeoutMs, started);
  }
  if (!isThenable(value)) return success(value, started);
  return settle(value, own, parent, timeoutMs, started);
}

/** The race of a handler's promise against the hook's timeout and the turn's signal. */
async function settle(
  value: PromiseLike<unknown>,
  own: HookContext,
  parent: AbortSignal,
  timeoutMs: number,
  started: number,
): Promise<HookRunResult> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const settled = await new Promise<unknown>((resolve, reject) => {
      timer = setTimeout(() => reject(new HookTimeout()), timeoutMs);
      onAbort = () => {
        HookContext.abort(own, parent.reason);
        reject(new Error(CANCELLED));
      };
      parent.addEventListener('abort', onAbort, { once: true });
      value.then(resolve, reject);
    });
    return success(settled, started);
  } catch (error) {
    HookContext.abort(own, error);
    return failure(error, timeoutMs, started);
  } finally {
    clearTimeout(timer);
    if (onAbort) parent.removeEventListener('abort', onAbort);
  }
}
