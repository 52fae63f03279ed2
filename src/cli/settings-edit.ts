import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigurationError } from './sdk.js';

/** Where a `/* … *\/` or `// …` comment that starts at `i` ends (exclusive), or `i` when none starts there. */
function commentEnd(text: string, i: number): number {
  if (text[i] !== '/') return i;
  if (text[i + 1] === '/') {
    const newline = text.indexOf('\n', i + 2);
    return newline === -1 ? text.length : newline;
  }
  if (text[i + 1] === '*') {
    const close = text.indexOf('*/', i + 2);
    return close === -1 ? text.length : close + 2;
  }
  return i;
}

/** Skips whitespace and comments from `i`. */
function skipTrivia(text: string, i: number): number {
  let at = i;
  for (;;) {
    while (at < text.length && /\s/.test(text[at] as string)) at += 1;
    const end = commentEnd(text, at);
    if (end === at) return at;
    at = end;
  }
}

/** `i` at a `"`: the index after the closing quote. */
function stringEnd(text: string, i: number): number {
  let at = i + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** The end (exclusive) of the JSON value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first !== '{' && first !== '[') {
    let at = i;
    while (at < text.length && !/[\s,\]}/]/.test(text[at] as string)) at += 1;
    return at;
  }
  let depth = 0;
  let at = i;
  while (at < text.length) {
    const c = text[at] as string;
    if (c === '"') {
      at = stringEnd(text, at);
      continue;
    }
    const end = commentEnd(text, at);
    if (end !== at) {
      at = end;
      continue;
    }
    if (c === '{' || c === '[') depth += 1;
    if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  return at;
}

/** The text without its comments (strings untouched), for `JSON.parse`. */
function stripComments(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    if (text[at] === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end;
      continue;
    }
    const end = commentEnd(text, at);
    if (end !== at) {
      out += ' ';
      at = end;
      continue;
    }
    out += text[at];
    at += 1;
  }
  return out;
}

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/** The members of the root object of a valid JSONC document, and where the root's closing brace is. */
function rootMembers(text: string): { members: Member[]; close: number } {
  let at = skipTrivia(text, 0);
  at += 1; // `{`
  const members: Member[] = [];
  for (;;) {
    at = skipTrivia(text, at);
    if (text[at] === '}' || at >= text.length) return { members, close: at };
    if (text[at] === ',') {
      at += 1;
      continue;
    }
    const keyStart = at;
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    at = skipTrivia(text, keyEnd) + 1; // `:`
    const valueStart = skipTrivia(text, at);
    const end = valueEnd(text, valueStart);
    members.push({ key, keyStart, valueStart, valueEnd: end });
    at = end;
  }
}

/** The whitespace a line starts with, for the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/** `value` as two-space JSON whose lines after the first are indented by `indent`. */
function jsonAt(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** A settings file as the CLI edits it: its text (comments kept) and its parsed value. */
export interface SettingsDocument {
  file: string;
  text: string;
  value: Record<string, unknown>;
}

/**
 * Reads a settings file for editing (a missing or empty file is `{}`).
 *
 * @throws ConfigurationError when the file is not a JSON object (it is never overwritten then).
 */
export function readSettingsDocument(file: string): SettingsDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, text: '', value: {} };
    throw new ConfigurationError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === '') return { file, text: '', value: {} };
  let value: unknown;
  try {
    value = JSON.parse(stripComments(text));
  } catch (error) {
    throw new ConfigurationError(
      `${file} is not valid JSON (${(error as Error).message}); fix it first, it was left unchanged.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigurationError(
      `${file} does not hold a JSON object; fix it first, it was left unchanged.`,
    );
  }
  return { file, text, value: value as Record<string, unknown> };
}

/**
 * Sets one top-level key of a settings document and writes the file (atomically, creating its folder). The rest
 * of the file — other keys, comments, formatting — is kept; the key's own value is rewritten as two-space JSON.
 */
export function writeSettingsKey(doc: SettingsDocument, key: string, value: unknown): void {
  let text: string;
  if (doc.text === '') {
    text = `{\n  ${JSON.stringify(key)}: ${jsonAt(value, '  ')}\n}\n`;
  } else {
    const { members, close } = rootMembers(doc.text);
    const existing = members.filter((m) => m.key === key).pop();
    if (existing) {
      const indent = indentAt(doc.text, existing.keyStart);
      text =
        doc.text.slice(0, existing.valueStart) +
        jsonAt(value, indent) +
        doc.text.slice(existing.valueEnd);
    } else {
      const last = members[members.length - 1];
      const indent = last ? indentAt(doc.text, last.keyStart) || '  ' : '  ';
      const member = `${JSON.stringify(key)}: ${jsonAt(value, indent)}`;
      text = last
        ? `${doc.text.slice(0, last.valueEnd)},\n${indent}${member}${doc.text.slice(last.valueEnd)}`
        : `${doc.text.slice(0, close).trimEnd()}\n${indent}${member}\n${doc.text.slice(close)}`;
    }
  }
  mkdirSync(dirname(doc.file), { recursive: true });
  const temp = `${doc.file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, doc.file);
}
