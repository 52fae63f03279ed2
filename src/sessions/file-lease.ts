import { ConversationBuilder } from './conversation.js';
import type { FileIdentity, JsonlAppender } from './jsonl-appender.js';
import type { OpenFileBudget, OpenFileHolder } from './open-file-budget.js';
import type { SessionLockFile } from './session-lock-file.js';
import type { SessionLease } from './session-store.js';
import type { StoredSession } from './session-store.js';

/**
 * What a file lease holds that must not outlive it: the lock file (and its heartbeat) and the open descriptor of
 * the session file, with the queue that serializes the writes through it. Kept apart from the lease so that a
 * lease the program dropped without `release()` can still be cleaned up by the garbage collector (see
 * {@link FileLease}), and so that the store's {@link OpenFileBudget} can close the file without holding the lease.
 */
class LeaseResources implements OpenFileHolder {
  private file: JsonlAppender | undefined;
  /** Serializes the lease's writes (and closing its file for the budget). */
  queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly lock: SessionLockFile,
    private readonly budget: OpenFileBudget | undefined,
  ) {}

  get appender(): JsonlAppender | undefined {
    return this.file;
  }

  set appender(appender: JsonlAppender | undefined) {
    this.file = appender;
    if (appender === undefined) this.budget?.closed(this);
    else this.budget?.use(this);
  }

  /** Counts the open file as used just now (the budget closes the least recently used first). */
  used(): void {
    if (this.file !== undefined) this.budget?.use(this);
  }

  closeWhenQuiet(): void {
    const closing = this.queue.then(async () => {
      const appender = this.file;
      this.appender = undefined;
      await appender?.close().catch(() => undefined);
    });
    this.queue = closing.catch(() => undefined);
  }

  /** Closes the descriptor and gives the lock up. Never throws. */
  async dispose(): Promise<void> {
    const appender = this.file;
    this.appender = undefined;
    await appender?.close().catch(() => undefined);
    await this.lock.release().catch(() => undefined);
  }
}

/**
 * A lease dropped without `release()` (a session object the program never closed) is released when it is
 * garbage-collected: its descriptor is closed by us, never by Node's `FileHandle` finalizer (which warns with
 * `DEP0137` "Closing file descriptor … on garbage collection"), and its lock file is removed.
 */
const unreleased = new FinalizationRegistry<LeaseResources>((resources) => {
  void resources.dispose();
});

/**
 * The file store's lease: the session's lock file plus what the writer knows about the session file — its path
 * and identity (device, inode, size) after our last write, and the whole session folded in memory, from which the
 * file is rewritten when it was deleted, truncated or replaced under us.
 *
 * The session file is open only while the lease is busy: `setIdle(true)` closes it, so an idle session — open in
 * the program but between turns — holds no descriptor at all; and a busy one may have it closed between two
 * writes by the store's {@link OpenFileBudget}.
 */
export class FileLease implements SessionLease {
  released = false;
  deleted = false;
  /** Between turns: the next writer that asks takes the session over. */
  idle = false;
  /** The session file, once created or found. */
  path: string | undefined;
  /** The file as our last write left it; compared before every append. */
  identity: FileIdentity | undefined;
  /** The session as stored, folded (metadata and messages), kept in step with every append. */
  fold: ConversationBuilder | undefined;
  private readonly resources: LeaseResources;

  constructor(
    readonly sessionId: string,
    readonly store: object,
    lock: SessionLockFile,
    budget?: OpenFileBudget,
  ) {
    this.resources = new LeaseResources(lock, budget);
    unreleased.register(this, this.resources, this);
  }

  /** Serializes this lease's writes. */
  get queue(): Promise<unknown> {
    return this.resources.queue;
  }

  set queue(queue: Promise<unknown>) {
    this.resources.queue = queue;
  }

  /** Counts the session file as used just now (see {@link OpenFileBudget}). */
  usedFile(): void {
    this.resources.used();
  }

  /** The lock file behind the lease. */
  get lock(): SessionLockFile {
    return this.resources.lock;
  }

  /** True once another writer took the lock over. */
  get lost(): boolean {
    return this.lock.lost;
  }

  /** The session file (for hooks' `transcript_path`), once created or found. */
  get file(): string | undefined {
    return this.path;
  }

  /** The open appender of the session file, while busy. */
  get appender(): JsonlAppender | undefined {
    return this.resources.appender;
  }

  set appender(appender: JsonlAppender | undefined) {
    this.resources.appender = appender;
    if (appender !== undefined) {
      this.path = appender.path;
      this.identity = appender.identity;
    }
  }

  /**
   * Starts the in-memory fold from a stored session (or a new one's metadata). Its messages were validated when
   * the file was folded, so they are adopted as they are (a resume no longer checks 10,000 records twice).
   */
  foldFrom(session: { metadata: object; messages: StoredSession['messages'] }): void {
    const fold = new ConversationBuilder();
    fold.apply(session.metadata);
    fold.adoptMessages(session.messages);
    this.fold = fold;
  }

  async setIdle(idle: boolean): Promise<void> {
    if (this.released) return;
    if (idle) {
      await this.queue.catch(() => undefined);
      await this.closeFile();
    }
    await this.lock.setIdle(idle);
    this.idle = idle;
  }

  /** Closes the session file (its identity is remembered for the next write). */
  async closeFile(): Promise<void> {
    const appender = this.resources.appender;
    if (appender === undefined) return;
    this.identity = appender.identity;
    this.resources.appender = undefined;
    await appender.close().catch(() => undefined);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    unreleased.unregister(this);
    await this.queue.catch(() => undefined);
    await this.resources.dispose();
  }
}
