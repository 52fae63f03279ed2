import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../logger.js';
import type { FileLease } from './file-lease.js';
import {
  JsonlAppender,
  statOrUndefined,
  writeFileAtomic,
  type FileChange,
  type SyncPolicy,
} from './jsonl-appender.js';
import type { StoreWarning } from './session-store.js';
import { sessionLockedError } from './store-errors.js';

/** What the writer needs from its store. */
export interface SessionFileWriterContext {
  sync: SyncPolicy;
  logger: Logger;
  /** Finds the session's file the first time (and folds it into the lease). */
  openFirst(lease: FileLease): Promise<JsonlAppender>;
}

/** Warning code of a session file rewritten from memory. */
export const SESSION_FILE_REWRITTEN = 'SESSION_FILE_REWRITTEN';

/**
 * The appender to write the lease's next records with, after checking that the session file is still the one our
 * last write left (same device and inode, same size, still linked): every append pays a `stat` of the path for
 * that (and a `stat` of the descriptor too when something changed, to say what).
 *
 * - deleted, truncated or replaced under us: the file is rewritten from the lease's in-memory fold (atomically:
 *   temp file + rename), a replacing file is kept beside it as `<name>.replaced-<time>`, and a warning says so —
 *   the session on disk is complete again before the new records land;
 * - grown: another program appended to the session (gemini-cli resumed it, say) — our history is stale, so the
 *   write is refused with `SessionLockedError` rather than interleaving two conversations.
 */
export async function writableAppender(
  lease: FileLease,
  ctx: SessionFileWriterContext,
  warnings: StoreWarning[],
): Promise<JsonlAppender> {
  let appender = lease.appender;
  if (appender === undefined) {
    if (lease.path === undefined) return ctx.openFirst(lease);
    if ((await statOrUndefined(lease.path)) === undefined) {
      return rewrite(lease, 'deleted', ctx, warnings);
    }
    const since = lease.identity;
    appender = await JsonlAppender.openExisting(lease.path, ctx.sync);
    lease.appender = appender;
    if (since !== undefined) lease.identity = since;
  }
  const change = await appender.changedSince(lease.identity);
  if (change === undefined) return appender;
  if (change === 'grown') {
    throw sessionLockedError(
      lease.sessionId,
      `another program, which appended to ${lease.path ?? 'its file'} since this session last wrote it ` +
        '(resume the session again to continue with its latest history)',
    );
  }
  return rewrite(lease, change, ctx, warnings);
}

async function rewrite(
  lease: FileLease,
  change: Exclude<FileChange, 'grown'>,
  ctx: SessionFileWriterContext,
  warnings: StoreWarning[],
): Promise<JsonlAppender> {
  const path = lease.path as string;
  const fold = lease.fold;
  await lease.closeFile();
  if (fold === undefined) {
    throw sessionLockedError(lease.sessionId, `an unknown writer that changed ${path}`);
  }
  await mkdir(dirname(path), { recursive: true });
  let kept = '';
  if (change === 'replaced') {
    const aside = `${path}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(path, aside).catch(() => undefined);
    kept = ` (the file found in its place was kept as ${aside})`;
  }
  const lines = fold.records().map((r) => JSON.stringify(r));
  await writeFileAtomic(path, `${lines.join('\n')}\n`, ctx.sync);
  const appender = await JsonlAppender.openExisting(path, ctx.sync);
  lease.appender = appender;
  const what = change === 'replaced' ? 'replaced by another file' : change;
  const message =
    `The session file ${path} was ${what} while session ${lease.sessionId} was open; it was rewritten from ` +
    `memory with all ${fold.messageCount} messages${kept}. Nothing was lost.`;
  ctx.logger.warn(message, { sessionId: lease.sessionId, path, change });
  warnings.push({ code: SESSION_FILE_REWRITTEN, message });
  return appender;
}
