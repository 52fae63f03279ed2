import { LimitExceededError, PolicyDeniedError } from '../errors.js';

/** Why the workspace refused a path. Doubles as the error's `code`. */
export type WorkspaceAccessReason =
  /** Empty, contains control characters or a null byte, or cannot be interpreted (e.g. `~user`). */
  | 'INVALID_PATH'
  /** Resolves (after following symlinks) outside every workspace root. */
  | 'PATH_NOT_IN_WORKSPACE'
  /** Inside a root, but a segment is blocked (`.git`, `.env`, `node_modules`, `gha-creds-*.json`). */
  | 'PATH_BLOCKED'
  /** Inside a read-only root only (e.g. an activated skill folder) and a write was attempted. */
  | 'PATH_READ_ONLY'
  /** A symlink loop or an over-long symlink chain. */
  | 'SYMLINK_LOOP'
  /** A FIFO, socket or device: reading or writing it could block forever or has side effects. */
  | 'NOT_REGULAR_FILE'
  /** A regular file with more than one hard link: its other names may lie outside the workspace. */
  | 'HARD_LINK'
  /** The path kept changing under a concurrent rename while it was being opened. */
  | 'PATH_CHANGED';

/**
 * The workspace sandbox refused a path (reading, writing, or as a shell cwd). `path` is what the caller
 * passed; `resolvedPath` is where it leads, when known.
 */
export class WorkspaceAccessError extends PolicyDeniedError {
  /** The path as given. */
  readonly path: string;
  /** The absolute real path it resolves to, when it could be resolved. */
  readonly resolvedPath: string | undefined;
  /** Why it was refused (same as `code`). */
  readonly reason: WorkspaceAccessReason;

  constructor(
    message: string,
    details: { path: string; resolvedPath?: string; reason: WorkspaceAccessReason },
    options: { cause?: unknown } = {},
  ) {
    super(message, { ...options, code: details.reason });
    this.path = details.path;
    this.resolvedPath = details.resolvedPath;
    this.reason = details.reason;
  }
}

/**
 * A file is larger than the workspace's read cap (`maxReadBytes`, default 20 MiB). Every read path refuses it
 * with this error instead of loading it; search tools skip such files and say so.
 */
export class FileTooLargeError extends LimitExceededError {
  /** The path as given. */
  readonly path: string;
  /** The file's size in bytes (at least `limit + 1` when it grew while being read). */
  readonly size: number;
  /** The cap in bytes. */
  readonly limit: number;

  constructor(details: { path: string; size: number; limit: number }) {
    super(
      `File too large: "${details.path}" is ${details.size} bytes, above the workspace read limit of ` +
        `${details.limit} bytes. Read a smaller file, or raise maxReadBytes.`,
      { code: 'FILE_TOO_LARGE' },
    );
    this.path = details.path;
    this.size = details.size;
    this.limit = details.limit;
  }
}
