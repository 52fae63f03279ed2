import type { ServerGeminiStreamEvent } from '../sdk.js';
import type { RunStats } from './run-stats.js';

/** Writes text somewhere (stdout or stderr). */
export type Sink = (text: string) => void;

/** What is known when the run starts. */
export interface RunStart {
  /** The session's id (new or resumed). */
  sessionId: string;
  /** The configured model id (as given with `-m`, or the SDK default). */
  model: string;
  /**
   * The full user input sent to the model (stdin and `-p` combined); undefined when the run continues a turn paused
   * on the budget (`-r` without a prompt).
   */
  prompt: string | undefined;
}

/** An error as the json and stream-json formats report it (gemini-cli's `{type, message, code?}`). */
export interface ErrorInfo {
  /** The error class name, e.g. `MissingCredentialsError`. */
  type: string;
  message: string;
  /** The process exit code this error leads to. */
  code?: number;
}

/** How the run ended. */
export interface RunOutcome {
  status: 'success' | 'error';
  error?: ErrorInfo;
  stats: RunStats;
}

/** One of the three output formats. The CLI calls `start`, then `event` for each event, then `finish`. */
export interface OutputWriter {
  start(info: RunStart): void;
  event(event: ServerGeminiStreamEvent): void;
  finish(outcome: RunOutcome): void;
}

/** Builds an {@link ErrorInfo} from anything thrown. */
export function errorInfo(error: unknown, exitCode: number): ErrorInfo {
  if (error instanceof Error) return { type: error.name, message: error.message, code: exitCode };
  return { type: 'Error', message: String(error), code: exitCode };
}
