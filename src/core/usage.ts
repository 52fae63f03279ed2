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
}

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
  for (const key of Object.keys(out) as Array<keyof TokenUsage>)
    out[key] = after[key] - before[key];
  return out;
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
