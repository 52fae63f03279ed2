/**
 * Renders a tool action's return value as the text the model receives: strings as they are, anything else
 * as `JSON.stringify(value, null, 2)` (as the reference SDK does). `undefined` becomes an empty string; values
 * JSON cannot encode (circular objects, bigints) fall back to a safe rendering instead of throwing.
 */
export function renderToolOutput(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    const json = JSON.stringify(value, null, 2) as string | undefined;
    if (json !== undefined) return json;
  } catch {
    // fall through to the safe rendering
  }
  const seen = new WeakSet<object>();
  const safe = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    },
    2,
  ) as string | undefined;
  return safe ?? String(value);
}
