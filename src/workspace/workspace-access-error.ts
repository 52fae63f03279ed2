import { PolicyDeniedError } from '../errors.js';

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
  | 'SYMLINK_LOOP';

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
  ) {
    super(message, { code: details.reason });
    this.path = details.path;
    this.resolvedPath = details.resolvedPath;
    this.reason = details.reason;
  }
}
