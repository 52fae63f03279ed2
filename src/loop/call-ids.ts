/**
 * The last millisecond used per `<name>_<n>` in this process: two turns running at once (two subagents of one
 * parent turn, two sessions) must never make the same id, or a decision about one call would reach the other.
 */
const lastMsByNameAndIndex = new Map<string, number>();

/**
 * Makes gemini-cli call ids for one model turn: `<name>__<raw>`, where raw is the model's id or
 * `<name>_<ms>_<n>` (n counts calls of the turn from 0; ms is `Date.now()`, moved forward by the least needed so
 * that no two calls in the process get the same id). A raw id that already carries the prefix is kept as is.
 */
export class CallIdFactory {
  private counter = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The call id for a function call named `name` with the model's id `modelId` (if any). */
  next(name: string, modelId: string | undefined): string {
    const n = this.counter++;
    const raw =
      modelId !== undefined && modelId !== '' ? modelId : generatedId(name, n, this.now());
    const prefix = `${name}__`;
    return raw.startsWith(prefix) ? raw : `${prefix}${raw}`;
  }
}

function generatedId(name: string, n: number, now: number): string {
  const key = `${name}_${n}`;
  const last = lastMsByNameAndIndex.get(key);
  const ms = last !== undefined && last >= now ? last + 1 : now;
  if (lastMsByNameAndIndex.size >= 1024) {
    // An entry behind the clock constrains nothing: the clock alone makes a new id there.
    for (const [k, v] of lastMsByNameAndIndex) if (v < now) lastMsByNameAndIndex.delete(k);
  }
  lastMsByNameAndIndex.set(key, ms);
  return `${name}_${ms}_${n}`;
}

/** Removes the `<name>__` prefix, giving the id the API saw (gemini-cli strips it on the wire). */
export function stripCallIdPrefix(
  name: string | undefined,
  id: string | undefined,
): string | undefined {
  if (id === undefined || name === undefined) return id;
  const prefix = `${name}__`;
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}
