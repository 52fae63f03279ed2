import { ConfigurationError, LimitExceededError, type BudgetExceededInfo } from './sdk.js';

/** Bad input on an otherwise valid command line: no prompt, unreadable stdin, a duplicate session id. Exit code 42. */
export class CliUsageError extends ConfigurationError {
  constructor(message: string, code = 'CLI_USAGE') {
    super(message, { code });
  }
}

/**
 * An error gemini-cli words itself, printed on stderr exactly as gemini prints it (no `Error: ` prefix): the
 * message already says what failed, e.g. `Error resuming session: …`. Exit code 42.
 */
export class GeminiWordedError extends CliUsageError {
  constructor(message: string) {
    super(message, 'CLI_USAGE');
  }
}

/**
 * A command line that does not parse: unknown flag, missing or bad value, conflicting flags. Exit code 1, as
 * gemini's argument parser (yargs) exits; the message is one line naming the flag.
 */
export class CliFlagError extends CliUsageError {
  constructor(message: string) {
    super(message, 'CLI_FLAGS');
  }
}

/** `-s/--sandbox`: gemini-cli's container sandbox is not part of gemini-agent. Exit code 44 (gemini's sandbox code). */
export class SandboxUnsupportedError extends ConfigurationError {
  constructor() {
    super(
      '-s/--sandbox is not supported by gemini-agent: it runs tools in this process, confined to the workspace ' +
        'folders by its path guard and policy. Drop -s, or run gemini itself for a container sandbox.',
      { code: 'SANDBOX_UNSUPPORTED' },
    );
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

/** The flag that holds each budget limit the CLI sets. */
const BUDGET_FLAGS: Readonly<Record<BudgetExceededInfo['reason'], string>> = {
  cost: '--max-cost',
  total_tokens: '--max-tokens',
  input_tokens: 'the budget option maxInputTokens',
  output_tokens: 'the budget option maxOutputTokens',
};

/**
 * The run paused before a model call that would cross the session's budget (`budget_exceeded`): the session is
 * stored with the paused turn, and `gemini-agent -r <id>` with a higher limit and no prompt continues it. Exit
 * code 56.
 */
export class BudgetPausedError extends LimitExceededError {
  constructor(info: BudgetExceededInfo, sessionId: string) {
    const flag = BUDGET_FLAGS[info.reason];
    const money = info.reason === 'cost';
    const figure = (n: number): string => (money ? `$${n.toFixed(4)}` : `${Math.round(n)} tokens`);
    const raise = money
      ? `--max-cost ${(info.limit * 2).toFixed(2)}`
      : `--max-tokens ${Math.ceil(info.limit * 2)}`;
    const continueWith =
      info.reason === 'cost' || info.reason === 'total_tokens'
        ? `continue it with: gemini-agent -r ${sessionId} ${raise}`
        : `raise ${flag} and continue it with gemini-agent -r ${sessionId}`;
    super(
      `Paused on the budget: the next model call would bring the session to ${figure(info.wouldSpend)}, over ` +
        `${flag} ${money ? `$${info.limit}` : info.limit} (spent so far: $${info.spent.costUsd.toFixed(4)}, ` +
        `${info.spent.inputTokens + info.spent.outputTokens} tokens). The session was saved with the paused turn; ` +
        `${continueWith} (no prompt).`,
      { code: 'BUDGET_EXCEEDED' },
    );
  }
}
