import { mkdirSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.js';
import type { WalkNode } from './fd-walk.js';
import { isBlockedSegment, type PathGuard, type Resolution } from './path-guard.js';
import { readNodeBytes, removeTree, writeBytes, type ReadLimits } from './safe-io.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import { globWorkspace } from './workspace-glob.js';
import type {
  SandboxFilesystem,
  DirEntry,
  FileKind,
  FileStat,
  GlobOptions,
  PathAccess,
} from '../core/workspace-types.js';

function fileKind(kind: WalkNode['kind']): FileKind {
  return kind === 'file' || kind === 'directory' ? kind : 'other';
}

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * The workspace-bound {@link SandboxFilesystem}. Every call walks its path through the {@link PathGuard} (one
 * component at a time from a root's descriptor) and acts on the objects that walk reached — never on a path
 * string that a concurrent rename could redirect.
 */
export class WorkspaceFilesystem implements SandboxFilesystem {
  constructor(
    private readonly guard: PathGuard,
    private readonly logger: Logger,
    private readonly limits: ReadLimits,
  ) {}

  workspaceDirectories(): readonly string[] {
    return this.guard.roots.filter((root) => !root.readOnly).map((root) => root.path);
  }

  resolvePath(input: string, access: PathAccess = 'read'): Promise<string> {
    return this.guard.check(input, access);
  }

  /** Walks for reading; null (logged) when the guard refuses. */
  private readable(input: string): Resolution | null {
    try {
      return this.guard.resolve(input, 'read');
    } catch (error) {
      if (error instanceof WorkspaceAccessError) {
        this.logger.debug('workspace: read refused', { path: input, reason: error.reason });
        return null;
      }
      throw error;
    }
  }

  async readFileBytes(input: string): Promise<Uint8Array | null> {
    const resolution = this.readable(input);
    if (resolution === null) return null;
    try {
      const node = resolution.walked.node;
      if (!node || node.kind === 'directory') return null;
      return await readNodeBytes(node, input, this.limits);
    } finally {
      resolution.close();
    }
  }

  async readFile(input: string): Promise<string | null> {
    const bytes = await this.readFileBytes(input);
    return bytes === null ? null : Buffer.from(bytes).toString('utf8');
  }

  async writeFile(input: string, content: string): Promise<void> {
    await writeBytes(this.guard, input, Buffer.from(content, 'utf8'));
  }

  async readDir(input: string): Promise<DirEntry[] | null> {
    const resolution = this.readable(input);
    if (resolution === null) return null;
    const { walker, walked } = resolution;
    try {
      const dir = walked.node;
      if (dir?.kind !== 'directory') return null;
      let names: string[];
      try {
        names = await readdir(dir.ref);
      } catch {
        return null;
      }
      const entries: DirEntry[] = [];
      for (const name of names) {
        if (isBlockedSegment(name)) continue;
        const full = path.join(dir.realPath, name);
        let child: WalkNode;
        try {
          child = walker.openChild(dir, name);
        } catch {
          continue;
        }
        let kind = fileKind(child.kind);
        const isSymlink = child.kind === 'symlink';
        walker.release(child);
        if (isSymlink) {
          // A link's target kind is reported only when the target itself is readable.
          kind = (await this.stat(full))?.kind ?? 'other';
        }
        entries.push({ name, path: full, kind, isSymlink });
      }
      return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } finally {
      resolution.close();
    }
  }

  async stat(input: string): Promise<FileStat | null> {
    const resolution = this.readable(input);
    if (resolution === null) return null;
    try {
      const node = resolution.walked.node;
      if (!node) return null;
      return {
        path: node.realPath,
        kind: fileKind(node.kind),
        size: node.size,
        mtimeMs: node.mtimeMs,
      };
    } finally {
      resolution.close();
    }
  }

  async exists(input: string): Promise<boolean> {
    return (await this.stat(input)) !== null;
  }

  async mkdir(input: string, options: { recursive?: boolean } = {}): Promise<void> {
    const recursive = options.recursive ?? true;
    const resolution = this.guard.resolve(input, 'write', { createParents: recursive });
    try {
      const { node, parent, name, realPath } = resolution.walked;
      if (node) {
        if (node.kind === 'directory' && recursive) return;
        throw fsError('EEXIST', `file already exists, mkdir '${realPath}'`);
      }
      if (!parent) throw fsError('ENOENT', `no such file or directory, mkdir '${realPath}'`);
      mkdirSync(resolution.walker.childRef(parent, name), 0o777);
    } finally {
      resolution.close();
    }
  }

  async rm(input: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    const resolution = this.guard.resolve(input, 'write');
    try {
      const { node, parent, name, realPath } = resolution.walked;
      if (!node) {
        if (options.force) return;
        throw fsError('ENOENT', `no such file or directory, rm '${realPath}'`);
      }
      if (this.guard.isRoot(realPath, node.identity) || !parent) {
        throw new WorkspaceAccessError(
          `Refusing to remove "${input}": it is a workspace root (${realPath}).`,
          { path: input, resolvedPath: realPath, reason: 'PATH_READ_ONLY' },
        );
      }
      const entry = resolution.walker.childRef(parent, name);
      if (node.kind !== 'directory') {
        unlinkSync(entry);
        return;
      }
      if (!options.recursive) {
        throw Object.assign(
          new Error(`Path is a directory: rm returned EISDIR (is a directory) ${realPath}`),
          { code: 'ERR_FS_EISDIR' },
        );
      }
      await removeTree(resolution.walker, node);
      rmdirSync(entry);
    } finally {
      resolution.close();
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.guard.resolve(from, 'write', { followLeaf: false });
    try {
      const target = this.guard.resolve(to, 'write', { followLeaf: false });
      try {
        const a = source.walked;
        const b = target.walked;
        if (!a.node) throw fsError('ENOENT', `no such file or directory, rename '${a.realPath}'`);
        if (!a.parent || this.guard.isRoot(a.realPath, a.node.identity)) {
          throw new WorkspaceAccessError(
            `Refusing to rename "${from}": it is a workspace root (${a.realPath}).`,
            { path: from, resolvedPath: a.realPath, reason: 'PATH_READ_ONLY' },
          );
        }
        if (!b.parent) throw fsError('ENOENT', `no such file or directory, rename '${b.realPath}'`);
        if (b.node && this.guard.isRoot(b.realPath, b.node.identity)) {
          throw new WorkspaceAccessError(
            `Refusing to replace "${to}": it is a workspace root (${b.realPath}).`,
            { path: to, resolvedPath: b.realPath, reason: 'PATH_READ_ONLY' },
          );
        }
        renameSync(
          source.walker.childRef(a.parent, a.name),
          target.walker.childRef(b.parent, b.name),
        );
      } finally {
        target.close();
      }
    } finally {
      source.close();
    }
  }

  async copyFile(from: string, to: string): Promise<void> {
    const source = this.guard.resolve(from, 'read');
    let bytes: Buffer;
    try {
      const node = source.walked.node;
      if (!node)
        throw fsError('ENOENT', `no such file or directory, copyfile '${source.walked.realPath}'`);
      if (node.kind === 'directory') {
        throw fsError('EISDIR', `illegal operation on a directory, copyfile '${node.realPath}'`);
      }
      bytes = await readNodeBytes(node, from, this.limits);
    } finally {
      source.close();
    }
    await writeBytes(this.guard, to, bytes);
  }

  glob(pattern: string, options: GlobOptions = {}): Promise<string[]> {
    return globWorkspace(this.guard, pattern, options);
  }
}
