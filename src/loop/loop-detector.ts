/** How many identical consecutive calls count as a loop (gemini-cli's threshold). */
export const TOOL_CALL_LOOP_THRESHOLD = 5;

/**
 * Detects a model stuck calling the same tool with the same arguments: the same name + args
 * {@link TOOL_CALL_LOOP_THRESHOLD} times in a row. Argument key order does not matter.
 */
export class ToolCallLoopDetector {
  private lastKey: string | undefined;
  private repeats = 0;

  constructor(private readonly threshold = TOOL_CALL_LOOP_THRESHOLD) {}

  /** Records one call; true when it completes a loop. */
  record(name: string, args: Record<string, unknown>): boolean {
    const key = `${name}:${stableStringify(args)}`;
    if (key === this.lastKey) this.repeats++;
    else {
      this.lastKey = key;
      this.repeats = 1;
    }
    return this.repeats >= this.threshold;
  }

  /** Forgets the calls seen so far. */
  reset(): void {
    this.lastKey = undefined;
    this.repeats = 0;
  }
}

function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
