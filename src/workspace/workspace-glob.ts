import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { WalkNode } from './fd-walk.js';
import { compileGlob } from './glob-pattern.js';
import { isBlockedSegment, type PathGuard } from './path-guard.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import type { FileKind, GlobOptions } from '../core/workspace-types.js';

/** Default cap on glob results. */
const DEFAULT_MAX_GLOB_RESULTS = 20_000;

function fileKind(kind: WalkNode['kind']): FileKind {
  return kind === 'file' || kind === 'directory' ? kind : 'other';
}

/**
 * `fs.glob`: walks directories through their descriptors (each subdirectory opened `O_NOFOLLOW` from its
 * parent, so a swapped-in symlink is never entered), follows symlinked files only when the guard approves
 * their target, and never walks a symlinked directory.
 */
export async function globWorkspace(
  guard: PathGuard,
  pattern: string,
  options: GlobOptions = {},
): Promise<string[]> {
  const searchRoot = await guard.check(options.cwd ?? guard.cwd, 'read');
  const caseSensitive = options.caseSensitive ?? false;
  const dot = options.dot ?? true;
  const compiled = compileGlob(
    process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern,
    { dot, caseSensitive },
  );
  const ignores = (options.ignore ?? []).map((p) => compileGlob(p, { dot: true, caseSensitive }));
  // `dir/**` patterns also prune the directory itself, so the walk never enters it.
  const prunes = (options.ignore ?? [])
    .filter((p) => p.endsWith('/**'))
    .map((p) => compileGlob(p.slice(0, -3), { dot: true, caseSensitive }));
  const isIgnored = (rel: string, isDirectory: boolean): boolean =>
    ignores.some((ig) => ig.test(rel)) || (isDirectory && prunes.some((pr) => pr.test(rel)));
  const maxResults = options.maxResults ?? DEFAULT_MAX_GLOB_RESULTS;
  let resolution;
  try {
    resolution = guard.resolve(path.resolve(searchRoot, compiled.base || '.'), 'read');
  } catch (error) {
    if (error instanceof WorkspaceAccessError) return [];
    throw error;
  }
  const { walker } = resolution;
  const results: string[] = [];
  const prefixOf = (absolute: string): string => {
    const rel = path.relative(searchRoot, absolute).split(path.sep).join('/');
    return path.isAbsolute(compiled.base) ? absolute.split(path.sep).join('/') : rel;
  };
  /** Kind of a symlink's target when the guard lets us read it. */
  const linkedKind = (full: string): FileKind | undefined => {
    try {
      const linked = guard.resolve(full, 'read');
      try {
        return linked.walked.node ? fileKind(linked.walked.node.kind) : undefined;
      } finally {
        linked.close();
      }
    } catch {
      return undefined;
    }
  };

  const walk = async (dir: WalkNode, depth: number): Promise<void> => {
    if (results.length >= maxResults || options.signal?.aborted) return;
    let names: string[];
    try {
      names = await readdir(dir.ref);
    } catch {
      return;
    }
    names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (results.length >= maxResults || options.signal?.aborted) return;
      if (isBlockedSegment(name)) continue;
      const full = path.join(dir.realPath, name);
      const rel = path.relative(searchRoot, full).split(path.sep).join('/');
      let child: WalkNode;
      try {
        child = walker.openChild(dir, name);
      } catch {
        continue;
      }
      try {
        let kind = fileKind(child.kind);
        if (child.kind === 'symlink') {
          // Symlinks are followed only when their target is readable; linked directories are not walked.
          const target = linkedKind(full);
          if (target === undefined) continue;
          kind = target;
          if (kind === 'directory') {
            if (
              options.includeDirectories &&
              !isIgnored(rel, true) &&
              compiled.test(prefixOf(full))
            ) {
              results.push(full);
            }
            continue;
          }
        }
        if (isIgnored(rel, kind === 'directory')) continue;
        const matches = compiled.test(prefixOf(full));
        if (kind === 'directory') {
          if (options.includeDirectories && matches) results.push(full);
          if (depth + 1 < compiled.maxDepth) await walk(child, depth + 1);
        } else if (kind === 'file' && matches) {
          results.push(full);
        }
      } finally {
        walker.release(child);
      }
    }
  };
  try {
    const start = resolution.walked.node;
    if (start?.kind === 'directory') await walk(start, 0);
  } finally {
    resolution.close();
  }
  return results.sort();
}
