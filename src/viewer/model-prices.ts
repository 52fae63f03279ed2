/** USD per million tokens: input, output (thinking included), cached input. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
}

/**
 * Gemini API list prices (paid tier, prompts up to 200k tokens) by model id prefix, longest prefix first. The
 * viewer's costs are estimates from these: the bill is what Google says it is.
 */
export const MODEL_PRICES: ReadonlyArray<readonly [prefix: string, price: ModelPrice]> = [
  ['gemini-3-pro', { input: 2, output: 12, cached: 0.2 }],
  ['gemini-3-flash', { input: 0.5, output: 3, cached: 0.05 }],
  ['gemini-2.5-flash-lite', { input: 0.1, output: 0.4, cached: 0.01 }],
  ['gemini-2.5-flash', { input: 0.3, output: 2.5, cached: 0.03 }],
  ['gemini-2.5-pro', { input: 1.25, output: 10, cached: 0.125 }],
  ['gemini-2.0-flash-lite', { input: 0.075, output: 0.3, cached: 0.01875 }],
  ['gemini-2.0-flash', { input: 0.1, output: 0.4, cached: 0.025 }],
];

/** The price of a model id (a `gemini:` prefix and a `models/` path are ignored), or undefined when unknown. */
export function priceOf(model: string | undefined): ModelPrice | undefined {
  if (model === undefined) return undefined;
  const id = model.replace(/^gemini:/, '').replace(/^models\//, '');
  return MODEL_PRICES.find(([prefix]) => id.startsWith(prefix))?.[1];
}

/** Estimated USD of one model call, or undefined when the model's price is unknown. */
export function estimateCost(
  model: string | undefined,
  tokens: { input: number; output: number; cached: number; thoughts?: number | undefined },
): number | undefined {
  const price = priceOf(model);
  if (price === undefined) return undefined;
  const uncached = Math.max(0, tokens.input - tokens.cached);
  const output = tokens.output + (tokens.thoughts ?? 0);
  return (uncached * price.input + tokens.cached * price.cached + output * price.output) / 1e6;
}
