/** How a key's values from several settings files combine (gemini-cli's merge strategies). */
export type MergeStrategy = 'replace' | 'concat' | 'union' | 'shallow_merge';

/**
 * The keys gemini-cli 0.61 merges specially; every other key is deep-merged (objects key by key, anything else
 * replaced by the later file). `*` stands for any key at that level.
 */
export const MERGE_STRATEGIES: Readonly<Record<string, MergeStrategy>> = {
  mcpServers: 'shallow_merge',
  policyPaths: 'union',
  adminPolicyPaths: 'union',
  'context.includeDirectories': 'concat',
  'context.fileFiltering.customIgnoreFilePaths': 'union',
  'tools.exclude': 'union',
  'advanced.excludedEnvVars': 'union',
  'extensions.disabled': 'union',
  'extensions.workspacesWithMigrationNudge': 'union',
  'skills.disabled': 'union',
  'hooksConfig.disabled': 'union',
  'hooks.*': 'concat',
};

/** The strategy for a key path (`undefined`: deep merge). */
export function mergeStrategyFor(path: readonly string[]): MergeStrategy | undefined {
  const exact = MERGE_STRATEGIES[path.join('.')];
  if (exact !== undefined) return exact;
  if (path.length < 2) return undefined;
  return MERGE_STRATEGIES[[...path.slice(0, -1), '*'].join('.')];
}

type PlainObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function mergeInto(target: PlainObject, source: PlainObject, path: string[]): void {
  for (const key of Object.keys(source)) {
    if (UNSAFE_KEYS.has(key)) continue;
    const incoming = source[key];
    if (incoming === undefined) continue;
    const keyPath = [...path, key];
    const current = target[key];
    const strategy = mergeStrategyFor(keyPath);
    if (strategy === 'shallow_merge' && isPlainObject(current) && isPlainObject(incoming)) {
      target[key] = { ...structuredClone(current), ...structuredClone(incoming) };
      continue;
    }
    if (Array.isArray(current) && (strategy === 'concat' || strategy === 'union')) {
      const added = Array.isArray(incoming) ? incoming : [incoming];
      const joined = [...current, ...structuredClone(added)];
      target[key] = strategy === 'union' ? unique(joined) : joined;
      continue;
    }
    if (isPlainObject(incoming)) {
      if (!isPlainObject(current)) target[key] = {};
      mergeInto(target[key] as PlainObject, incoming, keyPath);
      continue;
    }
    target[key] = structuredClone(incoming);
  }
}

/** Removes later duplicates; objects compare by their JSON form (strings and numbers by value). */
function unique(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key =
      typeof value === 'object' && value !== null
        ? `j:${JSON.stringify(value)}`
        : `${typeof value}:${String(value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Merges settings layers, lowest precedence first, with gemini-cli's strategies: `union` and `concat` lists
 * grow (union without duplicates), `shallow_merge` maps (`mcpServers`) replace whole entries, objects merge key
 * by key, and any other value is replaced by the later layer. The inputs are not modified.
 */
export function mergeSettingsLayers<T extends object>(
  ...layers: ReadonlyArray<object | undefined>
): T {
  const result: PlainObject = {};
  for (const layer of layers) if (isPlainObject(layer)) mergeInto(result, layer, []);
  return result as T;
}

/**
 * Applies overrides on top of merged settings, as command-line flags do: objects merge key by key, any other
 * value (lists included) replaces the merged one. The inputs are not modified.
 */
export function overrideSettings<T extends object>(merged: T, overrides: object): T {
  const apply = (target: PlainObject, source: PlainObject): void => {
    for (const [key, value] of Object.entries(source)) {
      if (UNSAFE_KEYS.has(key) || value === undefined) continue;
      if (isPlainObject(value) && isPlainObject(target[key]))
        apply(target[key] as PlainObject, value);
      else target[key] = structuredClone(value);
    }
  };
  const result = structuredClone(merged) as PlainObject;
  apply(result, overrides as PlainObject);
  return result as T;
}
