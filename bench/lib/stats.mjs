/** Summary statistics for repeated measurements. */

/** Median of a list of numbers (mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `{ median, min, max, n }` of a list of numbers. */
export function summarize(values) {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  };
}

/** Rounds to `digits` decimals (for the JSON and the tables). */
export function round(value, digits = 1) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Formats a summary as `median (min–max)` with a unit. */
export function fmt(summary, unit = '', digits = 1) {
  const u = unit ? ` ${unit}` : '';
  return `${round(summary.median, digits)}${u} (${round(summary.min, digits)}–${round(summary.max, digits)})`;
}

/** KiB → MiB. */
export const mib = (kib) => kib / 1024;
