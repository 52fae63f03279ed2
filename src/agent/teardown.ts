import { SessionError } from '../errors.js';

/**
 * Runs teardown steps in reverse order (the last set up is undone first), every one of them even when some fail.
 *
 * @throws SessionError `FEATURE_DISPOSE_FAILED` naming the failures (the error, or an AggregateError, as cause).
 */
export async function runTeardowns(
  steps: ReadonlyArray<() => void | Promise<void>>,
  owner: string,
): Promise<void> {
  const errors: unknown[] = [];
  for (const step of [...steps].reverse()) {
    try {
      await step();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 0) return;
  const messages = errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
  throw new SessionError(`${owner}: ${errors.length} teardown step(s) failed: ${messages}`, {
    code: 'FEATURE_DISPOSE_FAILED',
    cause: errors.length === 1 ? errors[0] : new AggregateError(errors, messages),
  });
}
