import { stat } from 'node:fs/promises';
import { open, readdir } from './descriptor-retry.js';
import { join } from 'node:path';
import { parseSessionText, type ParsedSessionText } from './conversation.js';
import type { FileIdentity } from './jsonl-appender.js';
import { SESSION_FILE_PREFIX, sanitizeFilenamePart, sessionShortId } from './session-paths.js';
import type { StoredSession } from './session-store.js';
import { toStoredSession } from './session-summary.js';

/** One session file of a chats folder. */
export interface SessionFileRef {
  /** Absolute path. */
  path: string;
  /** File name. */
  name: string;
  /** Modification time (ms since epoch). */
  mtimeMs: number;
}

/** A session file read and folded. */
export interface ReadSessionFile extends ParsedSessionText {
  /** The session, when the file holds one. */
  session: StoredSession | undefined;
  /** The file that was read (device, inode) and how many bytes of it: a later write can tell what changed. */
  identity: FileIdentity;
}

function isSessionFileName(name: string): boolean {
  return (
    name.startsWith(SESSION_FILE_PREFIX) && (name.endsWith('.jsonl') || name.endsWith('.json'))
  );
}

/** The names in `dir` (none when it does not exist). */
async function readNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * The `session-*.json[l]` files directly in `chatsDir`, newest first (empty when the folder does not exist). With
 * `nameIncludes`, only the files whose name contains it (a session's short id): the others are not `stat`ed.
 * `names` lists the folder (default: a `readdir` of it; see {@link SharedFolderListing}).
 */
export async function listSessionFiles(
  chatsDir: string,
  nameIncludes?: string,
  names: (dir: string) => Promise<readonly string[]> = readNames,
): Promise<SessionFileRef[]> {
  const refs: SessionFileRef[] = [];
  for (const name of await names(chatsDir)) {
    if (nameIncludes !== undefined && !name.includes(nameIncludes)) continue;
    if (!isSessionFileName(name)) continue;
    const path = join(chatsDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) refs.push({ path, name, mtimeMs: info.mtimeMs });
  }
  return refs.sort((a, b) => b.mtimeMs - a.mtimeMs || byNameDescending(a.name, b.name));
}

/**
 * Tie-break of files with the same modification time (files written in the same clock tick): name descending, by
 * UTF-16 code units. Not `localeCompare`: its first call loads ICU's collation data, 20–45 ms of a resume.
 */
function byNameDescending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * A folder's `readdir` shared by concurrent callers. Each caller gets the names of a `readdir` that started after
 * it asked, so it sees every file created before it asked (a session created under a lease sees every file
 * written before it took the lease); callers asking while one runs share the next one. N sessions created at
 * once in a folder of N files cost a few listings instead of N (each O(N)).
 */
export class SharedFolderListing {
  private running: Promise<readonly string[]> | undefined;
  private queued: Promise<readonly string[]> | undefined;

  constructor(private readonly dir: string) {}

  /** The folder's names, from a `readdir` started after this call (the array is shared: do not change it). */
  names(): Promise<readonly string[]> {
    if (this.queued !== undefined) return this.queued;
    if (this.running === undefined) return this.launch();
    const settled = (): void => undefined;
    const queued = this.running.then(settled, settled).then(() => {
      this.queued = undefined;
      return this.launch();
    });
    this.queued = queued;
    return queued;
  }

  private launch(): Promise<readonly string[]> {
    const run = readNames(this.dir);
    this.running = run;
    const clear = (): void => {
      if (this.running === run) this.running = undefined;
    };
    run.then(clear, clear);
    return run;
  }
}

/** Reads and folds one session file in a single pass (torn or foreign lines skipped). */
export async function readSessionFile(ref: SessionFileRef): Promise<ReadSessionFile> {
  // One descriptor for the stat and the read, so the identity describes exactly the bytes that were parsed.
  const handle = await open(ref.path, 'r');
  let bytes: Buffer;
  let identity: FileIdentity;
  try {
    const info = await handle.stat();
    bytes = await handle.readFile();
    identity = { dev: info.dev, ino: info.ino, size: bytes.length };
  } finally {
    await handle.close();
  }
  const parsed = parseSessionText(bytes.toString('utf8'));
  const session =
    parsed.conversation === undefined
      ? undefined
      : toStoredSession(parsed.conversation, ref.path, new Date(ref.mtimeMs).toISOString());
  return { ...parsed, session, identity };
}

/**
 * Finds the file of a session as the reference SDK's `resumeSession` does: among the session files (newest
 * first) whose name contains the first 8 characters of the sanitized id — or all files when none does and
 * `scanAll` is set — the first whose folded `sessionId` equals the id.
 */
export async function findSessionFile(
  files: readonly SessionFileRef[],
  sessionId: string,
  options: { scanAll: boolean },
): Promise<{ ref: SessionFileRef; read: ReadSessionFile } | undefined> {
  const short = sessionShortId(sessionId);
  let candidates = files.filter((f) => f.name.includes(short));
  if (candidates.length === 0 && options.scanAll) candidates = [...files];
  for (const ref of candidates) {
    const read = await readSessionFile(ref).catch(() => undefined);
    if (read?.session?.metadata.sessionId === sessionId) return { ref, read };
  }
  return undefined;
}

/**
 * A subagent's conversation in `dir` (gemini-cli's `chats/<parentSessionId>/`): `<sessionId>.jsonl`, when it is
 * there and holds that session.
 */
export async function findSubagentFile(
  dir: string,
  sessionId: string,
): Promise<{ ref: SessionFileRef; read: ReadSessionFile } | undefined> {
  const name = `${sanitizeFilenamePart(sessionId)}.jsonl`;
  const path = join(dir, name);
  const info = await stat(path).catch(() => undefined);
  if (info?.isFile() !== true) return undefined;
  const ref = { path, name, mtimeMs: info.mtimeMs };
  const read = await readSessionFile(ref).catch(() => undefined);
  return read?.session?.metadata.sessionId === sessionId ? { ref, read } : undefined;
}

/** All files of a session (a `.json` legacy file and its `.jsonl` migration may both exist). */
export async function findAllSessionFiles(
  files: readonly SessionFileRef[],
  sessionId: string,
): Promise<SessionFileRef[]> {
  const short = sessionShortId(sessionId);
  const out: SessionFileRef[] = [];
  for (const ref of files.filter((f) => f.name.includes(short))) {
    const read = await readSessionFile(ref).catch(() => undefined);
    if (read?.session?.metadata.sessionId === sessionId) out.push(ref);
  }
  return out;
}
