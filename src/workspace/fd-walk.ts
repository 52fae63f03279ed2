import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
} from 'node:fs';
import path from 'node:path';
import { isWithin } from './is-within.js';

/**
 * True where paths are walked with directory descriptors (Linux with `/proc`): every component is opened
 * relative to the descriptor of its parent, so a concurrent rename or symlink swap cannot redirect the walk.
 * Elsewhere the same walk runs on real paths with `lstat`, which narrows the race but cannot close it.
 */
export const DESCRIPTOR_WALK = process.platform === 'linux' && existsSync('/proc/self/fd');

/** Linux `O_PATH` (a descriptor that names a file without opening it for I/O; never blocks, even on a FIFO). */
const O_PATH = 0o10000000;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Most symlinks followed while resolving one path (Linux's own limit is 40). */
export const MAX_SYMLINK_HOPS = 40;

/** What a walked node is. `symlink` only for a final component that was not followed. */
export type NodeKind = 'directory' | 'file' | 'symlink' | 'other';

/** A root as the walk sees it: where it is and which inode it must be. */
export interface WalkRoot {
  path: string;
  readOnly: boolean;
  /** `${dev}:${ino}` recorded when the root was added. */
  identity: string;
  /** False for a single-file read-only root. */
  directory: boolean;
}

/** A root that contains a node, and the first blocked segment between them (if any). */
export interface Containment {
  root: WalkRoot;
  blocked: string | undefined;
}

/** One object reached by the walk, held open (Linux) so later operations act on exactly it. */
export interface WalkNode {
  /** Path for syscalls on this object: `/proc/self/fd/<fd>` on Linux, else its real path. */
  readonly ref: string;
  readonly fd: number | undefined;
  /** Real path of the object as traversed. */
  readonly realPath: string;
  readonly kind: NodeKind;
  readonly identity: string;
  readonly ino: bigint;
  readonly nlink: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Roots this object lies in (by construction: reached from inside them, or it is one). */
  readonly inside: readonly Containment[];
}

/** Result of {@link PathWalker.walk}: the final object (if it exists), where it lives, and which roots hold it. */
export interface Walked {
  /** The final object; undefined when it does not exist. */
  readonly node: WalkNode | undefined;
  /** The directory holding the final entry; undefined for the walk's start itself or a missing ancestor. */
  readonly parent: WalkNode | undefined;
  /** The final entry's name inside `parent`. */
  readonly name: string;
  /** Real path of the target (also when it does not exist yet). */
  readonly realPath: string;
  /** Roots holding the target. */
  readonly inside: readonly Containment[];
}

/** Raised for a symlink loop or an over-long chain. */
export class SymlinkLoopError extends Error {
  constructor(readonly target: string) {
    super(`Too many levels of symbolic links while resolving "${target}".`);
  }
}

/** Raised when a root is no longer the directory it was when it was added (moved or replaced). */
export class RootMovedError extends Error {
  constructor(readonly root: string) {
    super(`Workspace root ${root} was moved or replaced since it was added.`);
  }
}

/** Options of a walk. */
export interface WalkOptions {
  /** Follow a symlink in the final component (default true). */
  followLeaf?: boolean;
  /** Create missing intermediate directories inside writable roots (writeFile, recursive mkdir). */
  createParents?: boolean;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function kindOf(info: {
  isDirectory(): boolean;
  isFile(): boolean;
  isSymbolicLink(): boolean;
}): NodeKind {
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isDirectory()) return 'directory';
  if (info.isFile()) return 'file';
  return 'other';
}

function components(relative: string): string[] {
  return relative.split('/').filter((part) => part !== '' && part !== '.');
}

/**
 * Walks paths one component at a time from a root's descriptor (or `/`), never letting the kernel follow a
 * symlink on its own: each component is opened `O_PATH | O_NOFOLLOW` through `/proc/self/fd/<parent>/<name>`
 * (which resolves like `openat`), symlinks are read and their targets walked the same way, and every object's
 * containment is decided by construction (reached from inside a root, or it is a root by inode), never by
 * re-reading a path that could have changed. The caller must {@link close} the walker when done with the
 * nodes it returned.
 */
export class PathWalker {
  private readonly fds: number[] = [];

  constructor(
    private readonly roots: readonly WalkRoot[],
    private readonly isBlocked: (segment: string) => boolean,
  ) {}

  /** Closes every descriptor the walk opened. */
  close(): void {
    for (const fd of this.fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // Already closed.
      }
    }
  }

  /** Closes one node's descriptor early (long directory walks). */
  release(node: WalkNode): void {
    if (node.fd === undefined) return;
    const index = this.fds.indexOf(node.fd);
    if (index === -1) return;
    this.fds.splice(index, 1);
    try {
      closeSync(node.fd);
    } catch {
      // Already closed.
    }
  }

  /** Walks an absolute, lexically normalised path. Throws SymlinkLoopError, RootMovedError, or I/O errors. */
  walk(absolute: string, options: WalkOptions = {}): Walked {
    const followLeaf = options.followLeaf ?? true;
    const { node: start, rest } = this.start(absolute);
    const stack: WalkNode[] = [start];
    let queue = rest;
    let hops = 0;
    let spins = 0;
    for (;;) {
      const top = stack[stack.length - 1]!;
      const name = queue.shift();
      if (name === undefined) {
        const parent = stack.length > 1 ? stack[stack.length - 2] : undefined;
        return {
          node: top,
          parent,
          name: parent ? path.basename(top.realPath) : '',
          realPath: top.realPath,
          inside: top.inside,
        };
      }
      if (name === '..') {
        if (stack.length > 1) stack.pop();
        else stack[0] = this.open(top, '..', path.dirname(top.realPath), true);
        continue;
      }
      const realPath = path.join(top.realPath, name);
      if (top.kind !== 'directory') return this.missing(top, undefined, [name, ...queue]);
      let child: WalkNode;
      try {
        child = this.open(top, name, realPath, false);
      } catch (error) {
        const code = errorCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
        if (queue.length === 0) {
          return {
            node: undefined,
            parent: top,
            name,
            realPath,
            inside: this.childContainment(top, name, undefined),
          };
        }
        if (options.createParents && this.creatable(top, name)) {
          this.mkdirIn(top, name);
          queue.unshift(name);
          continue;
        }
        return this.missing(top, name, queue);
      }
      if (child.kind === 'symlink' && (queue.length > 0 || followLeaf)) {
        hops += 1;
        if (hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(absolute);
        let target: string;
        try {
          target = readlinkSync(this.childRef(top, name));
        } catch (error) {
          // Swapped for something else between open and readlink: look at it again.
          if (errorCode(error) === 'EINVAL' && spins < MAX_SYMLINK_HOPS) {
            spins += 1;
            queue.unshift(name);
            continue;
          }
          throw error;
        }
        if (path.isAbsolute(target)) {
          const restart = this.start(target);
          stack.length = 0;
          stack.push(restart.node);
          queue = [...restart.rest, ...queue];
        } else {
          queue = [...components(target), ...queue];
        }
        continue;
      }
      stack.push(child);
    }
  }

  /** Opens an entry of a walked directory without following it (for directory listings and tree removal). */
  openChild(parent: WalkNode, name: string): WalkNode {
    return this.open(parent, name, path.join(parent.realPath, name), false);
  }

  /** The path to use for syscalls on entry `name` of `dir` (resolves like `openat(dir.fd, name)` on Linux). */
  childRef(dir: WalkNode, name: string): string {
    return DESCRIPTOR_WALK ? `${dir.ref}/${name}` : path.join(dir.realPath, name);
  }

  /** Containment of entry `name` of `dir` (the entry's own identity, when known, may make it a root). */
  childContainment(dir: WalkNode, name: string, identity: string | undefined): Containment[] {
    const inside: Containment[] = dir.inside.map((c) => ({
      root: c.root,
      blocked: c.blocked ?? (this.isBlocked(name) ? name : undefined),
    }));
    if (identity !== undefined) {
      for (const root of this.roots) {
        if (root.identity === identity && !inside.some((c) => c.root === root)) {
          inside.push({ root, blocked: undefined });
        }
      }
    }
    return inside;
  }

  private creatable(dir: WalkNode, name: string): boolean {
    const inside = this.childContainment(dir, name, undefined);
    return (
      inside.length > 0 &&
      inside.every((c) => c.blocked === undefined) &&
      inside.some((c) => !c.root.readOnly)
    );
  }

  private mkdirIn(dir: WalkNode, name: string): void {
    try {
      mkdirSync(this.childRef(dir, name), 0o777);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }

  /** A target below a missing (or non-directory) ancestor: its lexical path and lexical containment. */
  private missing(top: WalkNode, name: string | undefined, rest: string[]): Walked {
    const realPath = path.join(top.realPath, ...(name === undefined ? [] : [name]), ...rest);
    const inside: Containment[] = [];
    for (const root of this.roots) {
      if (!root.directory || !isWithin(realPath, root.path)) continue;
      const below = path.relative(root.path, realPath).split(path.sep);
      inside.push({
        root,
        blocked: below.find((segment) => segment !== '' && this.isBlocked(segment)),
      });
    }
    return { node: undefined, parent: undefined, name: path.basename(realPath), realPath, inside };
  }

  /** Where a walk of `absolute` starts: the deepest directory root lexically holding it, else `/`. */
  private start(absolute: string): { node: WalkNode; rest: string[] } {
    const normalized = path.normalize(absolute);
    const hasDots = absolute.split('/').some((part) => part === '..');
    let best: WalkRoot | undefined;
    if (!hasDots) {
      for (const root of this.roots) {
        if (!root.directory || !isWithin(normalized, root.path)) continue;
        if (!best || root.path.length > best.path.length) best = root;
      }
    }
    if (!best) {
      const slash = this.describe('/', '/');
      return {
        node: { ...slash, inside: this.byIdentity(slash.identity) },
        rest: components(absolute),
      };
    }
    const node = this.describe(best.path, best.path);
    if (node.identity !== best.identity) throw new RootMovedError(best.path);
    // The root itself is verified by inode; roots lexically above it hold it too.
    const inside: Containment[] = [];
    for (const root of this.roots) {
      if (!root.directory || !isWithin(best.path, root.path)) continue;
      const below = path.relative(root.path, best.path).split(path.sep);
      inside.push({
        root,
        blocked: below.find((segment) => segment !== '' && this.isBlocked(segment)),
      });
    }
    return { node: { ...node, inside }, rest: components(path.relative(best.path, normalized)) };
  }

  private byIdentity(identity: string): Containment[] {
    return this.roots
      .filter((root) => root.identity === identity)
      .map((root) => ({ root, blocked: undefined }));
  }

  /** Opens `name` in `dir` (no symlink following) and describes it. */
  private open(dir: WalkNode, name: string, realPath: string, isParent: boolean): WalkNode {
    const node = this.describe(this.childRef(dir, name), realPath);
    if (isParent) {
      // Above the walk's start: only an inode match makes it a root.
      return { ...node, inside: this.byIdentity(node.identity) };
    }
    return { ...node, inside: this.childContainment(dir, name, node.identity) };
  }

  private describe(target: string, realPath: string): WalkNode {
    if (DESCRIPTOR_WALK) {
      const fd = openSync(target, O_PATH | NOFOLLOW);
      this.fds.push(fd);
      const info = fstatSync(fd, { bigint: true });
      return {
        ref: `/proc/self/fd/${fd}`,
        fd,
        realPath,
        kind: kindOf(info),
        identity: `${info.dev}:${info.ino}`,
        ino: info.ino,
        nlink: Number(info.nlink),
        size: Number(info.size),
        mtimeMs: Number(info.mtimeMs),
        inside: [],
      };
    }
    const info = lstatSync(target, { bigint: true });
    return {
      ref: realPath,
      fd: undefined,
      realPath,
      kind: kindOf(info),
      identity: `${info.dev}:${info.ino}`,
      ino: info.ino,
      nlink: Number(info.nlink),
      size: Number(info.size),
      mtimeMs: Number(info.mtimeMs),
      inside: [],
    };
  }
}
