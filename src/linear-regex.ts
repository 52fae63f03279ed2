import type { RE2JS } from 're2js';
import { lazyRequire } from './lazy-require.js';

/**
 * The `re2js` engine, loaded when the first pattern with metacharacters is compiled rather than when the SDK is
 * imported (goal P2: most sessions compile none). `require` keeps {@link compileLinearRegex} synchronous.
 */
let engine: typeof RE2JS | undefined;
function re2(): typeof RE2JS {
  engine ??= lazyRequire<{ RE2JS: typeof RE2JS }>('re2js').RE2JS;
  return engine;
}

/**
 * A regular expression compiled for a linear-time engine (`re2js`, RE2 semantics): matching never
 * backtracks, so a hostile pattern such as `(a|a)*c` costs time proportional to the input, not exponential.
 * Every pattern that comes from a user, a policy file or the model is compiled with this; JavaScript
 * `RegExp` is only used for patterns the SDK ships. RE2 has no lookaround and no backreferences: such
 * patterns are refused with an error saying so.
 */
export interface LinearRegex {
  /** The pattern as given. */
  readonly source: string;
  /** True when the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

/** Options of {@link compileLinearRegex}. */
export interface LinearRegexOptions {
  /** Case-insensitive matching. */
  ignoreCase?: boolean;
}

const META = /[\\^$.|?*+()[\]{}]/;

/** Recently compiled patterns (glob and ignore lists are compiled again on every tool call). */
const cache = new Map<string, LinearRegex>();
const CACHE_SIZE = 512;

/** Compiles `source`; throws an `Error` whose message says why when the pattern is not valid RE2 syntax. */
export function compileLinearRegex(source: string, options: LinearRegexOptions = {}): LinearRegex {
  const key = `${options.ignoreCase ? 'i' : '-'}${source}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = compile(source, options);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

function compile(source: string, options: LinearRegexOptions): LinearRegex {
  if (!META.test(source)) {
    // A plain literal: a substring search is equivalent and much faster.
    const needle = options.ignoreCase ? source.toLowerCase() : source;
    return {
      source,
      test: (text) => (options.ignoreCase ? text.toLowerCase() : text).includes(needle),
    };
  }
  let compiled: RE2JS;
  try {
    const RE2 = re2();
    compiled = RE2.compile(source, options.ignoreCase ? RE2.CASE_INSENSITIVE : 0);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${reason} (patterns use RE2 syntax, matched in linear time: no lookaround or backreferences)`,
      { cause: error },
    );
  }
  return { source, test: (text) => compiled.matcher(text).find() };
}
