/** One problem with an option: where (`tools[2].name`), what is wrong, and the value found there. */
export interface OptionIssue {
  path: string;
  message: string;
  /** The value at `path`, appended as `got …` to messages that start with `expected`. */
  value?: unknown;
}

/** A short, safe rendering of a value for error messages: `123`, `"abc"`, `null`, `an array`, `a function`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      if (Array.isArray(value)) return `an array of ${value.length}`;
      return `an object${value.constructor?.name && value.constructor.name !== 'Object' ? ` (${value.constructor.name})` : ''}`;
  }
}

/**
 * Renders issues as one error message: `Invalid GeminiCliAgent options: model: expected a non-empty string, got
 * 123; tools[0]: expected a tool made with tool(), got null.`
 */
export function formatOptionIssues(issues: readonly OptionIssue[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const issue of issues) {
    const got =
      issue.message.startsWith('expected ') && 'value' in issue
        ? `, got ${describeValue(issue.value)}`
        : '';
    const line = `${issue.path || 'options'}: ${issue.message}${got}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return `Invalid GeminiCliAgent options: ${lines.join('; ')}.`;
}

/** The value at a path inside `root` (undefined when the path leaves the objects). */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
