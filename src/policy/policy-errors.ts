import { ConfigurationError, type GeminiAgentErrorOptions } from '../errors.js';

/**
 * A policy rule or policy file is invalid. The message names the file (when there is one) and the rule
 * (1-based index and name), and says what to fix. Code `POLICY_CONFIG`.
 */
export class PolicyRuleError extends ConfigurationError {
  /** The TOML file, when the rule came from one. */
  readonly file: string | undefined;
  /** 0-based index of the rule in its file or list, when known. */
  readonly ruleIndex: number | undefined;

  constructor(
    message: string,
    details: { file?: string | undefined; ruleIndex?: number | undefined } = {},
    options: GeminiAgentErrorOptions = {},
  ) {
    super(message, { ...options, code: 'POLICY_CONFIG' });
    this.file = details.file;
    this.ruleIndex = details.ruleIndex;
  }
}
