import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { expandEnvVars, type Environment } from './env-expansion.js';
import { parseJsonc } from './jsonc.js';
import { KNOWN_SETTINGS, type KnownSettingsTree } from './known-settings.js';
import { SettingsFileError } from './settings-errors.js';
import { Settings } from './settings-schema.js';

/** A problem in a settings file that does not stop loading (the key or value is ignored). */
export interface SettingsWarning {
  /** The file. */
  file: string;
  /** 1-based line of the key, when known. */
  line?: number;
  /** Dotted key path, e.g. `model.name`. */
  key?: string;
  /** One line saying what is wrong and what is done about it. */
  message: string;
}

/** One settings file, read and checked. */
export interface ParsedSettingsFile {
  /** The settings (env references expanded, invalid values removed); `{}` when the file does not exist. */
  settings: Settings;
  exists: boolean;
  warnings: SettingsWarning[];
}

/**
 * Reads one settings file: JSON with comments, `$VAR` / `${VAR}` / `${VAR:-default}` expanded in string values
 * (from `env`), unknown keys and values of the wrong type reported as warnings and dropped. A missing file gives
 * empty settings.
 *
 * @throws SettingsFileError when the file is unreadable, not valid JSON (naming line and column) or not a JSON
 *   object.
 */
export function readSettingsFile(file: string, env: Environment): ParsedSettingsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { settings: {}, exists: false, warnings: [] };
    throw new SettingsFileError(
      `Cannot read the settings file ${file}: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  const { value, lineOf } = parseJsonc(text, file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SettingsFileError(
      `Error in ${file}: Settings file is not a valid JSON object. Write the settings inside { }.`,
      { file, line: 1 },
    );
  }
  const warnings: SettingsWarning[] = [];
  const expanded = expandEnvVars(value as Record<string, unknown>, env);
  for (const path of unknownKeys(expanded, KNOWN_SETTINGS, [])) {
    warnings.push(warning(file, lineOf(path), path, 'is not a gemini-cli setting; it is ignored.'));
  }
  return { settings: validate(expanded, file, lineOf, warnings), exists: true, warnings };
}

function warning(
  file: string,
  line: number | undefined,
  path: ReadonlyArray<string | number>,
  problem: string,
): SettingsWarning {
  const key = formatPath(path);
  const where = line === undefined ? file : `${file}:${line}`;
  return {
    file,
    ...(line === undefined ? {} : { line }),
    key,
    message: `${where}: "${key}" ${problem}`,
  };
}

/** Dotted path with `[i]` for list items. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === 'number'
        ? `${out}[${part}]`
        : out === ''
          ? String(part)
          : `${out}.${String(part)}`,
    '',
  );
}

/** Paths of keys that gemini-cli 0.61 does not know. */
function* unknownKeys(
  value: Record<string, unknown>,
  known: KnownSettingsTree,
  path: string[],
): Generator<string[]> {
  for (const [key, child] of Object.entries(value)) {
    const node = Object.hasOwn(known, key) ? known[key] : undefined;
    if (node === undefined) {
      yield [...path, key];
      continue;
    }
    if (node !== true && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      yield* unknownKeys(child as Record<string, unknown>, node, [...path, key]);
    }
  }
}

/**
 * Validates against {@link Settings}; every value that fails is reported and removed, and the rest is validated
 * again (checks that only run once the others pass may fail then). All the issues of one pass are removed at
 * once, so a file with 100,000 bad list items costs two passes, not 100,000; the paths, list indices and lines in
 * the warnings are those of the file.
 */
function validate(
  value: Record<string, unknown>,
  file: string,
  lineOf: (path: ReadonlyArray<string | number>) => number | undefined,
  warnings: SettingsWarning[],
): Settings {
  let current = value;
  for (;;) {
    const result = Settings.safeParse(current);
    if (result.success) return result.data;
    const failed = new Map<string, ReadonlyArray<string | number>>();
    for (const issue of result.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      const key = JSON.stringify(path);
      if (failed.has(key)) continue;
      failed.set(key, path);
      warnings.push(
        warning(file, lineOf(path), path, `${describeIssue(issue)}; the value is ignored.`),
      );
    }
    current = structuredClone(current);
    let removed = 0;
    for (const path of [...failed.values()].sort(deeperAndLaterFirst)) {
      if (removePath(current, path)) removed++;
    }
    if (removed === 0) return {};
  }
}

/**
 * Order for removing several paths from one document: later list items before earlier ones (so the indices of
 * the rest stay right) and a value's members before the value itself.
 */
function deeperAndLaterFirst(
  a: ReadonlyArray<string | number>,
  b: ReadonlyArray<string | number>,
): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y) < String(x) ? -1 : 1;
  }
  return b.length - a.length;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `must be ${article(issue.expected)}`;
  if (issue.code === 'invalid_value') {
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.code === 'invalid_union') return 'has a value of the wrong type';
  return `is invalid (${issue.message})`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Removes the value at `path` (a list item is spliced out); false when there is none. */
function removePath(root: Record<string, unknown>, path: ReadonlyArray<string | number>): boolean {
  if (path.length === 0) {
    const keys = Object.keys(root);
    for (const key of keys) delete root[key];
    return keys.length > 0;
  }
  let node: unknown = root;
  for (const part of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string | number, unknown>)[part];
  }
  if (typeof node !== 'object' || node === null) return false;
  const last = path[path.length - 1] as string | number;
  if (Array.isArray(node) && typeof last === 'number') {
    if (last >= node.length) return false;
    node.splice(last, 1);
    return true;
  }
  if (!Object.hasOwn(node, last)) return false;
  delete (node as Record<string | number, unknown>)[last];
  return true;
}
