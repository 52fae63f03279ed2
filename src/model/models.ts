import { ConfigurationError } from '../errors.js';

/**
 * The default model: `gemini-2.5-pro`, Google's current stable (GA) Pro model and what gemini-cli resolves
 * `auto` to without preview access. Preview models (`gemini-3.1-pro-preview`…) are used only when asked for by
 * name.
 */
export const DEFAULT_MODEL = 'gemini-2.5-pro';

/**
 * Model names accepted as aliases of {@link DEFAULT_MODEL}. gemini-cli routes these through a classifier
 * (one extra `generateContent` call per session); we never do — they simply mean the default model.
 */
export const AUTO_MODEL_ALIASES: readonly string[] = ['auto', 'auto-gemini-3', 'auto-gemini-2.5'];

/**
 * Resolves the model to send: `undefined`, `''` and the `auto*` aliases become {@link DEFAULT_MODEL}; any
 * other name is returned exactly as given (gemini-cli silently rewrites `*flash` names; we never do).
 */
export function resolveModel(name: string | undefined): string {
  if (name === undefined || name.trim() === '') return DEFAULT_MODEL;
  return AUTO_MODEL_ALIASES.includes(name) ? DEFAULT_MODEL : name;
}

/**
 * {@link resolveModel} for a model id given at run time (e.g. `session.setModel`): it must be a non-empty string.
 *
 * @throws ConfigurationError naming `what` for anything else.
 */
export function resolveModelId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigurationError(
      `${what} needs a non-empty model id, e.g. "gemini-2.5-flash" (got ${JSON.stringify(value) ?? String(value)}).`,
    );
  }
  return resolveModel(value);
}
