import { ConfigurationError } from '../errors.js';

/**
 * The default model when none is configured: `gemini-2.5-pro`, Google's stable (GA) Pro model and what gemini-cli
 * resolves `auto` to without preview access. (gemini-cli itself defaults to `auto`; see docs/decisions.md D16.)
 */
export const DEFAULT_MODEL = 'gemini-2.5-pro';

/**
 * gemini-cli 0.61's model aliases, resolved as it resolves them for Gemini API key, Vertex and gateway users
 * (recorded in test/fixtures/gemini-0.61/model-*.json). gemini-cli routes `auto*` through a classifier call
 * first; we never make that call and go straight to where its routing falls back to.
 */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  auto: 'gemini-3.1-pro-preview',
  pro: 'gemini-3.1-pro-preview',
  'auto-gemini-3': 'gemini-3.1-pro-preview',
  'gemini-3-pro-preview': 'gemini-3.1-pro-preview',
  'auto-gemini-2.5': 'gemini-2.5-pro',
  flash: 'gemini-3.8-flash',
  'flash-lite': 'gemini-3.5-flash-lite',
};

/**
 * Resolves the model to send: `undefined` and `''` become {@link DEFAULT_MODEL}, an alias of
 * {@link MODEL_ALIASES} its target; any other name is sent exactly as given (surrounding spaces trimmed).
 */
export function resolveModel(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '') return DEFAULT_MODEL;
  return Object.hasOwn(MODEL_ALIASES, trimmed) ? (MODEL_ALIASES[trimmed] as string) : trimmed;
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

/** Context window of a model in tokens: gemini-cli's `tokenLimit` (Gemma 4: 256,000; every Gemini model: 1M). */
export function tokenLimit(model: string): number {
  return GEMMA_4_MODELS.has(model) ? 256_000 : 1_048_576;
}

const GEMMA_4_MODELS = new Set(['gemma-4-31b-it', 'gemma-4-26b-a4b-it']);
