import { describe, expect, it } from 'vitest';
import { CliUsageError, TurnLimitError } from './cli-errors.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import {
  AbortError,
  ConfigurationError,
  GeminiAgentError,
  MissingCredentialsError,
  SessionNotFoundError,
} from './sdk.js';
import { AuthenticationError, ModelApiError, ReplayError, ToolExecutionError } from '../index.js';

describe('exitCodeFor', () => {
  it("translates our typed errors to gemini-cli's exit codes", () => {
    expect(exitCodeFor(new MissingCredentialsError('set GEMINI_API_KEY'))).toBe(ExitCode.AuthError);
    expect(
      exitCodeFor(new AuthenticationError('sign in again', { code: 'AUTH_LOGIN_REQUIRED' })),
    ).toBe(41);
    expect(exitCodeFor(new ConfigurationError('bad type', { code: 'AUTH_TYPE_INVALID' }))).toBe(41);
    expect(exitCodeFor(new CliUsageError('bad flag'))).toBe(ExitCode.InputError);
    expect(exitCodeFor(new SessionNotFoundError('Session with ID x not found'))).toBe(42);
    expect(exitCodeFor(new ConfigurationError('bad option'))).toBe(ExitCode.ConfigError);
    expect(exitCodeFor(new ReplayError('missing', { file: 'f.jsonl' }))).toBe(52);
    expect(exitCodeFor(new TurnLimitError(2, 'abc'))).toBe(ExitCode.TurnLimit);
    expect(exitCodeFor(new AbortError())).toBe(ExitCode.Cancelled);
    expect(exitCodeFor(new ModelApiError('boom', { status: 500 }))).toBe(ExitCode.GeneralError);
    expect(exitCodeFor(new ToolExecutionError('tool broke', { toolName: 't', callId: 'c' }))).toBe(
      1,
    );
    expect(exitCodeFor(new GeminiAgentError('SOMETHING_NEW', 'x'))).toBe(1);
  });

  it('treats plain errors as general failures and DOM AbortErrors as cancellations', () => {
    expect(exitCodeFor(new Error('x'))).toBe(1);
    expect(exitCodeFor('a string')).toBe(1);
    const domAbort = new Error('This operation was aborted');
    domAbort.name = 'AbortError';
    expect(exitCodeFor(domAbort)).toBe(130);
  });
});
