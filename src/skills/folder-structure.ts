import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';

/** Options of {@link getFolderStructure}. */
export interface FolderStructureOptions {
  /** Most files + folders listed. Default 200. */
  maxItems?: number;
  /** Folder names shown as `name/...` and not entered. Default `node_modules`, `.git`, `dist`, `__pycache__`. */
  ignoredFolders?: ReadonlySet<string>;
}

const DEFAULT_MAX_ITEMS = 200;
const DEFAULT_IGNORED = new Set(['node_modules', '.git', 'dist', '__pycache__']);
const MORE = '...';

interface FolderNode {
  name: string;
  files: string[];
  folders: FolderNode[];
  ignored: boolean;
  moreFiles: boolean;
  moreFolders: boolean;
}

/**
 * Renders a directory tree in gemini-cli's `getFolderStructure` format (what `activate_skill` shares as
 * `<available_resources>`): a `Showing up to 200 items (files + folders).` header (plus a note when something
 * was cut), a blank line, `<absDir>/`, then `├───` / `└───` lines, files before folders, alphabetical,
 * filled breadth-first up to the item limit. Symlinks are not listed. Never throws: an unreadable root yields
 * gemini-cli's error line.
 */
export async function getFolderStructure(
  directory: string,
  options: FolderStructureOptions = {},
): Promise<string> {
  const root = resolve(directory);
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  const ignored = options.ignoredFolders ?? DEFAULT_IGNORED;
  try {
    const tree = await readTree(root, maxItems, ignored);
    if (!tree) return `Error: Could not read directory "${root}". Check path and permissions.`;
    const lines: string[] = [];
    renderChildren(tree, '', lines);
    let summary = `Showing up to ${maxItems} items (files + folders).`;
    if (isTruncated(tree)) {
      summary += ` Folders or files indicated with ${MORE} contain more items not shown, were ignored, or the display limit (${maxItems} items) was reached.`;
    }
    return `${summary}\n\n${root}${sep}\n${lines.join('\n')}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `Error processing directory "${root}": ${message}`;
  }
}

function newNode(name: string, ignored = false): FolderNode {
  return { name, files: [], folders: [], ignored, moreFiles: false, moreFolders: false };
}

/** Breadth-first read: each folder lists its files, then its subfolders, until `maxItems` entries are taken. */
async function readTree(
  root: string,
  maxItems: number,
  ignored: ReadonlySet<string>,
): Promise<FolderNode | undefined> {
  const top = newNode(basename(root));
  const queue: { node: FolderNode; path: string }[] = [{ node: top, path: root }];
  let count = 0;
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next || count >= maxItems) continue;
    let entries: Dirent[];
    try {
      entries = (await readdir(next.path, { withFileTypes: true })).sort((a, b) =>
        a.name.localeCompare(b.name),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'ENOENT' || code === 'ENOTDIR') {
        if (next.path === root && code !== 'EACCES') return undefined;
        continue;
      }
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      if (count >= maxItems) {
        next.node.moreFiles = true;
        break;
      }
      next.node.files.push(entry.name);
      count++;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (count >= maxItems) {
        next.node.moreFolders = true;
        break;
      }
      const isIgnored = ignored.has(entry.name);
      const child = newNode(entry.name, isIgnored);
      next.node.folders.push(child);
      count++;
      if (!isIgnored) queue.push({ node: child, path: join(next.path, entry.name) });
    }
  }
  return top;
}

function renderChildren(node: FolderNode, indent: string, lines: string[]): void {
  const noFoldersAfter = node.folders.length === 0 && !node.moreFolders;
  node.files.forEach((file, i) => {
    // As gemini-cli: the last listed file takes `└───` even when a `...` line follows it.
    const last = i === node.files.length - 1 && noFoldersAfter;
    lines.push(`${indent}${last ? '└───' : '├───'}${file}`);
  });
  if (node.moreFiles) lines.push(`${indent}${noFoldersAfter ? '└───' : '├───'}${MORE}`);
  node.folders.forEach((folder, i) => {
    const last = i === node.folders.length - 1 && !node.moreFolders;
    lines.push(
      `${indent}${last ? '└───' : '├───'}${folder.name}${sep}${folder.ignored ? MORE : ''}`,
    );
    renderChildren(folder, indent + (last ? '    ' : '│   '), lines);
  });
  if (node.moreFolders) lines.push(`${indent}└───${MORE}`);
}

function isTruncated(node: FolderNode): boolean {
  return node.moreFiles || node.moreFolders || node.ignored || node.folders.some(isTruncated);
}
