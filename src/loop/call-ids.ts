/**
 * Makes gemini-cli call ids for one model turn: `<name>__<raw>`, where raw is the model's id or
 * `<name>_<Date.now()>_<n>` (n counts calls of the turn from 0). A raw id that already carries the prefix is
 * kept as is.
 */
export class CallIdFactory {
  private counter = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The call id for a function call named `name` with the model's id `modelId` (if any). */
  next(name: string, modelId: string | undefined): string {
    const n = this.counter++;
    const raw = modelId !== undefined && modelId !== '' ? modelId : `${name}_${this.now()}_${n}`;
    const prefix = `${name}__`;
    return raw.startsWith(prefix) ? raw : `${prefix}${raw}`;
  }
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
