import { ConfigurationError, type GeminiAgentErrorOptions } from '../errors.js';

/**
 * A settings or trusted-folders file cannot be used: it is not valid JSON (with comments), not a JSON object,
 * or unreadable. The message names the file and, for syntax errors, the line and column.
 */
export class SettingsFileError extends ConfigurationError {
  /** The file at fault. */
  readonly file: string;
  /** 1-based line of the error, when known. */
  readonly line: number | undefined;
  /** 1-based column of the error, when known. */
  readonly column: number | undefined;

  constructor(
    message: string,
    details: { file: string; line?: number; column?: number },
    options: GeminiAgentErrorOptions = {},
  ) {
    super(message, { ...options, code: 'SETTINGS_FILE' });
    this.file = details.file;
    this.line = details.line;
    this.column = details.column;
  }
}
