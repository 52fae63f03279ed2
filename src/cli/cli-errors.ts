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
