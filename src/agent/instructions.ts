import { ConfigurationError } from '../errors.js';
import type { SessionContext } from '../core/session-context.js';

/**
 * System instructions: a static string (sent verbatim), or a function called with a fresh
 * {@link SessionContext} before every model call (including each step of a tool loop).
 *
 * Security: a function's result goes straight into the system instruction. Sanitize anything taken from the
 * context (strip newlines and `]`, escape `<` and `>`) to avoid prompt injection.
 */
export type SystemInstructions = string | ((context: SessionContext) => string | Promise<string>);

/**
 * Checks the `instructions` option.
 *
 * @throws ConfigurationError `Instructions must be a string or a function.` for anything else (undefined is fine).
 */
export function validateInstructions(value: unknown): SystemInstructions | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'function') return value as SystemInstructions;
  throw new ConfigurationError('Instructions must be a string or a function.');
}

/**
 * The instructions text for one model call. A function's error propagates unchanged (it rejects the stream);
 * a function returning something other than a string is a configuration error.
 */
export async function renderInstructions(
  instructions: SystemInstructions | undefined,
  ctx: SessionContext,
): Promise<string | undefined> {
  if (instructions === undefined) return undefined;
  if (typeof instructions === 'string') return instructions;
  const value: unknown = await instructions(ctx);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw new ConfigurationError(
      `The instructions function returned ${typeof value}; it must return a string (or a Promise of one).`,
    );
  }
  return value;
}
