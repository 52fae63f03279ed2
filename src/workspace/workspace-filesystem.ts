import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { compileGlob } from './glob-pattern.js';
import { isBlockedSegment, type PathGuard } from './path-guard.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import type {
  SandboxFilesystem,
  DirEntry,
  FileKind,
  FileStat,
  GlobOptions,
  PathAccess,
} from '../core/workspace-types.js';

/** Default cap on glob results. */
const DEFAULT_MAX_GLOB_RESULTS = 20_000;

function kindOf(info: { isFile(): boolean; isDirectory(): boolean }): FileKind {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  return 'other';
}

/**
 * The workspace-bound {@link SandboxFilesystem}: every path goes through the {@link PathGuard} and every
 * operation acts on the real path the guard approved.
 */
export class WorkspaceFilesystem implements SandboxFilesystem {
  constructor(
    private readonly guard: PathGuard,
    private readonly logger: Logger,
  ) {}

  workspaceDirectories(): readonly string[] {
    return this.guard.roots.filter((root) => !root.readOnly).map((root) => root.path);
  }

  resolvePath(input: string, access: PathAccess = 'read'): Promise<string> {
    return this.guard.check(input, access);
  }

  private async readable(input: string): Promise<string | null> {
    try {
      return await this.guard.check(input, 'read');
    } catch (error) {
      if (error instanceof WorkspaceAccessError) {
        this.logger.debug('workspace: read refused', { path: input, reason: error.reason });
        return null;
      }
      throw error;
    }
  }

  async readFileBytes(input: string): Promise<Uint8Array | null> {
    const real = await this.readable(input);
    if (real === null) return null;
    try {
      const info = await stat(real);
      if (!info.isFile()) return null;
      return await readFile(real);
    } catch {
      return null;
    }
  }

  async readFile(input: string): Promise<string | null> {
    const bytes = await this.readFileBytes(input);
    return bytes === null ? null : Buffer.from(bytes).toString('utf8');
  }

  async writeFile(input: string, content: string): Promise<void> {
    const real = await this.guard.check(input, 'write');
    await mkdir(path.dirname(real), { recursive: true });
    // O_NOFOLLOW: if the approved path became a symlink after the check, refuse to write through it.
    const handle = await open(
      real,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o666,
    );
    try {
      await handle.writeFile(content, 'utf8');
    } finally {
      await handle.close();
    }
  }

  async readDir(input: string): Promise<DirEntry[] | null> {
    const real = await this.readable(input);
    if (real === null) return null;
    let dirents;
    try {
      dirents = await readdir(real, { withFileTypes: true });
    } catch {
      return null;
    }
    const entries: DirEntry[] = [];
    for (const dirent of dirents) {
      if (isBlockedSegment(dirent.name)) continue;
      const full = path.join(real, dirent.name);
      let kind: FileKind = kindOf(dirent);
      const isSymlink = dirent.isSymbolicLink();
      if (isSymlink) {
        // A link's target kind is reported only when the target itself is readable.
        try {
          kind = kindOf(await stat(await this.guard.check(full, 'read')));
        } catch {
          kind = 'other';
        }
      }
      entries.push({ name: dirent.name, path: full, kind, isSymlink });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(input: string): Promise<FileStat | null> {
    const real = await this.readable(input);
    if (real === null) return null;
    try {
      const info = await stat(real);
      return { path: real, kind: kindOf(info), size: info.size, mtimeMs: info.mtimeMs };
    } catch {
      return null;
    }
  }

  async exists(input: string): Promise<boolean> {
    return (await this.stat(input)) !== null;
  }

  async mkdir(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const real = await this.guard.check(input, 'write');
    await mkdir(real, { recursive: options.recursive ?? true });
  }

  async rm(input: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    const real = await this.guard.check(input, 'write');
    if (this.guard.roots.some((root) => root.path === real)) {
      throw new WorkspaceAccessError(
        `Refusing to remove "${input}": it is a workspace root (${real}).`,
        { path: input, resolvedPath: real, reason: 'PATH_READ_ONLY' },
      );
    }
    await rm(real, { recursive: options.recursive ?? false, force: options.force ?? false });
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<string[]> {
    const searchRoot = await this.guard.check(options.cwd ?? this.guard.cwd, 'read');
    const caseSensitive = options.caseSensitive ?? false;
    const dot = options.dot ?? true;
    const compiled = compileGlob(
      process.platform === 'win32' ? pattern.replace(/\\/g, '/') : pattern,
      {
        dot,
        caseSensitive,
      },
    );
    const ignores = (options.ignore ?? []).map((p) => compileGlob(p, { dot: true, caseSensitive }));
    // `dir/**` patterns also prune the directory itself, so the walk never enters it.
    const prunes = (options.ignore ?? [])
      .filter((p) => p.endsWith('/**'))
      .map((p) => compileGlob(p.slice(0, -3), { dot: true, caseSensitive }));
    const isIgnored = (rel: string, isDirectory: boolean): boolean =>
      ignores.some((ig) => ig.test(rel)) || (isDirectory && prunes.some((pr) => pr.test(rel)));
    const maxResults = options.maxResults ?? DEFAULT_MAX_GLOB_RESULTS;
    let start: string;
    try {
      start = await this.guard.check(path.resolve(searchRoot, compiled.base || '.'), 'read');
    } catch (error) {
      if (error instanceof WorkspaceAccessError) return [];
      throw error;
    }
    const results: string[] = [];
    const prefixOf = (absolute: string): string => {
      const rel = path.relative(searchRoot, absolute).split(path.sep).join('/');
      return path.isAbsolute(compiled.base) ? absolute.split(path.sep).join('/') : rel;
    };

    const walk = async (dir: string, depth: number): Promise<void> => {
      if (results.length >= maxResults || options.signal?.aborted) return;
      let dirents;
      try {
        dirents = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of dirents) {
        if (results.length >= maxResults) return;
        if (isBlockedSegment(dirent.name)) continue;
        const full = path.join(dir, dirent.name);
        const rel = path.relative(searchRoot, full).split(path.sep).join('/');
        let kind: FileKind = kindOf(dirent);
        if (dirent.isSymbolicLink()) {
          // Symlinks are followed only when their target is readable; linked directories are not walked.
          try {
            const target = await this.guard.check(full, 'read');
            kind = kindOf(await stat(target));
          } catch {
            continue;
          }
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
          if (depth + 1 < compiled.maxDepth) await walk(full, depth + 1);
        } else if (kind === 'file' && matches) {
          results.push(full);
        }
      }
    };
    await walk(start, 0);
    return results.sort();
  }
}
