/** Options for {@link SandboxShell.exec} and {@link SandboxShell.start}. */
export interface AgentShellOptions {
  /** Extra environment variables, merged over the process environment. */
  env?: Record<string, string>;
  /** Kill the command (its whole process group) after this many seconds (fractions allowed). */
  timeoutSeconds?: number;
  /**
   * Kill the command (its whole process group) when it prints nothing on stdout or stderr for this many
   * seconds. Every output chunk resets the clock. Off by default.
   */
  inactivityTimeoutSeconds?: number;
  /** Working directory; relative paths resolve against the session's cwd. Must lie inside the workspace. */
  cwd?: string;
  /** Aborting kills the command's process group. */
  signal?: AbortSignal;
  /**
   * Keep at most this many bytes of output per buffer (`output`, `stdout`, `stderr`); the oldest bytes are
   * dropped and a truncation note is put first. Default: the workspace's `maxOutputBytes` (1 MiB). For
   * `start`, the cap on output queued per stream that nobody has read yet (oldest chunks are dropped and a
   * truncation note is handed to the reader first).
   */
  maxOutputBytes?: number;
}

/** Result of {@link AgentShell.exec}. */
export interface AgentShellResult {
  /** Exit code, or null when the process was killed by a signal. 1 when the command was refused. */
  exitCode: number | null;
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  stdout: string;
  stderr: string;
  /** Set when the command was refused, timed out, aborted or could not start. */
  error?: Error;
  /** The signal that ended the process, if any (e.g. `SIGTERM` after a timeout). */
  signal?: string | null;
  /** Process id of the `bash` process (also its process-group id), when it started. */
  pid?: number;
}

/** How a streamed process ended. */
export interface ShellExit {
  /** Exit code, or null when the process was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  signal: string | null;
  /** Set when the process timed out, was aborted, killed by {@link ShellProcess.kill}, or failed to start. */
  error?: Error;
}

/** A running command started with {@link SandboxShell.start}. */
export interface ShellProcess {
  /** Process id of the `bash` process (also its process-group id). */
  readonly pid: number;
  /** stdout as UTF-8 text chunks, in arrival order. Consume it (or the process may block on a full pipe). */
  readonly stdout: AsyncIterable<string>;
  /** stderr as UTF-8 text chunks, in arrival order. */
  readonly stderr: AsyncIterable<string>;
  /** Writes to the process's stdin; resolves once the data is handed to the OS. */
  write(data: string | Uint8Array): Promise<void>;
  /** Closes stdin (the process sees end of file). */
  end(): void;
  /** Kills the whole process group (SIGTERM, then SIGKILL after a short grace). */
  kill(signal?: NodeJS.Signals): void;
  /** Resolves (never rejects) when the process has exited and its output streams are closed. */
  readonly exited: Promise<ShellExit>;
}

/**
 * Command execution as the reference SDK defines it (`exec`, and optionally `start`): the narrow interface to
 * implement when you mock `ctx.shell`. The SDK's own shell is a {@link SandboxShell}.
 */
export interface AgentShell {
  /**
   * Runs a command and collects its output. Never throws for a refused, failed, timed-out or aborted command: the
   * result's `error` says what happened.
   */
  exec(command: string, options?: AgentShellOptions): Promise<AgentShellResult>;
  /** Starts a command with piped stdin and streamed output (the SDK's shell always has it). */
  start?(command: string, options?: AgentShellOptions): Promise<ShellProcess>;
}

/** Policy-aware, workspace-bound command execution handed to tools as `ctx.shell`. */
export interface SandboxShell extends AgentShell {
  /**
   * Runs `bash -c command` in its own process group and collects its output. Never throws for a refused,
   * failed, timed-out or aborted command: the result's `error` says what happened.
   */
  exec(command: string, options?: AgentShellOptions): Promise<AgentShellResult>;
  /**
   * Starts `bash -c command` with piped stdin and streamed output. Throws a `PolicyDeniedError` when the
   * command or its cwd is refused.
   */
  start(command: string, options?: AgentShellOptions): Promise<ShellProcess>;
}

/** What kind of thing a path is. */
export type FileKind = 'file' | 'directory' | 'other';

/** What {@link SandboxFilesystem.stat} reports (about the path after following symlinks). */
export interface FileStat {
  /** Absolute real path (symlinks resolved). */
  path: string;
  kind: FileKind;
  /** Size in bytes. */
  size: number;
  /** Last modification time, milliseconds since the epoch. */
  mtimeMs: number;
}

/** One entry of {@link SandboxFilesystem.readDir}. */
export interface DirEntry {
  /** The entry's name inside its directory. */
  name: string;
  /** Absolute path (the directory's real path joined with `name`). */
  path: string;
  /** Kind after following a symlink; `other` for dangling symlinks, sockets, devices. */
  kind: FileKind;
  /** True when the entry itself is a symbolic link. */
  isSymlink: boolean;
}

/** Options for {@link SandboxFilesystem.glob}. */
export interface GlobOptions {
  /** Directory to search from (default: the workspace cwd). Must be readable. */
  cwd?: string;
  /** Glob patterns (relative to `cwd`) whose matches are left out. */
  ignore?: string[];
  /** Match case-sensitively (default false, as gemini-cli's `glob` tool). */
  caseSensitive?: boolean;
  /** Let `*` and `**` match names starting with a dot (default true). */
  dot?: boolean;
  /** Stop after this many matches (default 20 000). */
  maxResults?: number;
  /** Also return directories (default false: files only). */
  includeDirectories?: boolean;
  /** Stops the walk. */
  signal?: AbortSignal;
}

/** Whether a path is being accessed for reading or for writing. */
export type PathAccess = 'read' | 'write';

/**
 * File access as the reference SDK defines it (`readFile`, `writeFile`): the narrow interface to implement when
 * you mock `ctx.fs`. The SDK's own file access is a {@link SandboxFilesystem}.
 */
export interface AgentFilesystem {
  /** File text (UTF-8), or null when the file is missing or access is denied. */
  readFile(path: string): Promise<string | null>;
  /** Writes text (UTF-8); throws when access is denied. */
  writeFile(path: string, content: string): Promise<void>;
}

/** Policy- and workspace-aware file access handed to tools as `ctx.fs`. */
export interface SandboxFilesystem extends AgentFilesystem {
  /** The workspace directories (writable roots, absolute real paths), cwd first. */
  workspaceDirectories(): readonly string[];
  /**
   * Checks a path and returns its absolute real path; throws a `WorkspaceAccessError` (a
   * `PolicyDeniedError`) naming the path and the reason when it is outside the workspace, blocked or malformed.
   * The path need not exist.
   */
  resolvePath(path: string, access?: PathAccess): Promise<string>;
  /**
   * File text (UTF-8), or null when the path is outside the workspace, refused, missing or a directory.
   * Throws for a file that is there but unsafe to read: a FIFO, socket or device, or a file with several hard
   * links (`WorkspaceAccessError`, code `NOT_REGULAR_FILE` / `HARD_LINK`), or one above the read cap
   * (`LimitExceededError`, code `FILE_TOO_LARGE`).
   */
  readFile(path: string): Promise<string | null>;
  /** File bytes; null and errors as {@link AgentFilesystem.readFile}. */
  readFileBytes(path: string): Promise<Uint8Array | null>;
  /**
   * Writes text (UTF-8), creating missing parent directories; throws a `PolicyDeniedError` when the path is
   * refused, and refuses FIFOs, sockets, devices and hard-linked files.
   */
  writeFile(path: string, content: string): Promise<void>;
  /**
   * Directory entries sorted by name, or null when the path is refused, missing or not a directory. Entries
   * the workspace blocks (`.git`, `.env`, `node_modules`, …) are left out.
   */
  readDir(path: string): Promise<DirEntry[] | null>;
  /** What the path is (symlinks followed), or null when refused or missing. */
  stat(path: string): Promise<FileStat | null>;
  /** True when the path is readable inside the workspace and exists. */
  exists(path: string): Promise<boolean>;
  /** Absolute paths of the readable files matching `pattern`, sorted; blocked paths never match. */
  glob(pattern: string, options?: GlobOptions): Promise<string[]>;
  /** Creates a directory (and its parents when `recursive`, the default); throws when refused. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /**
   * Removes a file, or a directory (`recursive` needed when not empty); throws when refused. Removing a
   * workspace root itself is refused. With `force`, a missing path is not an error.
   */
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  /**
   * Renames (moves) an entry inside the workspace; both paths must be writable. A symlink is moved as a link.
   * Throws when refused; renaming or replacing a workspace root is refused.
   */
  rename(from: string, to: string): Promise<void>;
  /** Copies a regular file inside the workspace (read rules for `from`, write rules for `to`). */
  copyFile(from: string, to: string): Promise<void>;
}
