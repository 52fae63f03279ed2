import type { Sink } from './output/output-writer.js';
import type { StdinLike } from './read-stdin.js';

/** Everything the CLI touches in its process, injectable so the whole CLI runs in-process in tests. */
export interface CliIo {
  /** Arguments after the script name. */
  argv: readonly string[];
  /** Environment variables (read by `gemini-agent postgres`). Default: none. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Working directory (the project whose sessions are used). */
  cwd: string;
  stdin: StdinLike;
  stdout: Sink;
  stderr: Sink;
  /** Whether stdout is a terminal. */
  stdoutIsTTY: boolean;
  /** Whether stderr is a terminal (progress is drawn only then). */
  stderrIsTTY: boolean;
  /**
   * stderr without terminal sanitising, for the progress line's own control codes (set by the CLI when it
   * wraps `stdout` / `stderr` with `terminalSafeIo`; defaults to `stderr`).
   */
  terminalStderr?: Sink;
  /**
   * The process's stdout stream when it is a terminal, for the line editing of `-i` (readline draws the prompt
   * and the edited line on it). Absent: `-i` reads plain lines without a prompt.
   */
  terminalStdout?: NodeJS.WritableStream;
  /** Subscribes to Ctrl-C; returns the unsubscribe function. */
  onInterrupt(handler: () => void): () => void;
}
