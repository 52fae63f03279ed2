import type { GenerateContentResponseUsageMetadata } from '@google/genai';

/** Token usage summed over model calls. */
export interface TokenUsage {
  /** Number of model calls counted. */
  modelCalls: number;
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount: number;
  cachedContentTokenCount: number;
  toolUsePromptTokenCount: number;
  totalTokenCount: number;
  /**
   * The part of these totals spent by subagents, by subagent name (present once a subagent made a model call).
   * The totals above include it.
   */
  subagents?: Record<string, TokenUsage>;
}

const COUNTERS = [
  'modelCalls',
  'promptTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'cachedContentTokenCount',
  'toolUsePromptTokenCount',
  'totalTokenCount',
] as const;

/** A zeroed {@link TokenUsage}. */
export function emptyUsage(): TokenUsage {
  return {
    modelCalls: 0,
    promptTokenCount: 0,
    candidatesTokenCount: 0,
    thoughtsTokenCount: 0,
    cachedContentTokenCount: 0,
    toolUsePromptTokenCount: 0,
    totalTokenCount: 0,
  };
}

/** The usage accumulated between two snapshots of a running total (`after - before`, field by field). */
export function subtractUsage(after: TokenUsage, before: TokenUsage): TokenUsage {
  const out = emptyUsage();
  for (const key of COUNTERS) out[key] = after[key] - before[key];
  if (after.subagents !== undefined) {
    const subagents: Record<string, TokenUsage> = {};
    for (const [name, usage] of Object.entries(after.subagents)) {
      const delta = subtractUsage(usage, before.subagents?.[name] ?? emptyUsage());
      if (delta.modelCalls > 0) subagents[name] = delta;
    }
    if (Object.keys(subagents).length > 0) out.subagents = subagents;
  }
  return out;
}

/** A deep copy of a usage total (its `subagents` included). */
export function copyUsage(usage: TokenUsage): TokenUsage {
  return structuredClone(usage);
}

/** Adds one model call's usage metadata (the last one the call reported) to `total`, in place. */
export function addUsage(
  total: TokenUsage,
  usage: GenerateContentResponseUsageMetadata | undefined,
): TokenUsage {
  total.modelCalls++;
  if (!usage) return total;
  total.promptTokenCount += usage.promptTokenCount ?? 0;
  total.candidatesTokenCount += usage.candidatesTokenCount ?? 0;
  total.thoughtsTokenCount += usage.thoughtsTokenCount ?? 0;
  total.cachedContentTokenCount += usage.cachedContentTokenCount ?? 0;
  total.toolUsePromptTokenCount += usage.toolUsePromptTokenCount ?? 0;
  total.totalTokenCount += usage.totalTokenCount ?? 0;
  return total;
}

/** Where a session's history stands against the model's context window (`session.contextWindow`). */
export interface ContextWindowUsage {
  /** The model the figures are for. */
  model: string;
  /** The model's context window in tokens. */
  tokenLimit: number;
  /** The last model call's `promptTokenCount` for this history (undefined before one, or after compression). */
  lastPromptTokenCount: number | undefined;
  /** The tokens the history takes now: the last count plus the local estimate of what was added since. */
  estimatedTokens: number;
  /** The fraction of `tokenLimit` at which the history is compressed automatically; undefined when never. */
  compressionThreshold: number | undefined;
}
