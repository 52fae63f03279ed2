import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InternalError } from '../errors.js';

/**
 * When appends reach the disk:
 * - `data` (default): `fdatasync` after every append, so a completed message survives a power loss or OS crash,
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
 * Appends whole JSON lines to one file through a single open descriptor (`O_APPEND`). Each {@link append} is one
 * `write` of the complete lines, so the file never holds half of a record unless the process dies inside that
 * write; such a torn tail is skipped by the reader, and the next append starts on a fresh line because the
 * appender checks the file's last byte when it opens it. Cost per append is independent of the file size: the
 * file is never read back or rewritten.
 */
export class JsonlAppender {
  private needsNewline: boolean;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly sync: SyncPolicy,
    needsNewline: boolean,
  ) {
    this.needsNewline = needsNewline;
  }

  /** Creates a new file (fails with `EEXIST` if it exists) and makes its directory entry durable. */
  static async create(path: string, sync: SyncPolicy): Promise<JsonlAppender> {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;
    const handle = await open(path, flags, 0o644);
    if (sync === 'data') await syncDirectory(dirname(path));
    return new JsonlAppender(path, handle, sync, false);
  }

  /** Opens an existing file for appending; notes whether its last line was torn (no final newline). */
  static async openExisting(path: string, sync: SyncPolicy): Promise<JsonlAppender> {
    const handle = await open(path, constants.O_RDWR | constants.O_APPEND);
    try {
      const { size } = await handle.stat();
      let needsNewline = false;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        needsNewline = last[0] !== 0x0a;
      }
      return new JsonlAppender(path, handle, sync, needsNewline);
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
    }
    this.needsNewline = false;
    if (this.sync === 'data') await this.handle.datasync();
  }

  /** Closes the descriptor. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
