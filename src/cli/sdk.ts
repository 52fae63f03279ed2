/**
 * Everything the CLI uses from the SDK, taken from the public entry points only (the root and its documented
 * subpaths): the CLI is an adapter and uses the library exactly as a user would.
 */
export {
  AbortError,
  AuthType,
  ConfigurationError,
  loginWithGoogle,
  migrateClaudeHooks,
  logoutFromGoogle,
  DEFAULT_MODEL,
  GeminiAgentError,
  GeminiCliAcpServer,
  GeminiCliAgent,
  LimitExceededError,
  MissingCredentialsError,
  SessionNotFoundError,
  createStderrLogger,
  openAICompatible,
  loadSettings,
  resolveTelemetrySettings,
  skillDir,
  startTelemetry,
  startSessionViewer,
  FileSessionStore,
  ExtensionManager,
  createExtensionFolder,
  validateExtensionFolder,
  EXTENSION_TEMPLATES,
  EXTENSION_INSTALL_WARNING,
} from '../index.js';
export { createContentGenerator } from '../model/index.js';
export type {
  GeminiCliAgentOptions,
  GeminiCliSession,
  HookInfo,
  ModelProvider,
  LoadedSettings,
  McpServerConfig,
  McpServerStatus,
  RetryEventInfo,
  ServerGeminiStreamEvent,
  SessionSummary,
  Settings,
  TelemetryExport,
  ToolCallResponseInfo,
  ExtensionInfo,
} from '../index.js';
