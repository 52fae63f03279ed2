/**
 * JSON.stringify that never throws: repeated object references become `"[Circular]"` (as gemini-cli's
 * `safeJsonStringify`), AbortSignals and functions are dropped, bigints become strings.
 */
export function safeJsonStringify(value: unknown, space?: number): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function') return undefined;
      if (typeof v === 'object' && v !== null) {
        if (typeof AbortSignal !== 'undefined' && v instanceof AbortSignal) return undefined;
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    },
    space,
  );
}
