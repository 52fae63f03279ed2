import { access, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import type { Logger } from '../logger.js';

/** How `@path` imports are expanded: in place (`tree`, the default) or as a list of files (`flat`). */
export type ImportFormat = 'tree' | 'flat';

/** gemini-cli's import depth limit. */
export const MAX_IMPORT_DEPTH = 5;

interface ImportState {
  processed: Set<string>;
  depth: number;
}

/** Options of {@link expandImports}. */
export interface ExpandImportsOptions {
  format?: ImportFormat;
  /** Folder names or files marking the project root (imports may not leave it). Default `['.git']`. */
  boundaryMarkers?: readonly string[];
  logger?: Logger;
}

/**
 * Expands the `@path` imports of a context file as gemini-cli does. An import is `@` at the start of the text
 * or after whitespace, followed by a path starting with `.`, `/` or a letter, up to the next whitespace;
 * imports inside backtick code spans are left alone. The imported file replaces the reference between
 * `<!-- Imported from: p -->` and `<!-- End of import from: p -->` (recursively, at most
 * {@link MAX_IMPORT_DEPTH} levels); a file already on the import chain becomes
 * `<!-- File already processed: p -->`; a path outside the project root (the nearest folder holding a boundary
 * marker, else the file's own folder) or a URL becomes `<!-- Import failed: p - Path traversal attempt -->`;
 * a missing file `<!-- Import failed: p - <reason> -->`. With the `flat` format the result is the file and every
 * imported file, each between `--- File: <path> ---` and `--- End of File: <path> ---`.
 */
export async function expandImports(
  content: string,
  filePath: string,
  options: ExpandImportsOptions = {},
): Promise<string> {
  const markers = options.boundaryMarkers ?? ['.git'];
  const root = await findProjectRoot(dirname(filePath), markers);
  if ((options.format ?? 'tree') === 'flat') return flatten(content, filePath, root);
  return expandTree(
    content,
    dirname(filePath),
    root,
    { processed: new Set(), depth: 0 },
    options.logger,
  );
}

/** The nearest folder (from `start` up) holding one of the markers; `start` itself when none does. */
export async function findProjectRoot(start: string, markers: readonly string[]): Promise<string> {
  if (markers.length === 0) return resolve(start);
  let current = resolve(start);
  for (;;) {
    for (const marker of markers) {
      if (isAbsolute(marker) || marker.includes('..')) continue;
      try {
        await access(join(current, marker));
        return current;
      } catch {
        // not here
      }
    }
    const parent = dirname(current);
    if (parent === current) return resolve(start);
    current = parent;
  }
}

interface ImportRef {
  start: number;
  end: number;
  path: string;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

function findImports(content: string): ImportRef[] {
  const refs: ImportRef[] = [];
  let i = 0;
  while (i < content.length) {
    i = content.indexOf('@', i);
    if (i === -1) break;
    if (i > 0 && !isSpace(content[i - 1])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < content.length && !isSpace(content[j])) j++;
    const path = content.slice(i + 1, j);
    if (path.length > 0 && /^[./A-Za-z]/.test(path)) refs.push({ start: i, end: j, path });
    i = j + 1;
  }
  return refs;
}

function codeRegions(content: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  for (const match of content.matchAll(/(`+)([\s\S]*?)\1/g)) {
    regions.push([match.index, match.index + match[0].length]);
  }
  return regions;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function insideRoot(importPath: string, base: string, root: string): boolean {
  if (/^(file|https?):\/\//.test(importPath)) return false;
  const target = real(resolve(base, importPath));
  const rel = relative(real(root), target);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function expandTree(
  content: string,
  base: string,
  root: string,
  state: ImportState,
  logger: Logger | undefined,
): Promise<string> {
  if (state.depth >= MAX_IMPORT_DEPTH) return content;
  const regions = codeRegions(content);
  let out = '';
  let last = 0;
  for (const ref of findImports(content)) {
    out += content.slice(last, ref.start);
    last = ref.end;
    if (regions.some(([s, e]) => ref.start >= s && ref.start < e)) {
      out += `@${ref.path}`;
      continue;
    }
    if (!insideRoot(ref.path, base, root)) {
      out += `<!-- Import failed: ${ref.path} - Path traversal attempt -->`;
      continue;
    }
    const full = resolve(base, ref.path);
    if (state.processed.has(full)) {
      out += `<!-- File already processed: ${ref.path} -->`;
      continue;
    }
    try {
      await access(full);
      const text = await readFile(full, 'utf8');
      const inner = await expandTree(
        text,
        dirname(full),
        root,
        { processed: new Set([...state.processed, full]), depth: state.depth + 1 },
        logger,
      );
      out += `<!-- Imported from: ${ref.path} -->\n${inner}\n<!-- End of import from: ${ref.path} -->`;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger?.warn(`Failed to import ${ref.path}: ${message}`, { file: full });
      out += `<!-- Import failed: ${ref.path} - ${message} -->`;
    }
  }
  return out + content.slice(last);
}

async function flatten(content: string, filePath: string, root: string): Promise<string> {
  const files: Array<{ path: string; content: string }> = [];
  const seen = new Set<string>();
  const visit = async (text: string, path: string, depth: number): Promise<void> => {
    const key = normalize(path);
    if (seen.has(key)) return;
    seen.add(key);
    files.push({ path: key, content: text });
    if (depth >= MAX_IMPORT_DEPTH) return;
    const regions = codeRegions(text);
    const refs = findImports(text);
    for (let i = refs.length - 1; i >= 0; i--) {
      const ref = refs[i] as ImportRef;
      if (regions.some(([s, e]) => ref.start >= s && ref.start < e)) continue;
      if (!insideRoot(ref.path, dirname(path), root)) continue;
      const full = normalize(resolve(dirname(path), ref.path));
      if (seen.has(full)) continue;
      try {
        await visit(await readFile(full, 'utf8'), full, depth + 1);
      } catch {
        // gemini-cli skips an unreadable import in flat mode
      }
    }
  };
  await visit(content, filePath, 0);
  return files
    .map((f) => `--- File: ${f.path} ---\n${f.content.trim()}\n--- End of File: ${f.path} ---`)
    .join('\n\n');
}
