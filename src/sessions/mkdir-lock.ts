import { mkdir, realpath, rm, stat, utimes } from 'node:fs/promises';
import { SessionError } from '../errors.js';
import { abortableSleep } from '../core/abort.js';

/** Timing of {@link withMkdirLock} (defaults match gemini-cli's use of proper-lockfile). */
export interface MkdirLockOptions {
  /** A lock whose directory mtime is older than this is stale and removed. Default 10 000 ms. */
  staleMs?: number;
  /** Wait between attempts. Default 100 ms. */
  retryDelayMs?: number;
  /** Give up after this long. Default 10 000 ms. */
  timeoutMs?: number;
  /** Aborts the wait. */
  signal?: AbortSignal;
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Runs `fn` while holding a lock compatible with `proper-lockfile` (which gemini-cli uses for `projects.json`):
 * the lock is the directory `<realpath(file)>.lock`, created with `mkdir` (atomic), its mtime refreshed every
 * `staleMs / 2` while held, considered stale when older than `staleMs`, and removed on release. `file` must exist.
 *
 * @throws SessionError (code `SESSION_STORE_LOCK_TIMEOUT`) when the lock stays busy for `timeoutMs`.
 */
export async function withMkdirLock<T>(
  file: string,
  fn: () => Promise<T>,
  options: MkdirLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const lockDir = `${await realpath(file)}.lock`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (err) {
      if (errorCode(err) !== 'EEXIST') throw err;
    }
    const info = await stat(lockDir).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > staleMs) {
      await rm(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new SessionError(
        `Timed out after ${timeoutMs} ms waiting for the lock ${lockDir}. Another gemini process is updating ` +
          `it; if none is running, delete that directory.`,
        { code: 'SESSION_STORE_LOCK_TIMEOUT' },
      );
    }
    await abortableSleep(retryDelayMs, options.signal);
  }
  const refresh = setInterval(
    () => {
      const now = new Date();
      utimes(lockDir, now, now).catch(() => undefined);
    },
    Math.max(1, Math.floor(staleMs / 2)),
  );
  refresh.unref();
  try {
    return await fn();
  } finally {
    clearInterval(refresh);
    await rm(lockDir, { recursive: true, force: true });
  }
}
