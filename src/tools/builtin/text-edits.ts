/** Line ending a text uses: CRLF when it contains any, LF otherwise (gemini-cli's heuristic). */
export function detectLineEnding(content: string): '\r\n' | '\n' {
  return content.includes('\r\n') ? '\r\n' : '\n';
}

const OMITTED_PREFIXES = new Set([
  'rest of',
  'rest of method',
  'rest of methods',
  'rest of code',
  'unchanged code',
  'unchanged method',
  'unchanged methods',
]);

function placeholderOf(line: string): string | null {
  let text = line.trim();
  if (!text) return null;
  if (text.startsWith('//')) text = text.slice(2).trim();
  if (text.startsWith('#')) text = text.slice(1).trim();
  if (text.startsWith('--')) text = text.slice(2).trim();
  if (text.startsWith('/*') && text.endsWith('*/')) text = text.slice(2, -2).trim();
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  const ellipsis = text.indexOf('...');
  if (ellipsis < 0) return null;
  const prefix = text
    .slice(0, ellipsis)
    .trim()
    .toLowerCase()
    .split(/[ \t\r\n]+/)
    .join(' ');
  const suffix = text.slice(ellipsis + 3).trim();
  if (!OMITTED_PREFIXES.has(prefix)) return null;
  if (suffix.length > 0 && !/^\.+$/.test(suffix)) return null;
  return `${prefix} ...`;
}

/**
 * gemini-cli's omission-placeholder detector: lines such as `// rest of methods ...` or
 * `(unchanged code ...)` that mean the model left code out.
 */
export function detectOmissionPlaceholders(text: string): string[] {
  return text
    .replaceAll('\r\n', '\n')
    .split('\n')
    .map(placeholderOf)
    .filter((p): p is string => p !== null);
}

/**
 * The changed region of `newContent` with `contextLines` of context, `...` marking elided lines — what
 * gemini-cli appends as "Here is the updated code:". The changed region is found by trimming the common
 * leading and trailing lines (one region covering every change).
 */
export function diffContextSnippet(
  originalContent: string,
  newContent: string,
  contextLines = 5,
): string {
  if (!originalContent) return newContent;
  const oldLines = originalContent.replace(/\r\n/g, '\n').split('\n');
  const newLines = newContent.split(/\r?\n/);
  let prefix = 0;
  while (
    prefix < oldLines.length &&
    prefix < newLines.length &&
    oldLines[prefix] === newLines[prefix]
  ) {
    prefix += 1;
  }
  if (prefix === oldLines.length && prefix === newLines.length) return newContent;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const changeStart = prefix;
  const changeEnd = newLines.length - suffix;
  const start = Math.max(0, changeStart - contextLines);
  const end = Math.min(newLines.length, changeEnd + contextLines);
  const parts: string[] = [];
  if (start > 0) parts.push('...');
  parts.push(newLines.slice(start, end).join('\n'));
  if (end < newLines.length) parts.push('...');
  return parts.join('\n');
}
