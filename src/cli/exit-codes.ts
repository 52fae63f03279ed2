import { ConfigurationError, GeminiAgentError } from './sdk.js';

/** Process exit codes, identical to gemini-cli's headless mode so scripts written for `gemini -p` keep working. */
export const ExitCode = {
  /** The prompt ran to completion. */
  Success: 0,
  /**
   * A command line that does not parse (unknown flag, bad or missing value, conflicting flags: gemini's yargs
   * code), or any other failure (model API error, tool failure, internal error).
   */
  GeneralError: 1,
  /**
   * No usable credentials (`GEMINI_API_KEY` and friends unset, and no `--fake-responses`), signing in failed (bad
   * auth type, revoked Google sign-in, Code Assist setup), or the API rejected the key (401, 403, a 400 saying the
   * key is invalid).
   */
  AuthError: 41,
  /** Bad input: no prompt, unknown session, a session id that exists. */
  InputError: 42,
  /** `-s/--sandbox` (gemini-cli's sandbox error code): not supported here. */
  SandboxError: 44,
  /** A configuration problem: unreadable replay file, bad skill directory, bad option value. */
  ConfigError: 52,
  /** The turn limit (`--max-turns`) was reached before the model finished. */
  TurnLimit: 53,
  /**
   * The run paused on the session's budget (`--max-cost`, `--max-tokens`): the next model call would have crossed
   * it. The session is saved with the paused turn; `gemini-agent -r <id>` with a higher limit continues it. Not a
   * gemini-cli code (gemini has no budgets; its 54 and 55 are tool and trust errors).
   */
  BudgetPaused: 56,
  /** Interrupted with Ctrl-C (SIGINT); the session was saved first. */
  Cancelled: 130,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Error codes (`GeminiAgentError.code`) that mean "the user typed something wrong". */
const INPUT_CODES: ReadonlySet<string> = new Set([
  'CLI_USAGE',
  'SESSION_NOT_FOUND',
  'INVALID_INPUT',
]);

/** Error codes that mean "the agent ran out of turns". */
const TURN_LIMIT_CODES: ReadonlySet<string> = new Set([
  'MAX_SESSION_TURNS',
  'MAX_TURNS',
  'TURN_LIMIT',
  'LIMIT_EXCEEDED',
]);

/** Error codes that mean "the configuration is wrong" (besides every `ConfigurationError`). */
const CONFIG_PREFIXES: readonly string[] = ['CONFIGURATION', 'REPLAY', 'SKILL', 'POLICY_FILE'];

/**
 * The single place where an error becomes an exit code. Our typed errors are translated from their stable
 * `code`; anything else (a plain `Error`, a thrown string) is a general failure.
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (!(error instanceof GeminiAgentError)) {
    return isAbortLike(error) ? ExitCode.Cancelled : ExitCode.GeneralError;
  }
  const code = error.code;
  if (code === 'MISSING_CREDENTIALS' || code.startsWith('AUTH')) return ExitCode.AuthError;
  if (code === 'ABORTED') return ExitCode.Cancelled;
  if (code === 'CLI_FLAGS') return ExitCode.GeneralError;
  if (code === 'SANDBOX_UNSUPPORTED') return ExitCode.SandboxError;
  if (INPUT_CODES.has(code)) return ExitCode.InputError;
  if (TURN_LIMIT_CODES.has(code)) return ExitCode.TurnLimit;
  if (code === 'BUDGET_EXCEEDED') return ExitCode.BudgetPaused;
  if (error instanceof ConfigurationError) return ExitCode.ConfigError;
  if (CONFIG_PREFIXES.some((prefix) => code.startsWith(prefix))) return ExitCode.ConfigError;
  return ExitCode.GeneralError;
}

/** A DOM-style `AbortError` (thrown by Node APIs when a signal fires) counts as a cancellation. */
function isAbortLike(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
