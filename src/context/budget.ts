import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import type { BudgetExceededInfo } from '../events.js';

/**
 * Limits on what one session may spend, over its whole life (across `sendStream`s, resumes and processes). Each is
 * optional; none set means no limit. A limit that the next model call would cross pauses the turn (see
 * docs/context.md).
 */
export interface Budget {
  /** Prompt tokens summed over every model call (`promptTokenCount`). */
  maxInputTokens?: number;
  /** Response tokens summed over every model call (`candidatesTokenCount` + `thoughtsTokenCount`). */
  maxOutputTokens?: number;
  /** Input and output tokens together. */
  maxTotalTokens?: number;
  /** US dollars, from the price table (`prices` option over {@link DEFAULT_PRICES}). */
  maxCostUsd?: number;
  /**
   * Limits on each subagent run, counted from the run's start (its usage still counts in the session's figures).
   * A run that would cross one — or the session's own limits — ends with `BUDGET_EXCEEDED`, which the parent model
   * is told (see docs/context.md).
   */
  perSubagent?: SubagentBudget;
}

/** The limits of one subagent run (`budget.perSubagent`). */
export type SubagentBudget = Omit<Budget, 'perSubagent'>;

/** A model's price in US dollars per million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Cached input tokens (default: the input price). */
  cachedInputPerMillion?: number;
}

/** What a session has spent so far. */
export interface BudgetSpent {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  modelCalls: number;
}

/** The date of {@link DEFAULT_PRICES} (Google's published list prices, standard tier, prompts up to 200k tokens). */
export const PRICES_DATE = '2026-12-01';

/**
 * Shipped prices (USD per million tokens) of the Gemini models, as of {@link PRICES_DATE}; override or add with the
 * `prices` option. A model missing here (and from `prices`) cannot be held to a `maxCostUsd` budget: the run fails
 * with a `ConfigurationError` naming it.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'gemini-3.1-pro-preview': {
    inputPerMillion: 2,
    outputPerMillion: 12,
    cachedInputPerMillion: 0.2,
  },
  'gemini-3-pro-preview': { inputPerMillion: 2, outputPerMillion: 12, cachedInputPerMillion: 0.2 },
  'gemini-3.5-flash': { inputPerMillion: 0.5, outputPerMillion: 3, cachedInputPerMillion: 0.05 },
  'gemini-3-flash-preview': {
    inputPerMillion: 0.5,
    outputPerMillion: 3,
    cachedInputPerMillion: 0.05,
  },
  'gemini-3.1-flash-lite-preview': {
    inputPerMillion: 0.1,
    outputPerMillion: 0.4,
    cachedInputPerMillion: 0.025,
  },
  'gemini-2.5-pro': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.31 },
  'gemini-2.5-flash': { inputPerMillion: 0.3, outputPerMillion: 2.5, cachedInputPerMillion: 0.075 },
  'gemini-2.5-flash-lite': {
    inputPerMillion: 0.1,
    outputPerMillion: 0.4,
    cachedInputPerMillion: 0.025,
  },
  'gemini-2.0-flash': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
  'gemini-2.0-flash-lite': { inputPerMillion: 0.075, outputPerMillion: 0.3 },
});

const limit = z.number().gt(0).refine(Number.isFinite);

const LIMITS = {
  maxInputTokens: limit.optional(),
  maxOutputTokens: limit.optional(),
  maxTotalTokens: limit.optional(),
  maxCostUsd: limit.optional(),
};

/** The `budget` option's schema. */
export const BudgetSchema = z
  .object({ ...LIMITS, perSubagent: z.object(LIMITS).strict().optional() })
  .strict();

/** The `prices` option's schema. */
export const PricesSchema = z.record(
  z.string(),
  z
    .object({
      inputPerMillion: z.number().min(0),
      outputPerMillion: z.number().min(0),
      cachedInputPerMillion: z.number().min(0).optional(),
    })
    .strict(),
);

const SpentSchema = z.object({
  inputTokens: z.number().min(0),
  outputTokens: z.number().min(0),
  costUsd: z.number().min(0),
  modelCalls: z.number().min(0),
});

/** A budget as stored with a session (`{"$set":{"budget":…}}`). */
const StoredBudget = z.object({
  version: z.literal(1),
  limits: BudgetSchema,
  spent: SpentSchema,
  paused: z.looseObject({ reason: z.string() }).nullable().optional(),
});

/** A session's stored budget state. */
export type BudgetState = z.infer<typeof StoredBudget>;

const KEYS = ['maxInputTokens', 'maxOutputTokens', 'maxTotalTokens', 'maxCostUsd'] as const;

function raise<T extends SubagentBudget>(limits: T, more: SubagentBudget): T {
  for (const key of KEYS) {
    const add = more[key];
    if (add !== undefined) limits[key] = (limits[key] ?? 0) + add;
  }
  return limits;
}

/** The cost of one call's usage with `price`. */
export function callCost(usage: GenerateContentResponseUsageMetadata, price: ModelPrice): number {
  const cached = usage.cachedContentTokenCount ?? 0;
  const input = Math.max(0, (usage.promptTokenCount ?? 0) - cached);
  const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  return (
    (input * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      output * price.outputPerMillion) /
    1_000_000
  );
}

/**
 * One session's budget: its limits, what it spent (every model call, summaries included) and whether a turn is
 * paused on it. Serialises to {@link BudgetState}, stored with the session, so a resume in another process counts on
 * from where this one stopped.
 */
export class BudgetTracker {
  limits: Budget;
  spent: BudgetSpent;
  paused: BudgetExceededInfo | undefined;

  constructor(
    limits: Budget,
    private readonly prices: Readonly<Record<string, ModelPrice>>,
    stored?: unknown,
  ) {
    const parsed = stored === undefined ? undefined : StoredBudget.safeParse(stored);
    const state = parsed?.success ? parsed.data : undefined;
    this.limits = { ...(state?.limits ?? {}), ...limits };
    this.spent = state?.spent ?? { inputTokens: 0, outputTokens: 0, costUsd: 0, modelCalls: 0 };
    this.paused = (state?.paused ?? undefined) as BudgetExceededInfo | undefined;
  }

  /** True when any limit is set. */
  get active(): boolean {
    return KEYS.some((k) => this.limits[k] !== undefined);
  }

  private price(model: string): ModelPrice | undefined {
    return this.prices[model] ?? DEFAULT_PRICES[model];
  }

  /** Adds one model call's usage (and its cost, when the model has a price). */
  record(model: string, usage: GenerateContentResponseUsageMetadata | undefined): void {
    this.spent.modelCalls++;
    if (usage === undefined) return;
    this.spent.inputTokens += usage.promptTokenCount ?? 0;
    this.spent.outputTokens += (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
    const price = this.price(model);
    if (price !== undefined) this.spent.costUsd += callCost(usage, price);
  }

  /**
   * Whether the next model call, whose prompt is about `inputTokens`, would cross a limit: the figures when it
   * would (the turn pauses), undefined when it fits.
   *
   * @throws ConfigurationError with `maxCostUsd` set for a model without a price.
   */
  check(model: string, inputTokens: number): BudgetExceededInfo | undefined {
    if (!this.active) return undefined;
    const { limits, spent } = this;
    const price = this.price(model);
    if (limits.maxCostUsd !== undefined && price === undefined) {
      throw new ConfigurationError(
        `No price for model "${model}", so the maxCostUsd budget cannot be kept: add it with the prices option, e.g. prices: { "${model}": { inputPerMillion: 1, outputPerMillion: 4 } }.`,
      );
    }
    const nextCost = price === undefined ? 0 : (inputTokens * price.inputPerMillion) / 1_000_000;
    const checks: Array<[BudgetExceededInfo['reason'], number | undefined, number]> = [
      ['input_tokens', limits.maxInputTokens, spent.inputTokens + inputTokens],
      ['output_tokens', limits.maxOutputTokens, spent.outputTokens],
      ['total_tokens', limits.maxTotalTokens, spent.inputTokens + spent.outputTokens + inputTokens],
      ['cost', limits.maxCostUsd, spent.costUsd + nextCost],
    ];
    for (const [reason, max, wouldBe] of checks) {
      if (max !== undefined && (reason === 'output_tokens' ? wouldBe >= max : wouldBe > max)) {
        return {
          reason,
          limit: max,
          wouldSpend: wouldBe,
          nextInputTokens: inputTokens,
          spent: { ...spent },
          budget: Object.fromEntries(
            KEYS.flatMap((k) => (limits[k] === undefined ? [] : [[k, limits[k]]])),
          ),
          model,
        };
      }
    }
    return undefined;
  }

  /** Raises the limits by the given amounts (a limit not set before is set to the amount), `perSubagent`'s too. */
  extend(more: Budget): void {
    raise(this.limits, more);
    if (more.perSubagent !== undefined) {
      this.limits.perSubagent = raise({ ...this.limits.perSubagent }, more.perSubagent);
    }
  }

  /**
   * A tracker for one subagent run: `perSubagent`'s limits, nothing spent yet; undefined when `perSubagent` sets
   * no limit.
   */
  forSubagent(): BudgetTracker | undefined {
    const run = new BudgetTracker({ ...this.limits.perSubagent }, this.prices);
    return run.active ? run : undefined;
  }

  /** The state to store with the session. */
  toState(): BudgetState {
    return {
      version: 1,
      limits: { ...this.limits },
      spent: { ...this.spent },
      paused: (this.paused as BudgetState['paused']) ?? null,
    };
  }
}

/**
 * Checks a `Budget` passed at run time (`extendBudget`).
 *
 * @throws ConfigurationError naming the bad field.
 */
export function validateBudget(value: unknown, what: string): Budget {
  const parsed = BudgetSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigurationError(
    `${what}: ${issue?.path.join('.') || 'value'}: expected a positive number (keys: ${KEYS.join(', ')}, and perSubagent with the same keys).`,
  );
}
