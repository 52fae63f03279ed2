/** Environment variables as read by the settings loader. */
export type Environment = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$(?:(\w+)|\{([^}]+?)(?::-([^}]*))?\})/g;

/**
 * Expands `$VAR`, `${VAR}` and `${VAR:-default}` in a string, as gemini-cli does in settings values. A variable
 * that is not set keeps its placeholder (or takes the default when one is given); an empty value counts as set.
 */
export function expandEnvVarsInString(value: string, env: Environment): string {
  // Every reference starts with `$`: a string without one is returned as it is, without running the pattern.
  if (!value.includes('$')) return value;
  return value.replace(
    REFERENCE,
    (match, bare: string | undefined, braced: string | undefined, fallback: string | undefined) => {
      const name = bare ?? braced ?? '';
      const found = env[name];
      if (typeof found === 'string') return found;
      return fallback ?? match;
    },
  );
}

/**
 * Expands environment references in every string of a JSON value (object keys are left alone). Returns a new
 * value; the input is not modified.
 */
export function expandEnvVars<T>(value: T, env: Environment): T {
  if (typeof value === 'string') return expandEnvVarsInString(value, env) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => expandEnvVars(item, env)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: expandEnvVars(item, env),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}
