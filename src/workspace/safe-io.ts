import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  read,
  readdirSync,
  rmdirSync,
  unlinkSync,
  write,
} from 'node:fs';
import { promisify } from 'node:util';
import { DESCRIPTOR_WALK, type PathWalker, type WalkNode } from './fd-walk.js';
import { refuse, type PathGuard } from './path-guard.js';
import { FileTooLargeError } from './workspace-access-error.js';

const readAsync = promisify(read);
const writeAsync = promisify(write);

const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOCTTY = constants.O_NOCTTY ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Default cap on the bytes any read path loads (gemini-cli's `read_file` limit). */
export const DEFAULT_MAX_READ_BYTES = 20 * 1024 * 1024;

/** How often a write retries when the path keeps changing under it. */
const MAX_WRITE_ATTEMPTS = 8;

/** Bytes read per `read(2)`. */
const READ_CHUNK = 1024 * 1024;

/** Read limits of a workspace. */
export interface ReadLimits {
  /** Largest file any read path loads. */
  maxReadBytes: number;
  /** Read regular files with more than one hard link (default false: refused). */
  allowHardLinkReads: boolean;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

function identityOf(info: { dev: bigint; ino: bigint }): string {
  return `${info.dev}:${info.ino}`;
}

function notRegular(input: string, real: string, verb: string): Error {
  return refuse(
    input,
    'NOT_REGULAR_FILE',
    `Refusing to ${verb} "${input}": it is not a regular file (a FIFO, socket or device, which can block ` +
      'forever or has side effects).',
    real,
  );
}

function hardLinked(input: string, real: string, verb: string, nlink: number | bigint): Error {
  return refuse(
    input,
    'HARD_LINK',
    `Refusing to ${verb} "${input}": it has ${nlink} hard links, and another name for the same file may lie ` +
      'outside the workspace.',
    real,
  );
}

/** Opens a reached node for I/O: through its descriptor on Linux (the very inode that was checked). */
function reopen(node: WalkNode, flags: number): number {
  return DESCRIPTOR_WALK
    ? openSync(node.ref, flags | NONBLOCK | NOCTTY)
    : openSync(node.realPath, flags | NONBLOCK | NOCTTY | NOFOLLOW);
}

/**
 * Reads a reached regular file, refusing FIFOs, sockets, devices, hard-linked files (unless allowed) and
 * files above the cap before any blocking call; a file that grows past the cap while being read is refused
 * too. Returns the bytes.
 */
export async function readNodeBytes(
  node: WalkNode,
  input: string,
  limits: ReadLimits,
): Promise<Buffer> {
  if (node.kind !== 'file') throw notRegular(input, node.realPath, 'read');
  if (!limits.allowHardLinkReads && node.nlink > 1) {
    throw hardLinked(input, node.realPath, 'read', node.nlink);
  }
  if (node.size > limits.maxReadBytes) {
    throw new FileTooLargeError({ path: input, size: node.size, limit: limits.maxReadBytes });
  }
  const fd = reopen(node, constants.O_RDONLY);
  try {
    const info = fstatSync(fd, { bigint: true });
    if (!info.isFile()) throw notRegular(input, node.realPath, 'read');
    if (identityOf(info) !== node.identity) {
      throw refuse(input, 'PATH_CHANGED', `"${input}" changed while it was opened.`, node.realPath);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(READ_CHUNK, limits.maxReadBytes + 1 - total);
      const buffer = Buffer.allocUnsafe(Math.max(want, 1));
      const { bytesRead } = await readAsync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limits.maxReadBytes) {
        throw new FileTooLargeError({ path: input, size: total, limit: limits.maxReadBytes });
      }
      chunks.push(buffer.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

async function writeAll(fd: number, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await writeAsync(fd, data, offset, data.length - offset, null);
    offset += bytesWritten;
  }
}

/**
 * Writes `data` to `input` (creating missing parent directories inside writable roots): an existing file is
 * reopened through the descriptor that was checked; a new one is created `O_EXCL | O_NOFOLLOW` in the checked
 * directory. FIFOs, sockets, devices, directories and hard-linked files are refused. When a concurrent rename
 * gets in the way, the whole walk is retried a few times, then refused with `PATH_CHANGED`.
 */
export async function writeBytes(guard: PathGuard, input: string, data: Buffer): Promise<void> {
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const resolution = guard.resolve(input, 'write', { createParents: true });
    try {
      const { node, parent, name, realPath } = resolution.walked;
      let fd: number;
      if (node) {
        if (node.kind === 'directory') {
          throw fsError('EISDIR', `illegal operation on a directory, open '${realPath}'`);
        }
        if (node.kind !== 'file') throw notRegular(input, realPath, 'write');
        if (node.nlink > 1) throw hardLinked(input, realPath, 'write', node.nlink);
        fd = reopen(node, constants.O_WRONLY);
      } else {
        if (!parent) throw fsError('ENOENT', `no such file or directory, open '${realPath}'`);
        try {
          fd = openSync(
            resolution.walker.childRef(parent, name),
            constants.O_WRONLY |
              constants.O_CREAT |
              constants.O_EXCL |
              NOFOLLOW |
              NONBLOCK |
              NOCTTY,
            0o666,
          );
        } catch (error) {
          const code = codeOf(error);
          // Something appeared at the name since the walk (a file, a swapped-in symlink): walk again.
          if (code === 'EEXIST' || code === 'ELOOP') continue;
          throw error;
        }
      }
      try {
        const info = fstatSync(fd, { bigint: true });
        if (!info.isFile()) throw notRegular(input, realPath, 'write');
        if (node && identityOf(info) !== node.identity) continue;
        if (info.nlink > 1n) throw hardLinked(input, realPath, 'write', info.nlink);
        ftruncateSync(fd, 0);
        await writeAll(fd, data);
      } finally {
        closeSync(fd);
      }
      return;
    } finally {
      resolution.close();
    }
  }
  throw refuse(
    input,
    'PATH_CHANGED',
    `"${input}" kept changing while it was written (a concurrent rename or symlink swap); nothing was written.`,
  );
}

/**
 * Removes everything inside a walked directory, never following a symlink at any depth: each entry is
 * opened `O_NOFOLLOW` through the directory's descriptor; directories are emptied the same way and removed,
 * everything else (symlinks included) is unlinked where it is.
 */
export async function removeTree(walker: PathWalker, dir: WalkNode): Promise<void> {
  let count = 0;
  for (const name of readdirSync(dir.ref)) {
    count += 1;
    if (count % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
    let child: WalkNode;
    try {
      child = walker.openChild(dir, name);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') continue;
      throw error;
    }
    try {
      if (child.kind === 'directory') {
        await removeTree(walker, child);
        rmdirSync(walker.childRef(dir, name));
      } else {
        unlinkSync(walker.childRef(dir, name));
      }
    } finally {
      walker.release(child);
    }
  }
}
