import { DEFAULT_PRICES, callCost } from '../context/budget.js';

/** USD per million tokens: input, output (thinking included), cached input. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
}

/**
 * The key of the shipped price table (`DEFAULT_PRICES`, the one budgets count with) for a model id: the id itself,
 * else the longest key it starts with (`gemini-2.5-flash-001` → `gemini-2.5-flash`). A `gemini:` prefix and a
 * `models/` path are ignored.
 */
function priceKey(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  const id = model.replace(/^gemini:/, '').replace(/^models\//, '');
  if (DEFAULT_PRICES[id] !== undefined) return id;
  let best: string | undefined;
  for (const key of Object.keys(DEFAULT_PRICES))
    if (id.startsWith(key) && key.length > (best?.length ?? 0)) best = key;
  return best;
}

/** The price of a model id, or undefined when unknown. The viewer's costs are estimates: the bill is Google's. */
export function priceOf(model: string | undefined): ModelPrice | undefined {
  const key = priceKey(model);
  const price = key === undefined ? undefined : DEFAULT_PRICES[key];
  if (price === undefined) return undefined;
  return {
    input: price.inputPerMillion,
    output: price.outputPerMillion,
    cached: price.cachedInputPerMillion ?? price.inputPerMillion,
  };
}

/** Estimated USD of one model call (the budgets' `callCost`), or undefined when the model's price is unknown. */
export function estimateCost(
  model: string | undefined,
  tokens: { input: number; output: number; cached: number; thoughts?: number | undefined },
): number | undefined {
  const key = priceKey(model);
  const price = key === undefined ? undefined : DEFAULT_PRICES[key];
  if (price === undefined) return undefined;
  return callCost(
    {
      promptTokenCount: tokens.input,
      cachedContentTokenCount: tokens.cached,
      candidatesTokenCount: tokens.output,
      thoughtsTokenCount: tokens.thoughts ?? 0,
    },
    price,
  );
}
