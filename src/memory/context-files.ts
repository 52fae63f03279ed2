import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import { expandImports, type ImportFormat } from './memory-imports.js';

/** gemini-cli's default context file name. */
export const DEFAULT_CONTEXT_FILE_NAME = 'GEMINI.md';

/** One loaded context file: its path and its text with imports expanded. */
export interface ContextFile {
  path: string;
  content: string;
}

/** Context-file memory by tier, as gemini-cli 0.61 loads it. */
export interface LoadedMemory {
  /** `~/.gemini/<name>` for each context file name: the system instruction. */
  global: ContextFile[];
  /** The workspace's files, from each workspace folder up to its project root (trusted folders only). */
  project: ContextFile[];
  /** Private project memory (`~/.gemini/tmp/<project>/memory/MEMORY.md`): the system instruction. */
  userProject: ContextFile[];
}

/** What {@link loadMemory} reads. */
export interface LoadMemoryOptions {
  /** Holds `.gemini/` (the global files). */
  home: string;
  /** The workspace folders: the working directory, then the extra roots. */
  workspaceDirs: readonly string[];
  /** Whether the working folder is trusted: project files load only then. */
  trusted: boolean;
  /** `context.fileName` (default `GEMINI.md`). */
  fileNames?: string | readonly string[];
  /** `context.memoryBoundaryMarkers` (default `['.git']`): where the upward search stops. */
  boundaryMarkers?: readonly string[];
  /** `context.importFormat` (default `tree`). */
  importFormat?: ImportFormat;
  /** The project's private memory folder (`~/.gemini/tmp/<project>/memory`), if known. */
  projectMemoryDir?: string;
  logger?: Logger;
}

/** The context file names from `context.fileName`: trimmed, normalised, de-duplicated; default `GEMINI.md`. */
export function contextFileNames(setting: string | readonly string[] | undefined): string[] {
  const list = setting === undefined ? [] : typeof setting === 'string' ? [setting] : [...setting];
  const names = [
    ...new Set(
      list
        .map((n) => n.trim())
        .filter((n) => n !== '')
        .map((n) => normalize(n)),
    ),
  ];
  return names.length > 0 ? names : [DEFAULT_CONTEXT_FILE_NAME];
}

async function readable(path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

async function existing(paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(paths.map(async (p) => ((await readable(p)) ? p : undefined)));
  return found.filter((p): p is string => p !== undefined);
}

/** From `start` up to `stop` (inclusive), the context files of each folder; outermost folder first. */
async function upwardFiles(
  start: string,
  stop: string,
  names: readonly string[],
  home: string,
): Promise<string[]> {
  const out: string[] = [];
  const globalDir = join(home, '.gemini');
  let current = resolve(start);
  for (;;) {
    if (current === globalDir) break;
    out.unshift(...(await existing(names.map((n) => join(current, n)))));
    const parent = dirname(current);
    if (current === resolve(stop) || parent === current) break;
    current = parent;
  }
  return out;
}

/** Drops paths naming a file already listed (same device and inode, e.g. through a symlink or case). */
async function uniqueFiles(paths: readonly string[]): Promise<string[]> {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const path of new Set(paths)) {
    try {
      const info = await stat(path);
      const key = `${info.dev}:${info.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
    } catch {
      // unreadable: keep it, reading reports it
    }
    out.push(path);
  }
  return out;
}

/**
 * Loads context-file memory as gemini-cli 0.61 does: the global files `~/.gemini/<name>`; in a trusted folder,
 * for each workspace folder, the files of that folder and each parent up to its project root (the nearest folder
 * holding a boundary marker such as `.git`; without one, the folder alone), de-duplicated and sorted by path;
 * and the private project memory. Each file's `@path` imports are expanded. Unreadable files are skipped with a
 * warning. Subfolders are not scanned up front (gemini-cli loads their files when a tool touches them).
 */
export async function loadMemory(options: LoadMemoryOptions): Promise<LoadedMemory> {
  const logger = options.logger ?? silentLogger;
  const names = contextFileNames(options.fileNames);
  const markers = options.boundaryMarkers ?? ['.git'];
  const globalPaths = await existing(names.map((n) => join(options.home, '.gemini', n)));
  let projectPaths: string[] = [];
  if (options.trusted) {
    const perDir = await Promise.all(
      options.workspaceDirs.map(async (dir) => {
        const root = await findMarkedRoot(dir, markers);
        return upwardFiles(dir, root ?? dir, names, options.home);
      }),
    );
    projectPaths = (await uniqueFiles(perDir.flat())).sort();
  }
  let userProjectPaths: string[] = [];
  if (options.projectMemoryDir !== undefined) {
    const index = join(options.projectMemoryDir, 'MEMORY.md');
    userProjectPaths = (await readable(index))
      ? [index]
      : await existing(names.map((n) => join(options.projectMemoryDir as string, n)));
  }
  const read = (paths: string[]): Promise<ContextFile[]> =>
    readContextFiles(paths, {
      boundaryMarkers: markers,
      ...(options.importFormat ? { importFormat: options.importFormat } : {}),
      logger,
    });
  return {
    global: await read(globalPaths),
    project: await read(projectPaths),
    userProject: await read(userProjectPaths),
  };
}

/** The nearest folder from `start` up holding a boundary marker (e.g. `.git`), or undefined. */
async function findMarkedRoot(
  start: string,
  markers: readonly string[],
): Promise<string | undefined> {
  const usable = markers.filter((m) => !isAbsolute(m) && !m.includes('..'));
  let current = resolve(start);
  for (;;) {
    for (const marker of usable) {
      try {
        await access(join(current, marker));
        return current;
      } catch {
        // not here
      }
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * gemini-cli's rendering of loaded files: `--- Context from: <path> ---`, the trimmed text, `--- End of Context
 * from: <path> ---`, blocks separated by a blank line; empty files are left out.
 */
export function renderContextFiles(files: readonly ContextFile[]): string {
  return files
    .map((file) => ({ file, text: file.content.trim() }))
    .filter(({ text }) => text !== '')
    .map(
      ({ file, text }) =>
        `--- Context from: ${file.path} ---\n${text}\n--- End of Context from: ${file.path} ---`,
    )
    .join('\n\n');
}

/**
 * Reads context files in order, with their `@path` imports expanded; a folder is skipped, an unreadable file is
 * skipped with a warning.
 */
export async function readContextFiles(
  paths: readonly string[],
  options: { boundaryMarkers?: readonly string[]; importFormat?: ImportFormat; logger?: Logger },
): Promise<ContextFile[]> {
  const logger = options.logger ?? silentLogger;
  const markers = options.boundaryMarkers ?? ['.git'];
  const files: ContextFile[] = [];
  for (const path of paths) {
    try {
      const text = await readFile(path, 'utf8');
      const format = options.importFormat ?? 'tree';
      files.push({
        path,
        content: await expandImports(text, path, { format, boundaryMarkers: markers, logger }),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') continue;
      logger.warn(`Could not read context file ${path}: ${(error as Error).message}`, {
        file: path,
      });
    }
  }
  return files;
}
