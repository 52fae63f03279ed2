import { randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { open } from './descriptor-retry.js';
import { dirname } from 'node:path';
import { InternalError } from '../errors.js';

/**
 * When appends reach the disk:
 * - `data` (default): each append is on stable storage when it resolves (the file is opened `O_DSYNC` where the
 *   platform has it, else `fdatasync` follows the write), so a completed message survives a power loss or OS crash,
 *   not only a killed process;
 * - `none`: leave flushing to the OS (a killed process loses nothing — the write is in the page cache — but an
 *   OS crash may lose the last seconds).
 */
export type SyncPolicy = 'data' | 'none';

/** Makes a newly created directory entry durable (best effort: not every platform can fsync a directory). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows and some filesystems cannot open or fsync directories; nothing more can be done there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * `O_DSYNC` for policy `data` where the platform has it: each `write` then returns once its data (and what is needed
 * to read it back) is on stable storage — what `write` + `fdatasync` give, in one thread-pool call instead of two.
 * 0 elsewhere (Windows), where {@link JsonlAppender.append} calls `fdatasync` after the write.
 */
function syncFlag(sync: SyncPolicy): number {
  return sync === 'data' ? ((constants as { O_DSYNC?: number }).O_DSYNC ?? 0) : 0;
}

/** Which file an appender wrote, and how long it made it: compared before every append. */
export interface FileIdentity {
  dev: number;
  ino: number;
  /** The size the file has after this appender's last write. */
  size: number;
}

/** How the file changed behind an appender's back. */
export type FileChange = 'deleted' | 'replaced' | 'truncated' | 'grown';

/** What happened to the file `identity` described, seen through its name (`onDisk`) and an open descriptor. */
export function compareIdentity(
  identity: FileIdentity,
  onDisk: Stats | undefined,
  open: Stats,
): FileChange | undefined {
  if (onDisk === undefined || open.nlink === 0) return 'deleted';
  if (onDisk.ino !== open.ino || onDisk.dev !== open.dev) return 'replaced';
  if (open.ino !== identity.ino || open.dev !== identity.dev) return 'replaced';
  if (open.size < identity.size) return 'truncated';
  if (open.size > identity.size) return 'grown';
  return undefined;
}

/** `stat` that gives undefined for a missing file. */
export async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Replaces `path` with `text` atomically: a temp file in the same folder, synced, renamed over it; the folder is
 * synced so the new name survives a crash (policy `data`).
 */
export async function writeFileAtomic(path: string, text: string, sync: SyncPolicy): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const handle = await open(tmp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    if (sync === 'data') await handle.datasync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  if (sync === 'data') await syncDirectory(dirname(path));
}

/**
 * Appends whole JSON lines to one file through a single open descriptor (`O_APPEND`). Each {@link append} is one
 * `write` of the complete lines, so the file never holds half of a record unless the process dies inside that
 * write; such a torn tail is skipped by the reader, and the next append starts on a fresh line because the
 * appender checks the file's last byte when it opens it. Cost per append is independent of the file size: the
 * file is never read back or rewritten.
 */
export class JsonlAppender {
  private needsNewline: boolean;
  private closed = false;
  private current: FileIdentity;
  /** Device and inode of the open descriptor's file (fixed for its lifetime). */
  private readonly opened: { dev: number; ino: number };

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly sync: SyncPolicy,
    needsNewline: boolean,
    opened: Stats,
  ) {
    this.needsNewline = needsNewline;
    this.current = { dev: opened.dev, ino: opened.ino, size: opened.size };
    this.opened = { dev: opened.dev, ino: opened.ino };
  }

  /** The file as this appender left it (its size after the last write). */
  get identity(): FileIdentity {
    return { ...this.current };
  }

  /**
   * How the file changed since this appender (or `since`, an identity remembered from an earlier appender of the
   * same file) last wrote it: deleted, replaced by another file, truncated, or grown by another writer; undefined
   * when nothing changed.
   *
   * One `stat` of the path when nothing changed: if `since` is this descriptor's file (its device and inode never
   * change) and the path still names that inode with `since`'s size, then the file is linked (the path links it),
   * not replaced, and the descriptor's size is the path's — exactly what {@link compareIdentity} would conclude from
   * both `stat`s. Anything else takes both `stat`s (path and descriptor) to say what changed.
   */
  async changedSince(since: FileIdentity = this.current): Promise<FileChange | undefined> {
    if (since.ino === this.opened.ino && since.dev === this.opened.dev) {
      const onDisk = await statOrUndefined(this.path);
      if (
        onDisk !== undefined &&
        onDisk.ino === since.ino &&
        onDisk.dev === since.dev &&
        onDisk.size === since.size
      )
        return undefined;
    }
    const [onDisk, open] = await Promise.all([statOrUndefined(this.path), this.handle.stat()]);
    return compareIdentity(since, onDisk, open);
  }

  /** Creates a new file (fails with `EEXIST` if it exists) and makes its directory entry durable. */
  static async create(path: string, sync: SyncPolicy): Promise<JsonlAppender> {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;
    const handle = await open(path, flags | syncFlag(sync), 0o644);
    if (sync === 'data') await syncDirectory(dirname(path));
    return new JsonlAppender(path, handle, sync, false, await handle.stat());
  }

  /** Opens an existing file for appending; notes whether its last line was torn (no final newline). */
  static async openExisting(path: string, sync: SyncPolicy): Promise<JsonlAppender> {
    const handle = await open(path, constants.O_RDWR | constants.O_APPEND | syncFlag(sync));
    try {
      const opened = await handle.stat();
      let needsNewline = false;
      if (opened.size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, opened.size - 1);
        needsNewline = last[0] !== 0x0a;
      }
      return new JsonlAppender(path, handle, sync, needsNewline, opened);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** Appends the given JSON texts as lines with one `write` call, then syncs per the policy. */
  async append(jsonLines: readonly string[]): Promise<void> {
    if (this.closed) throw new InternalError(`appender for ${this.path} is closed`);
    if (jsonLines.length === 0) return;
    const text = `${this.needsNewline ? '\n' : ''}${jsonLines.join('\n')}\n`;
    const buffer = Buffer.from(text, 'utf8');
    // From here until the write completes, a failure may leave a partial line behind.
    this.needsNewline = true;
    let offset = 0;
    while (offset < buffer.length) {
      const { bytesWritten } = await this.handle.write(buffer, offset, buffer.length - offset);
      offset += bytesWritten;
      // Counted as written, so a write that fails half-way is not mistaken for another writer's.
      this.current = { ...this.current, size: this.current.size + bytesWritten };
    }
    this.needsNewline = false;
    if (this.sync === 'data' && syncFlag(this.sync) === 0) await this.handle.datasync();
  }

  /** Closes the descriptor. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
