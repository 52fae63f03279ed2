import { realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigurationError } from '../errors.js';
import {
  PathWalker,
  RootMovedError,
  SymlinkLoopError,
  type WalkOptions,
  type WalkRoot,
  type Walked,
} from './fd-walk.js';
import { isWithin } from './is-within.js';
import { WorkspaceAccessError, type WorkspaceAccessReason } from './workspace-access-error.js';
import type { PathAccess } from '../core/workspace-types.js';

/** Longest path accepted (Linux PATH_MAX). */
const MAX_PATH_LENGTH = 4096;

/** Pseudo filesystems never reachable through the workspace, whatever the roots are. */
const PSEUDO_FILESYSTEMS = ['/proc', '/sys'];

/**
 * True when a path segment is one gemini-cli's workspace blocks: `.git`, `.env` (and `.env.<suffix>`),
 * `node_modules`, `gha-creds-*.json`. Compared case-insensitively, ignoring an NTFS `:stream` suffix and
 * trailing spaces or dots (so `.GIT`, `.git.` and `.git::$DATA` are blocked too).
 */
export function isBlockedSegment(segment: string): boolean {
  const name = segment
    .replace(/:.*$/s, '')
    .replace(/[ .]+$/, '')
    .toLowerCase();
  return (
    name === '.git' ||
    name === '.env' ||
    name.startsWith('.env.') ||
    name === 'node_modules' ||
    /^gha-creds-.*\.json$/.test(name)
  );
}

/** The first blocked segment of `relative` (a path relative to a root), if any. */
function blockedSegmentOf(relative: string): string | undefined {
  return relative.split(/[\\/]/).find((segment) => segment !== '' && isBlockedSegment(segment));
}

/** A root the workspace grants access to. */
export interface WorkspaceRoot {
  /** Absolute real path (a directory, or a single file for read-only roots). */
  path: string;
  /** Read-only roots (activated skill folders) can be read, never written. */
  readOnly: boolean;
}

/** A path the guard approved, with the walk that reached it; {@link close} releases its descriptors. */
export interface Resolution {
  /** The path as given. */
  readonly input: string;
  readonly walked: Walked;
  readonly walker: PathWalker;
  close(): void;
}

/**
 * Decides whether a path may be read or written: resolves it against the cwd, walks it from a root's
 * descriptor (following symlinks itself, see {@link PathWalker}), and requires the object it reached to lie
 * inside a root without passing a blocked segment.
 */
export class PathGuard {
  private readonly rootList: WalkRoot[] = [];

  constructor(
    /** The workspace cwd (absolute real path). */
    readonly cwd: string,
  ) {
    this.rootList.push(describeRoot(cwd, false));
  }

  /** The roots, writable first. */
  get roots(): readonly WorkspaceRoot[] {
    return [...this.rootList]
      .sort((a, b) => Number(a.readOnly) - Number(b.readOnly))
      .map((root) => ({ path: root.path, readOnly: root.readOnly }));
  }

  /** True when `real` is exactly a root (by inode when given, else by path). */
  isRoot(real: string, identity?: string): boolean {
    return this.rootList.some((root) =>
      identity === undefined ? root.path === real : root.identity === identity,
    );
  }

  /**
   * Adds a root (a directory; `readOnly` roots may also be single files) and returns its real path. Throws a
   * `ConfigurationError` when it does not exist.
   */
  addRoot(input: string, readOnly: boolean): string {
    const absolute = path.resolve(this.cwd, expandHome(input));
    let root: WalkRoot;
    try {
      root = describeRoot(realpathSync(absolute), readOnly);
      if (!readOnly && !root.directory) {
        throw new ConfigurationError(
          `Workspace directory is not a directory: ${absolute}. Pass a directory.`,
        );
      }
    } catch (error) {
      if (error instanceof ConfigurationError) throw error;
      throw new ConfigurationError(
        `Workspace directory does not exist: ${absolute}. Create it or remove it from the options.`,
        { cause: error },
      );
    }
    const existing = this.rootList.find((r) => r.path === root.path);
    if (existing) {
      if (!readOnly) existing.readOnly = false;
    } else {
      this.rootList.push(root);
    }
    return root.path;
  }

  /**
   * Returns the absolute real path `input` designates when `access` to it is allowed; throws a
   * {@link WorkspaceAccessError} otherwise.
   */
  async check(input: string, access: PathAccess): Promise<string> {
    const resolution = this.resolve(input, access);
    resolution.close();
    return resolution.walked.realPath;
  }

  /**
   * Walks `input` and approves it for `access`, keeping the walk's descriptors open so the caller acts on
   * exactly the objects that were checked. Throws a {@link WorkspaceAccessError}; the caller must `close()`
   * the result.
   */
  resolve(input: string, access: PathAccess, options: WalkOptions = {}): Resolution {
    const cleaned = sanitize(input);
    const absolute = path.resolve(this.cwd, cleaned);
    for (const pseudo of PSEUDO_FILESYSTEMS) {
      if (isWithin(absolute, pseudo)) throw this.outside(input, absolute);
    }
    const walker = new PathWalker(this.rootList, isBlockedSegment);
    try {
      const walked = this.walk(walker, input, absolute, access, options);
      this.decide(input, absolute, walked, access);
      return { input, walked, walker, close: () => walker.close() };
    } catch (error) {
      walker.close();
      throw error;
    }
  }

  private walk(
    walker: PathWalker,
    input: string,
    absolute: string,
    access: PathAccess,
    options: WalkOptions,
  ): Walked {
    try {
      // Parents are only created for writes, and only inside writable roots (the walker checks each one).
      return walker.walk(absolute, {
        ...options,
        createParents: access === 'write' && options.createParents === true,
      });
    } catch (error) {
      if (error instanceof SymlinkLoopError) {
        throw refuse(input, 'SYMLINK_LOOP', `Invalid path: "${input}" is a symbolic link loop.`);
      }
      if (error instanceof RootMovedError) {
        throw refuse(input, 'INVALID_PATH', `Invalid path: "${input}": ${error.message}`);
      }
      throw refuse(
        input,
        'INVALID_PATH',
        `Invalid path: "${input}" cannot be resolved.`,
        undefined,
        error,
      );
    }
  }

  private decide(input: string, absolute: string, walked: Walked, access: PathAccess): void {
    const real = walked.realPath;
    for (const pseudo of PSEUDO_FILESYSTEMS) {
      if (isWithin(real, pseudo)) throw this.outside(input, real);
    }
    const containing = walked.inside;
    if (containing.length === 0) throw this.outside(input, real);
    for (const { root, blocked: reached } of containing) {
      const blocked =
        reached ??
        (isWithin(absolute, root.path)
          ? blockedSegmentOf(path.relative(root.path, absolute))
          : undefined);
      if (blocked !== undefined) {
        throw refuse(
          input,
          'PATH_BLOCKED',
          `Path is blocked: "${input}" passes through "${blocked}", which the workspace never exposes ` +
            '(.git, .env, node_modules and gha-creds-*.json are off limits to tools).',
          real,
        );
      }
    }
    if (access === 'write' && containing.every(({ root }) => root.readOnly)) {
      throw refuse(
        input,
        'PATH_READ_ONLY',
        `Path is read-only: "${input}" resolves to "${real}", inside a read-only workspace root.`,
        real,
      );
    }
  }

  private outside(input: string, real: string): WorkspaceAccessError {
    const dirs = this.rootList
      .filter((root) => !root.readOnly)
      .map((root) => root.path)
      .join(', ');
    return refuse(
      input,
      'PATH_NOT_IN_WORKSPACE',
      `Path not in workspace: Attempted path "${input}" resolves outside the allowed workspace ` +
        `directories: ${dirs}`,
      real,
    );
  }
}

function describeRoot(real: string, readOnly: boolean): WalkRoot {
  const info = statSync(real, { bigint: true });
  return {
    path: real,
    readOnly,
    identity: `${info.dev}:${info.ino}`,
    directory: info.isDirectory(),
  };
}

/** Builds the guard's refusal. */
export function refuse(
  input: string,
  reason: WorkspaceAccessReason,
  message: string,
  resolvedPath?: string,
  cause?: unknown,
): WorkspaceAccessError {
  return new WorkspaceAccessError(
    message,
    { path: input, reason, ...(resolvedPath === undefined ? {} : { resolvedPath }) },
    cause === undefined ? {} : { cause },
  );
}

/** Expands `~` and `~/…` to the home directory. */
function expandHome(input: string): string {
  if (input === '~') return os.homedir();
  if (input.startsWith('~/')) return path.join(os.homedir(), input.slice(2));
  return input;
}

/** Validates the raw string and turns `file://` URLs and `~` forms into plain paths. */
function sanitize(input: unknown): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw refuse(String(input), 'INVALID_PATH', 'Invalid path: the path is empty.');
  }
  const shown = JSON.stringify(input);
  if (/[\0\n\r\t]/.test(input)) {
    throw refuse(
      input,
      'INVALID_PATH',
      `Invalid path: ${shown} contains a null byte or a control character.`,
    );
  }
  if (input.length > MAX_PATH_LENGTH) {
    throw refuse(input, 'INVALID_PATH', `Invalid path: longer than ${MAX_PATH_LENGTH} characters.`);
  }
  let value = input;
  if (value.startsWith('file://')) {
    try {
      value = decodeURIComponent(new URL(value).pathname);
    } catch {
      throw refuse(input, 'INVALID_PATH', `Invalid path: ${shown} is not a valid file URL.`);
    }
    if (value.includes('\0')) {
      throw refuse(input, 'INVALID_PATH', `Invalid path: ${shown} contains a null byte.`);
    }
  }
  if (/^~[^/]/.test(value)) {
    throw refuse(
      input,
      'INVALID_PATH',
      `Invalid path: ${shown} uses the ~user form, which is not supported. Use an absolute path.`,
    );
  }
  return expandHome(value);
}
