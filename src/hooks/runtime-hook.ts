import type { SessionContext } from '../core/session-context.js';
import { DEFAULT_HOOK_TIMEOUT_MS, type HookRunResult } from './command-hook.js';
import type { HookInput } from './hook-types.js';

/** An in-process hook's function, untyped (the typed form is `hook()`'s handler). */
export type RuntimeHookAction = (input: HookInput, ctx: SessionContext) => unknown;

/** A context whose `signal` is the hook's own (it fires on the hook's timeout and when the turn aborts). */
export function withSignal(ctx: SessionContext, signal: AbortSignal): SessionContext {
  return Object.freeze(
    Object.create(ctx, { signal: { value: signal, enumerable: true } }) as SessionContext,
  );
}

class HookTimeout extends Error {}

/**
 * Runs an in-process hook as gemini-cli runs a runtime hook: raced against its timeout (default 60 s); a timeout
 * or a throw aborts the hook's signal and is a failure (fail open). `null`/`undefined` means no output.
 */
export async function runRuntimeHook(
  action: RuntimeHookAction,
  input: HookInput,
  ctx: SessionContext,
  timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
): Promise<HookRunResult> {
  const started = Date.now();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new HookTimeout()), timeoutMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (controller.signal.aborted)
        reject(new Error('The hook was cancelled (the turn was aborted).'));
      controller.signal.addEventListener(
        'abort',
        () => reject(new Error('The hook was cancelled (the turn was aborted).')),
        { once: true },
      );
    });
    const pending = Promise.resolve().then(() => action(input, withSignal(ctx, controller.signal)));
    // The losers of the race settle later: keep their rejections handled.
    for (const p of [pending, timeout, aborted]) p.catch(() => undefined);
    const value = await Promise.race([pending, timeout, aborted]);
    return {
      success: true,
      output: value === null || value === undefined ? undefined : value,
      durationMs: Date.now() - started,
    };
  } catch (error) {
    const message =
      error instanceof HookTimeout
        ? `Hook timed out after ${timeoutMs}ms`
        : error instanceof Error
          ? error.message
          : String(error);
    if (!controller.signal.aborted) controller.abort(error);
    return { success: false, output: undefined, durationMs: Date.now() - started, error: message };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
