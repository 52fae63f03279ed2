/**
 * Everything the CLI uses from the SDK, taken from the public entry point only: the CLI is an adapter and
 * uses the library exactly as a user would.
 */
export {
  AbortError,
  AuthType,
  ConfigurationError,
  createContentGenerator,
  loginWithGoogle,
  logoutFromGoogle,
  DEFAULT_MODEL,
  GeminiAgentError,
  GeminiCliAcpServer,
  GeminiCliAgent,
  LimitExceededError,
  MissingCredentialsError,
  SessionNotFoundError,
  createStderrLogger,
  skillDir,
} from '../index.js';
export type {
  GeminiCliAgentOptions,
  GeminiCliSession,
  RetryEventInfo,
  ServerGeminiStreamEvent,
  SessionSummary,
  ToolCallResponseInfo,
} from '../index.js';
