import { createHash } from 'node:crypto';
import { mkdir, rm, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import { throwIfAborted } from '../core/abort.js';
import { JsonlAppender, type SyncPolicy } from './jsonl-appender.js';
import { ProjectRegistry } from './project-registry.js';
import {
  SESSION_FORMAT_VERSION,
  type SessionMetadataRecord,
  type SessionRecord,
} from './records.js';
import {
  findAllSessionFiles,
  findSessionFile,
  findSubagentFile,
  listSessionFiles,
  readSessionFile,
  SharedFolderListing,
} from './session-files.js';
import { FileLease } from './file-lease.js';
import { openFileBudget, type OpenFileBudget } from './open-file-budget.js';
import { writableAppender, type SessionFileWriterContext } from './session-file-writer.js';
import { SessionLockFile } from './session-lock-file.js';
import {
  geminiGlobalDir,
  projectHash,
  sanitizeFilenamePart,
  sessionFileName,
  sessionShortId,
  slugifyProjectName,
  validateSessionId,
} from './session-paths.js';
import type {
  AppendOutcome,
  NewSessionInit,
  SessionLease,
  StoreWarning,
  SessionStore,
  SessionSummary,
  StoredSession,
  StoreLoadOptions,
  StoreReadOptions,
} from './session-store.js';
import { orderSummaries, summarizeSession } from './session-summary.js';
import {
  leaseInvalidError,
  sessionExistsError,
  sessionLockedError,
  sessionNotFoundError,
} from './store-errors.js';

/** Options of {@link FileSessionStore}. */
export interface FileSessionStoreOptions {
  /** The project whose sessions this store holds (slug and `projectHash` derive from it). Default `process.cwd()`. */
  projectRoot?: string;
  /** Folder holding `.gemini/`. Default `$GEMINI_CLI_HOME`, else `os.homedir()`. */
  home?: string;
  /** Use this chats folder directly instead of `<home>/.gemini/tmp/<slug>/chats` (no project registry). */
  chatsDir?: string;
  /** When appends reach the disk (see {@link SyncPolicy}). Default `data`: each append durable when it resolves (`O_DSYNC` writes, else `fdatasync`). */
  sync?: SyncPolicy;
  /** Lease timing: heartbeat interval and the heartbeat age after which a lock is stale. */
  lease?: { staleMs?: number; heartbeatMs?: number };
  /** Environment read for `GEMINI_CLI_HOME`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Logger (takeovers, migrations). */
  logger?: Logger;
  /**
   * How many session files the store keeps open at once (busy sessions keep theirs open between appends; beyond
   * this, the least recently written one is closed and reopened at its next append). Default: the stores that
   * set none share one budget of 256 for the whole process.
   */
  maxOpenFiles?: number;
}

/** Names in the project temp folder that a session id must never delete (`<tmp>/<id>/` cleanup). */
const RESERVED_TEMP_NAMES = new Set([
  'chats',
  'logs',
  'tool-outputs',
  'checkpoints',
  'history',
  'shell_history',
]);

/**
 * The default {@link SessionStore}: gemini-cli's append-only JSONL files under
 * `<home>/.gemini/tmp/<slug>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`, so `gemini --resume` and this SDK
 * read each other's sessions. The slug comes from `~/.gemini/projects.json` (registered under a lock, with
 * `.project_root` markers). One writer per session: a lock file `session-<id>.lock` beside the session files
 * (see {@link SessionLockFile}). Appends are one `write` of whole lines, durable when it returns (policy `sync`: `O_DSYNC`, or `fdatasync` where
 * the platform lacks it).
 */
export class FileSessionStore implements SessionStore {
  readonly kind = 'file';
  private readonly projectRoot: string;
  private readonly globalDir: string;
  private readonly registry: ProjectRegistry;
  private readonly sync: SyncPolicy;
  private readonly logger: Logger;
  private readonly leaseOptions: { staleMs?: number; heartbeatMs?: number };
  private readonly fixedChatsDir: string | undefined;
  private chatsDirPromise: Promise<string> | undefined;
  private readonly writer: SessionFileWriterContext;
  /** The chats folders' listings shared by concurrent creates. */
  private readonly listings = new Map<string, SharedFolderListing>();
  private readonly openFiles: OpenFileBudget;

  constructor(options: FileSessionStoreOptions = {}) {
    this.projectRoot = options.projectRoot ?? process.cwd();
    this.globalDir =
      options.home !== undefined
        ? join(options.home, '.gemini')
        : geminiGlobalDir(options.env ?? process.env);
    this.logger = options.logger ?? silentLogger;
    this.registry = new ProjectRegistry(this.globalDir, this.logger);
    this.sync = options.sync ?? 'data';
    this.leaseOptions = options.lease ?? {};
    this.fixedChatsDir = options.chatsDir !== undefined ? resolve(options.chatsDir) : undefined;
    this.openFiles = openFileBudget(options.maxOpenFiles);
    this.writer = {
      sync: this.sync,
      logger: this.logger,
      openFirst: (lease) => this.openAppender(lease),
    };
  }

  /** The chats folder, registering the project (slug, markers) and creating the folder if needed. */
  async chatsDir(signal?: AbortSignal): Promise<string> {
    if (this.fixedChatsDir !== undefined) {
      await mkdir(this.fixedChatsDir, { recursive: true });
      return this.fixedChatsDir;
    }
    if (this.chatsDirPromise === undefined) {
      const pending = (async () => {
        const slug = await this.registry.getShortId(this.projectRoot, signal);
        const dir = join(this.globalDir, 'tmp', slug, 'chats');
        await mkdir(dir, { recursive: true });
        return dir;
      })();
      this.chatsDirPromise = pending;
      pending.catch(() => {
        if (this.chatsDirPromise === pending) this.chatsDirPromise = undefined;
      });
    }
    return this.chatsDirPromise;
  }

  /** The chats folder if the project is known, without registering anything; `guess` is where it would be. */
  private async findChatsDir(): Promise<{ dir: string | undefined; guess: string }> {
    if (this.fixedChatsDir !== undefined)
      return { dir: this.fixedChatsDir, guess: this.fixedChatsDir };
    if (this.chatsDirPromise !== undefined) {
      const dir = await this.chatsDirPromise;
      return { dir, guess: dir };
    }
    const slug = await this.registry.findShortId(this.projectRoot);
    const guess = join(
      this.globalDir,
      'tmp',
      slug ?? slugifyProjectName(this.projectRoot),
      'chats',
    );
    return { dir: slug === undefined ? undefined : guess, guess };
  }

  private listingOf(dir: string): SharedFolderListing {
    let listing = this.listings.get(dir);
    if (listing === undefined) this.listings.set(dir, (listing = new SharedFolderListing(dir)));
    return listing;
  }

  /** File name of a session's lock (sanitized id, plus a hash when sanitizing changed it). */
  private lockPath(chatsDir: string, sessionId: string): string {
    const safe = sanitizeFilenamePart(sessionId);
    const suffix =
      safe === sessionId
        ? ''
        : `-${createHash('sha256').update(sessionId).digest('hex').slice(0, 8)}`;
    return join(chatsDir, `session-${safe}${suffix}.lock`);
  }

  async acquireLease(sessionId: string, options: StoreReadOptions = {}): Promise<SessionLease> {
    throwIfAborted(options.signal);
    validateSessionId(sessionId);
    const dir = await this.chatsDir(options.signal);
    const lock = await SessionLockFile.acquire(this.lockPath(dir, sessionId), sessionId, {
      ...this.leaseOptions,
      logger: this.logger,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    });
    return new FileLease(sessionId, this, lock, this.openFiles);
  }

  async create(lease: SessionLease, init: NewSessionInit): Promise<SessionMetadataRecord> {
    if (init.parentSessionId !== undefined)
      return this.createSubagent(lease, init, init.parentSessionId);
    const own = this.checkLease(lease);
    const id = own.sessionId;
    const dir = await this.chatsDir();
    // Only the files whose name carries the id's short form can hold it (findSessionFile without scanAll).
    const files = await listSessionFiles(dir, sessionShortId(id), () =>
      this.listingOf(dir).names(),
    );
    if ((await findSessionFile(files, id, { scanAll: false })) !== undefined)
      throw sessionExistsError(id, dir);
    const metadata: SessionMetadataRecord = {
      ...init.extra,
      sessionId: id,
      projectHash: projectHash(this.projectRoot),
      startTime: init.startTime,
      lastUpdated: init.startTime,
      kind: 'main',
      sdkFormat: SESSION_FORMAT_VERSION,
    };
    const start = new Date(init.startTime);
    const base = Number.isNaN(start.getTime()) ? new Date() : start;
    // Two ids sharing their first 8 characters, started in the same minute, would share a file name: use the
    // next free minute instead of mixing two sessions in one file.
    let appender: JsonlAppender;
    for (let minute = 0; ; minute++) {
      const path = join(dir, sessionFileName(id, new Date(base.getTime() + minute * 60_000)));
      try {
        appender = await JsonlAppender.create(path, this.sync);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || minute >= 1440) throw err;
      }
    }
    await appender.append([JSON.stringify(metadata)]);
    own.appender = appender;
    own.foldFrom({ metadata, messages: [] });
    return metadata;
  }

  /** A subagent's conversation: gemini-cli's `chats/<parentSessionId>/<sessionId>.jsonl`, `kind: "subagent"`. */
  private async createSubagent(
    lease: SessionLease,
    init: NewSessionInit,
    parentSessionId: string,
  ): Promise<SessionMetadataRecord> {
    const own = this.checkLease(lease);
    const dir = join(await this.chatsDir(), validateSessionId(parentSessionId));
    await mkdir(dir, { recursive: true });
    const metadata: SessionMetadataRecord = {
      ...init.extra,
      sessionId: own.sessionId,
      projectHash: projectHash(this.projectRoot),
      startTime: init.startTime,
      lastUpdated: init.startTime,
      kind: 'subagent',
      sdkFormat: SESSION_FORMAT_VERSION,
    };
    const path = join(dir, `${sanitizeFilenamePart(own.sessionId)}.jsonl`);
    let appender: JsonlAppender;
    try {
      appender = await JsonlAppender.create(path, this.sync);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw sessionExistsError(own.sessionId, dir);
      throw err;
    }
    await appender.append([JSON.stringify(metadata)]);
    own.appender = appender;
    own.foldFrom({ metadata, messages: [] });
    return metadata;
  }

  async append(
    lease: SessionLease,
    records: readonly SessionRecord[],
  ): Promise<void | AppendOutcome> {
    const own = this.checkLease(lease);
    const lines = records.map((r) => JSON.stringify(r));
    const run = own.queue.then(async (): Promise<void | AppendOutcome> => {
      this.checkLease(own);
      // A write makes an idle lease busy again — or fails if another writer took the session over meanwhile.
      if (own.idle) await own.setIdle(false);
      const warnings: StoreWarning[] = [];
      const appender = await writableAppender(own, this.writer, warnings);
      await appender.append(lines);
      own.identity = appender.identity;
      own.usedFile();
      for (const record of records) own.fold?.apply(record);
      return warnings.length > 0 ? { warnings } : undefined;
    });
    own.queue = run.catch(() => undefined);
    return run;
  }

  /** Opens the session's newest file for appending; a legacy `.json` is first migrated to `.jsonl`. */
  private async openAppender(lease: FileLease): Promise<JsonlAppender> {
    const dir = await this.chatsDir();
    const files = await listSessionFiles(dir);
    const found = await findSessionFile(files, lease.sessionId, { scanAll: true });
    if (found?.read.session === undefined)
      throw sessionNotFoundError(lease.sessionId, dir, files.length === 0);
    lease.foldFrom(found.read.session);
    if (!found.read.legacy) {
      const appender = await JsonlAppender.openExisting(found.ref.path, this.sync);
      lease.appender = appender;
      return appender;
    }
    const { metadata, messages } = found.read.session;
    const appender = await JsonlAppender.create(`${found.ref.path}l`, this.sync);
    await appender.append([JSON.stringify(metadata), ...messages.map((m) => JSON.stringify(m))]);
    this.logger.info('migrated a legacy .json session to .jsonl', { from: found.ref.path });
    lease.appender = appender;
    return appender;
  }

  async load(sessionId: string, options: StoreLoadOptions = {}): Promise<StoredSession> {
    throwIfAborted(options.signal);
    const own = options.lease === undefined ? undefined : this.checkLease(options.lease, sessionId);
    const { dir, guess } = await this.findChatsDir();
    let found: Awaited<ReturnType<typeof findSessionFile>>;
    if (options.parentSessionId === undefined) {
      const files = dir === undefined ? [] : await listSessionFiles(dir);
      found = await findSessionFile(files, sessionId, { scanAll: true });
      if (found?.read.session === undefined)
        throw sessionNotFoundError(sessionId, dir ?? guess, files.length === 0);
    } else {
      const where = join(dir ?? guess, validateSessionId(options.parentSessionId));
      found = await findSubagentFile(where, sessionId);
      if (found?.read.session === undefined) throw sessionNotFoundError(sessionId, where, false);
    }
    if (own !== undefined && own.path === undefined && !found.read.legacy) {
      // Loaded to be written (resume): the lease remembers the file and the session as read, so the first append
      // finds a file deleted, truncated or replaced since and rewrites it from this fold instead of losing it.
      own.foldFrom(found.read.session);
      own.path = found.ref.path;
      own.identity = found.read.identity;
    }
    return found.read.session;
  }

  async list(options: StoreReadOptions = {}): Promise<SessionSummary[]> {
    throwIfAborted(options.signal);
    const { dir } = await this.findChatsDir();
    if (dir === undefined) return [];
    const summaries: SessionSummary[] = [];
    for (const ref of await listSessionFiles(dir)) {
      throwIfAborted(options.signal);
      const read = await readSessionFile(ref).catch(() => undefined);
      if (read?.session !== undefined) summaries.push(summarizeSession(read.session));
    }
    return orderSummaries(summaries);
  }

  async delete(
    sessionId: string,
    options: StoreReadOptions & { lease?: SessionLease } = {},
  ): Promise<boolean> {
    throwIfAborted(options.signal);
    const safeId = validateSessionId(sessionId);
    const { dir } = await this.findChatsDir();
    if (dir === undefined) return false;
    const own = options.lease !== undefined ? this.checkLease(options.lease, sessionId) : undefined;
    const lease = own ?? (await this.acquireLease(sessionId, options));
    try {
      const files = await findAllSessionFiles(await listSessionFiles(dir), sessionId);
      if (files.length === 0) return false;
      if (own !== undefined) {
        await own.queue;
        await own.closeFile();
        own.deleted = true;
      }
      for (const f of files) await unlink(f.path).catch(() => undefined);
      // gemini-cli's deletion set: activity log, tool outputs, the session's temp folder, subagent sessions.
      const tempDir = dirname(dir);
      await rm(join(tempDir, 'logs', `session-${safeId}.jsonl`), { force: true });
      await rm(join(tempDir, 'tool-outputs', `session-${safeId}`), {
        recursive: true,
        force: true,
      });
      if (!RESERVED_TEMP_NAMES.has(safeId) && !safeId.startsWith('.')) {
        await rm(join(tempDir, safeId), { recursive: true, force: true });
      }
      await rm(join(dir, safeId), { recursive: true, force: true });
      return true;
    } finally {
      if (own === undefined) await lease.release();
    }
  }

  private checkLease(lease: SessionLease, sessionId = lease.sessionId): FileLease {
    if (!(lease instanceof FileLease) || lease.store !== this) {
      throw leaseInvalidError(lease.sessionId, 'the lease comes from another store');
    }
    if (lease.released) throw leaseInvalidError(lease.sessionId, 'its lease was released');
    if (lease.lock.lost)
      throw sessionLockedError(lease.sessionId, 'another writer that took over a stalled lease');
    if (lease.deleted)
      throw sessionNotFoundError(lease.sessionId, this.fixedChatsDir ?? 'the store', false);
    if (lease.sessionId !== sessionId)
      throw leaseInvalidError(sessionId, `the lease is for ${lease.sessionId}`);
    return lease;
  }
}
