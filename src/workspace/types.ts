/** Options for {@link AgentShell.exec}. */
export interface AgentShellOptions {
  /** Extra environment variables, merged over the process environment. */
  env?: Record<string, string>;
  /** Kill the command (its whole process group) after this many seconds. */
  timeoutSeconds?: number;
  /** Working directory; relative paths resolve against the session's cwd. Must lie inside the workspace. */
  cwd?: string;
  /** Aborting kills the command's process group. */
  signal?: AbortSignal;
}

/** Result of {@link AgentShell.exec}. */
export interface AgentShellResult {
  /** Exit code, or null when the process was killed by a signal. */
  exitCode: number | null;
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  stdout: string;
  stderr: string;
  /** Set when the command was refused, timed out, aborted or could not start. */
  error?: Error;
}

/** Policy-aware, workspace-bound command execution handed to tools as `ctx.shell`. */
export interface AgentShell {
  exec(command: string, options?: AgentShellOptions): Promise<AgentShellResult>;
}

/** Policy- and workspace-aware file access handed to tools as `ctx.fs`. */
export interface AgentFilesystem {
  /** File text, or null when the path is outside the workspace, refused, or missing. */
  readFile(path: string): Promise<string | null>;
  /** Writes text; throws a `PolicyDeniedError` when the path is refused. */
  writeFile(path: string, content: string): Promise<void>;
}
