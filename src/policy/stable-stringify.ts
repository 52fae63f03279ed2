import { createHash } from 'node:crypto';

function isDropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function stringify(
  value: unknown,
  ancestors: Set<object>,
  topLevel: boolean,
  nul: boolean,
): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (typeof value !== 'object') {
    // JSON.stringify turns NaN / Infinity into null, as JSON does.
    return JSON.stringify(value) ?? 'null';
  }
  if (ancestors.has(value)) return '"[Circular]"';
  ancestors.add(value);
  try {
    const withToJson = value as { toJSON?: unknown };
    if (typeof withToJson.toJSON === 'function') {
      return stringify((withToJson.toJSON as () => unknown)(), ancestors, false, nul);
    }
    if (Array.isArray(value)) {
      const items = value.map((item: unknown) =>
        isDropped(item) ? 'null' : stringify(item, ancestors, false, nul),
      );
      return `[${items.join(',')}]`;
    }
    const record = value as Record<string, unknown>;
    const pairs: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = record[key];
      if (isDropped(item)) continue;
      const pair = `${JSON.stringify(key)}:${stringify(item, ancestors, false, nul)}`;
      pairs.push(topLevel && nul ? `\0${pair}\0` : pair);
    }
    return `{${pairs.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * gemini-cli's `stableStringify`: JSON with keys sorted recursively, `undefined` / functions / symbols dropped,
 * and each top-level `"key":value` pair wrapped in NUL characters so an `argsPattern` can anchor on
 * `\x00"file_path":"…"\x00`. Rule `argsPattern`s are tested against this string.
 */
export function stableStringify(value: unknown): string {
  return stringify(value, new Set(), true, true);
}

/** Plain JSON with keys sorted recursively (no NUL markers): a canonical form for hashing. */
export function canonicalJson(value: unknown): string {
  return stringify(value, new Set(), true, false);
}

/**
 * A stable hash of a call's arguments: sha256 (hex) of their canonical JSON. Binds a pending approval to the
 * exact arguments a human saw: any change gives another hash.
 */
export function argsHash(args: unknown): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
