import { sep } from 'node:path';

/** Values for `${name}` placeholders in an extension's files (gemini-cli's `VariableContext`). */
export type VariableContext = Readonly<Record<string, string | undefined>>;

/** Keys gemini-cli drops while it hydrates an extension's JSON, so a manifest cannot reach `Object.prototype`. */
const IGNORED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const PLACEHOLDER = /\$\{(.*?)\}/g;

/**
 * The variables every extension file is hydrated with: `${extensionPath}` (the effective path: for a link, the
 * linked folder), `${workspacePath}`, and `${/}` / `${pathSeparator}` (the platform's separator).
 */
export function baseVariables(extensionPath: string, workspacePath: string): VariableContext {
  return { extensionPath, workspacePath, '/': sep, pathSeparator: sep };
}

/** Replaces each `${name}` whose name is in `context`; an unknown `${x}` stays as written (gemini-cli's rule). */
export function hydrateString(text: string, context: VariableContext): string {
  return text.replace(PLACEHOLDER, (match, key: string) => {
    const value = Object.prototype.hasOwnProperty.call(context, key) ? context[key] : undefined;
    return value === undefined || value === null ? match : String(value);
  });
}

/** {@link hydrateString} over every string of a JSON value (keys untouched); `__proto__`-like keys are dropped. */
export function hydrateValue<T>(value: T, context: VariableContext): T {
  if (typeof value === 'string') return hydrateString(value, context) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => hydrateValue(item, context)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (IGNORED_KEYS.has(key)) continue;
      out[key] = hydrateValue(item, context);
    }
    return out as T;
  }
  return value;
}

const LINE =
  /^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?$/gm;

/**
 * Parses a `.env` file as the `dotenv` package does (gemini-cli reads extension settings with it): `KEY=value`
 * lines, optional `export `, `#` comments, single, double or back quotes (double quotes expand `\n` and `\r`),
 * unquoted values trimmed. A later key wins.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.replace(/\r\n?/gm, '\n');
  for (const match of lines.matchAll(LINE)) {
    const key = match[1] as string;
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    if (IGNORED_KEYS.has(key)) continue;
    out[key] = value;
  }
  return out;
}
