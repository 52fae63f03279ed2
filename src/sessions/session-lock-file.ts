import { randomUUID } from 'node:crypto';
import { link, rename, stat, unlink, utimes } from 'node:fs/promises';
import { readFile, writeFile } from './descriptor-retry.js';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { silentLogger, type Logger } from '../logger.js';
import { abortableSleep, throwIfAborted } from '../core/abort.js';
import { fastLockInfo } from './flat-record-fast-path.js';
import { forgetLockOnExit, removeLockOnExit } from './lock-exit-cleanup.js';
import { sessionLockedError } from './store-errors.js';

/** Content of a session lock file: who holds the session. */
export const SessionLockInfo = z.looseObject({
  version: z.literal(1),
  sessionId: z.string(),
  pid: z.number(),
  hostname: z.string(),
  /** `performance.timeOrigin` of the holder: tells a live holder from a dead one whose pid was reused. */
  processStartedAt: z.number(),
  createdAt: z.string(),
  token: z.string(),
  /** The holder is between turns: the next writer that asks takes the lock over (see `setIdle`). */
  idle: z.boolean().optional(),
});
/** Content of a session lock file. */
export type SessionLockInfo = z.infer<typeof SessionLockInfo>;

/** Validates a lock file's content: the common shape by hand (`flat-record-fast-path.ts`), else the schema. */
export function lockInfoOf(json: unknown): SessionLockInfo | undefined {
  const fast = fastLockInfo(json);
  if (fast !== undefined) return fast as SessionLockInfo;
  const result = SessionLockInfo.safeParse(json);
  return result.success ? result.data : undefined;
}

/** Timing of the lease lock. */
export interface SessionLockOptions {
  /** A lock whose heartbeat (file mtime) is older than this is stale, whoever holds it. Default 120 000 ms. */
  staleMs?: number;
  /** How often the holder refreshes the lock's mtime. Default 15 000 ms. */
  heartbeatMs?: number;
  /** Logger for takeovers. */
  logger?: Logger;
  /** Aborts acquiring. */
  signal?: AbortSignal;
}

/** A half-written or foreign lock younger than this is treated as live; older, as garbage. */
const UNREADABLE_GRACE_MS = 5_000;
const MAX_ATTEMPTS = 50;
const processStartedAt = (): number => Math.round(performance.timeOrigin);

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === 'EPERM';
  }
}

interface ObservedLock {
  raw: string;
  info: SessionLockInfo | undefined;
  mtimeMs: number;
}

async function observe(path: string): Promise<ObservedLock | undefined> {
  try {
    const [raw, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    let parsed: SessionLockInfo | undefined;
    try {
      parsed = lockInfoOf(JSON.parse(raw));
    } catch {
      parsed = undefined;
    }
    return { raw, info: parsed, mtimeMs: info.mtimeMs };
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

/** Why a lock is stale, or undefined when its holder is (or may be) alive. */
function staleReason(lock: ObservedLock, staleMs: number): string | undefined {
  const age = Date.now() - lock.mtimeMs;
  const { info } = lock;
  if (info === undefined) return age > UNREADABLE_GRACE_MS ? 'unreadable lock file' : undefined;
  if (info.idle === true) return 'its holder is idle and hands it over';
  if (age > staleMs) return `no heartbeat for ${Math.round(age / 1000)} s`;
  if (info.hostname !== hostname()) return undefined;
  if (info.pid === process.pid) {
    return Math.abs(info.processStartedAt - processStartedAt()) > 1
      ? 'left by an earlier process'
      : undefined;
  }
  return pidAlive(info.pid) ? undefined : `process ${info.pid} is not running`;
}

function describeHolder(lock: ObservedLock): string {
  const { info } = lock;
  if (info === undefined) return 'a writer whose lock file is being written';
  if (info.hostname === hostname() && info.pid === process.pid)
    return `another session of this process`;
  return `process ${info.pid} on ${info.hostname} (since ${info.createdAt})`;
}

/**
 * Runs `work` holding the exclusive `<lock>.takeover` guard file (takeovers and idle/busy changes of one lock are
 * serialized by it). Returns `{ ran: false }` when another process holds the guard; a guard older than 5 s is
 * garbage and removed.
 */
async function underGuard<T>(
  lockPath: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const guard = `${lockPath}.takeover`;
  try {
    await writeFile(guard, `${process.pid}\n`, { flag: 'wx' });
  } catch (err) {
    if (errorCode(err) !== 'EEXIST') throw err;
    const guardInfo = await stat(guard).catch(() => undefined);
    if (guardInfo !== undefined && Date.now() - guardInfo.mtimeMs > UNREADABLE_GRACE_MS) {
      await unlink(guard).catch(() => undefined);
    }
    return { ran: false };
  }
  try {
    return { ran: true, value: await work() };
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/** Creates `path` holding `content` only if it does not exist: a temp file hard-linked into place (atomic). */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(tmp, content, { flag: 'wx' });
  try {
    await link(tmp, path);
    return true;
  } catch (err) {
    const code = errorCode(err);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // No hard links on this filesystem: O_EXCL create, then write.
    try {
      await writeFile(path, content, { flag: 'wx' });
      return true;
    } catch (err2) {
      if (errorCode(err2) === 'EEXIST') return false;
      throw err2;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * The file lock behind a file-store lease: `<lock path>` holds JSON `{pid, hostname, processStartedAt,
 * createdAt, token}`, created atomically (exclusive link of a fully written temp file), its mtime refreshed as a
 * heartbeat. A lock is taken over when its holder is dead: same host and the pid is not running (or is our pid
 * but another process instance), or no heartbeat for `staleMs` (any host). Takeovers are serialized by an
 * exclusive `<lock path>.takeover` guard, so two processes never both take over the same stale lock. A lock still
 * held when the process exits normally is removed by an `exit` listener (see {@link removeLockOnExit}).
 */
export class SessionLockFile {
  private heartbeat: NodeJS.Timeout | undefined;
  private released = false;
  /** Set when the heartbeat found that another writer replaced our lock (it judged us dead). */
  lost = false;

  private constructor(
    readonly path: string,
    readonly info: SessionLockInfo,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes the lock for `sessionId` at `path`.
   *
   * @throws SessionLockedError when a live holder has it.
   */
  static async acquire(
    path: string,
    sessionId: string,
    options: SessionLockOptions = {},
  ): Promise<SessionLockFile> {
    const staleMs = options.staleMs ?? 120_000;
    const logger = options.logger ?? silentLogger;
    const info: SessionLockInfo = {
      version: 1,
      sessionId,
      pid: process.pid,
      hostname: hostname(),
      processStartedAt: processStartedAt(),
      createdAt: new Date().toISOString(),
      token: randomUUID(),
    };
    const content = `${JSON.stringify(info)}\n`;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      throwIfAborted(options.signal);
      if (await createExclusive(path, content)) {
        const lock = new SessionLockFile(path, info, logger);
        lock.startHeartbeat(options.heartbeatMs ?? 15_000);
        removeLockOnExit(path, info.token);
        return lock;
      }
      const current = await observe(path);
      if (current === undefined) continue;
      const reason = staleReason(current, staleMs);
      if (reason === undefined) throw sessionLockedError(sessionId, describeHolder(current));
      if (!(await SessionLockFile.removeStale(path, current, reason, logger))) {
        await abortableSleep(20 + attempt * 10, options.signal);
      }
    }
    const last = await observe(path);
    throw sessionLockedError(sessionId, last ? describeHolder(last) : 'another writer');
  }

  /** Removes a stale lock under the takeover guard. Returns false when another process is taking over. */
  private static async removeStale(
    path: string,
    stale: ObservedLock,
    reason: string,
    logger: Logger,
  ): Promise<boolean> {
    const done = await underGuard(path, async () => {
      const again = await observe(path);
      if (again === undefined || again.raw !== stale.raw) return;
      await unlink(path).catch((err: unknown) => {
        if (errorCode(err) !== 'ENOENT') throw err;
      });
      logger.info('took over a session lock', { path, reason, previousHolder: stale.info });
    });
    return done.ran;
  }

  /**
   * Marks the holder idle (`true`: the next writer that asks takes the lock over) or busy again (`false`). Done
   * under the takeover guard, so a takeover and a holder waking up never both win.
   *
   * @throws SessionLockedError (busy) when another writer took the lock over meanwhile.
   */
  async setIdle(idle: boolean): Promise<void> {
    if (this.released) return;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const done = await underGuard(this.path, async () => {
        const current = await observe(this.path);
        if (current?.info?.token !== this.info.token) return false;
        const next = `${JSON.stringify({ ...this.info, idle })}\n`;
        const tmp = `${this.path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
        await writeFile(tmp, next, { flag: 'wx' });
        await rename(tmp, this.path).catch(async (err: unknown) => {
          await unlink(tmp).catch(() => undefined);
          throw err;
        });
        return true;
      });
      if (!done.ran) {
        await abortableSleep(5 + attempt * 5);
        continue;
      }
      if (done.value) return;
      this.markLost();
      if (idle) return;
      throw sessionLockedError(this.info.sessionId, 'a newer session that took it over');
    }
    throw sessionLockedError(this.info.sessionId, 'a writer that keeps the lock busy');
  }

  private markLost(): void {
    this.lost = true;
    forgetLockOnExit(this.path);
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
  }

  private startHeartbeat(intervalMs: number): void {
    this.heartbeat = setInterval(() => {
      void this.beat();
    }, intervalMs);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    if (this.released) return;
    let current: ObservedLock | undefined;
    try {
      current = await observe(this.path);
    } catch (error) {
      // Unreadable now (EMFILE with thousands of sessions busy at once, EIO): no sign of a takeover. The heartbeat
      // is skipped and the next one reads again; only a lock gone or holding another token is lost.
      this.logger.debug('session lock heartbeat could not read the lock', {
        path: this.path,
        error: String(error),
      });
      return;
    }
    if (current?.info?.token !== this.info.token) {
      this.markLost();
      this.logger.info('session lock was taken over by another writer', { path: this.path });
      return;
    }
    const now = new Date();
    await utimes(this.path, now, now).catch(() => undefined);
  }

  /** Stops the heartbeat and removes the lock file if it is still ours. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
    forgetLockOnExit(this.path);
    const current = await observe(this.path).catch(() => undefined);
    if (current?.info?.token === this.info.token) {
      await unlink(this.path).catch(() => undefined);
    }
  }
}
