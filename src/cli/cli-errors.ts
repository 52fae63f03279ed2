import { ConfigurationError, LimitExceededError } from './sdk.js';

/** A bad command line: unknown flag, bad value, conflicting flags, missing prompt. Exit code 42. */
export class CliUsageError extends ConfigurationError {
  constructor(message: string) {
    super(message, { code: 'CLI_USAGE' });
  }
}

/** The model was still calling tools when `--max-turns` ran out. Exit code 53. */
export class TurnLimitError extends LimitExceededError {
  constructor(maxTurns: number | undefined, sessionId: string) {
    const limit = maxTurns === undefined ? 'the turn limit' : `the turn limit (${maxTurns})`;
    super(
      `Reached ${limit} before the model finished. Raise it with --max-turns N, or continue the session ` +
        `with: gemini-agent -r ${sessionId}`,
      { code: 'MAX_SESSION_TURNS' },
    );
  }
}

/**
 * The prompt does not fit in what the model's context window has left (`context_window_will_overflow`): nothing
 * was sent or stored. Exit code 1.
 */
export class ContextWindowError extends LimitExceededError {
  constructor(estimated: number, remaining: number, sessionId: string) {
    super(
      `The prompt (about ${estimated} tokens) does not fit in what the model's context window has left ` +
        `(${remaining} tokens); it was not sent. Shorten it, or start a new session (session ${sessionId} is ` +
        'unchanged).',
      { code: 'CONTEXT_WINDOW_OVERFLOW' },
    );
  }
}
