/**
 * gemini-agent-sdk: embed a Gemini agent in any Node app. Drop-in compatible with `@google/gemini-cli-sdk`.
 *
 * Every public export is listed here by name; `index.test.ts` pins the list. Building blocks for use without an
 * agent are on subpaths: `gemini-agent-sdk/policy` (the policy engine), `gemini-agent-sdk/sessions` (session
 * persistence), `gemini-agent-sdk/model` (model clients), `gemini-agent-sdk/testing` (+ `/testing/vitest`).
 */
export { z } from 'zod';

export { GeminiCliAgent } from './agent/agent.js';
export type { SessionOptions } from './agent/agent.js';
export type { GeminiCliAgentOptions, AgentLimits } from './agent/agent-options.js';
export { GeminiCliSession } from './agent/session.js';
export type { SendResult } from './agent/send-result.js';
export type { SessionContext, AgentHandle, SessionHandle } from './core/session-context.js';
export type { SystemInstructions } from './agent/instructions.js';
export type { SystemPromptOption } from './agent/system-prompt.js';
export type {
  Feature,
  FeatureSession,
  FeatureWorkspace,
  FeatureDispose,
  SystemSectionProvider,
} from './core/feature.js';
export type {
  Interceptor,
  InterceptorControls,
  ModelCall,
  ModelChunk,
  ModelResponseStream,
  ModelInterceptor,
  ToolCheck,
  ToolDecision,
  ApprovalNotice,
  CompressNotice,
  ToolDecisionInterceptor,
  ToolRun,
  ToolInterceptor,
  Turn,
  TurnEvents,
  TurnInterceptor,
} from './core/interceptors.js';
export type {
  SessionPersistence,
  SessionLog,
  SessionLogEntry,
  SessionNote,
  SessionOpenOptions,
  PausedTurnData,
  ToolCallApproval,
} from './core/session-log.js';
export type { SessionApprovalDecision } from './policy/approvals/approval-resolution.js';

export { FileSessionStore } from './sessions/file-session-store.js';
export type { FileSessionStoreOptions } from './sessions/file-session-store.js';
export { MemorySessionStore } from './sessions/memory-session-store.js';
export type { MemorySessionStoreOptions } from './sessions/memory-session-store.js';
export type {
  SessionStore,
  SessionLease,
  AppendOutcome,
  StoreWarning,
  SessionSummary,
  StoredSession,
  NewSessionInit,
  StoreReadOptions,
  StoreLoadOptions,
} from './sessions/session-store.js';
export type {
  SessionRecord,
  MessageRecord,
  SessionMetadataRecord,
  SetRecord,
  RewindRecord,
  ToolCallRecord,
  SessionKind,
} from './sessions/records.js';
export type { SyncPolicy } from './sessions/jsonl-appender.js';
export { SessionExistsError } from './sessions/store-errors.js';

export { tool } from './tools/tool.js';
export type { Tool, ToolDefinition, AnyTool, ToolProvider } from './core/tool-definition.js';
export { SdkTool, SdkToolInvocation } from './tools/sdk-tool.js';
export type { SdkToolDeclaration, SdkToolExecuteOptions } from './tools/sdk-tool.js';
export type {
  ToolInputSchema,
  InferToolInput,
  JsonSchemaObject,
  JsonSchemaType,
  LegacyZodSchema,
} from './core/tool-input-schema.js';
export type { StandardSchemaV1, StandardJSONSchemaV1 } from './core/standard-schema.js';
export { ModelVisibleError } from './tools/model-visible-error.js';
export type {
  AgentTool,
  ToolResult,
  ToolKind,
  ToolCallInfo,
  ToolValidation,
} from './core/agent-tool.js';
export { TODO_STATUSES } from './core/agent-tool.js';

export type { TokenUsage, ContextWindowUsage } from './core/usage.js';
export type { ContextOptions } from './agent/context-options.js';
export { DEFAULT_PRICES, PRICES_DATE, callCost } from './context/budget.js';
export type { Budget, BudgetSpent, ModelPrice } from './context/budget.js';
export type { SessionBudget } from './agent/session-budget.js';
export type { ApprovalOutcome } from './loop/loop-types.js';

export { GeminiEventType, CompressionStatus } from './events.js';
export type { Todo, TodoList, TodoStatus } from './events.js';
export type {
  CompressionStatusValue,
  GeminiEventTypeName,
  ServerGeminiStreamEvent,
  GeminiStreamEvent,
  ThoughtSummary,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  FileDiff,
  DiffStat,
  ApprovalRequest,
  ApprovalRequiredInfo,
  StreamErrorInfo,
  FinishedInfo,
  InvalidStreamInfo,
  ContextWindowOverflowInfo,
  ChatCompressedInfo,
  BudgetExceededInfo,
  RetryEventInfo,
  ToolProgressInfo,
  WarningInfo,
  AgentExecutionInfo,
  HookSystemMessageInfo,
  McpApprovalDetails,
  SubagentActivityInfo,
  SubagentInnerEvent,
} from './events.js';

export { hook } from './hooks/hook.js';
export type { HookOptions, HookHandler, SdkHook, AnySdkHook } from './hooks/hook.js';
export type { RunAsCommandOptions } from './hooks/run-as-command.js';
export type { HookRunRecord } from './hooks/hook-executor.js';
export type { HookInfo, HookListing } from './hooks/hook-info.js';
export { convertClaudeHooks, migrateClaudeHooks } from './hooks/claude-hooks.js';
export type { ClaudeMigration } from './hooks/claude-hooks.js';
export { HOOK_EVENT_NAMES } from './hooks/hook-types.js';
export type {
  HookEventName,
  HookInput,
  HookInputBase,
  HookInputFields,
  HookOutput,
  HookOutputBase,
  HookSpecificOutputFields,
  HookDecision,
  HookSource,
  ToolInput,
  HookToolResponse,
  McpToolContext,
  LLMRequest,
  LLMResponse,
  HookToolConfig,
  SessionStartSource,
  SessionEndReason,
  PreCompressTrigger,
  NotificationType,
} from './hooks/hook-types.js';

export {
  GeminiAgentError,
  ConfigurationError,
  MissingCredentialsError,
  AuthenticationError,
  ModelCapabilityError,
  MissingDependencyError,
  ReplayError,
  ModelApiError,
  ModelBehaviorError,
  InvalidStreamError,
  ResponseTooLargeError,
  ToolExecutionError,
  McpServerError,
  PolicyDeniedError,
  LimitExceededError,
  SessionError,
  SessionNotFoundError,
  SessionLockedError,
  SessionBusyError,
  AbortError,
  InternalError,
} from './errors.js';
export type { GeminiAgentErrorOptions, InvalidStreamType } from './errors.js';

export { silentLogger, createStderrLogger } from './logger.js';
export type { Logger } from './logger.js';

export type { ContentGenerator } from './model/content-generator.js';
export type { RetryOptions, RetryAttemptInfo } from './model/retry.js';
export type {
  AgentFilesystem,
  AgentShell,
  SandboxFilesystem,
  SandboxShell,
  ShellProcess,
  ShellExit,
  FileStat,
  FileKind,
  DirEntry,
  GlobOptions,
  PathAccess,
  AgentShellOptions,
  AgentShellResult,
} from './core/workspace-types.js';
export { createWorkspace, type Workspace, type WorkspaceOptions } from './workspace/workspace.js';
export type { WorkspaceRoot } from './workspace/path-guard.js';
export type { CommandCheck, CommandDecision } from './workspace/workspace-shell.js';

export { skillDir, skillRoot } from './skills/skill-reference.js';
export type { SkillReference } from './skills/skill-reference.js';
export { SkillManager } from './skills/skill-manager.js';
export type { SkillDefinition, SkillInfo, SkillSource } from './skills/skill-definition.js';
export type { SkillApprovalDetails } from './skills/activate-skill-tool.js';
export type { SkillDiscoveryTiers } from './skills/skill-discovery.js';

export { extension, extensionDir } from './extensions/extension.js';
export type {
  Extension,
  ExtensionOptions,
  ExtensionDirReference,
  ExtensionReference,
} from './extensions/extension.js';
export { ExtensionError, type ExtensionSetting } from './extensions/extension-manifest.js';
export { subagent, Subagent } from './subagents/subagent.js';
export type { SubagentRunOptions } from './subagents/subagent.js';
export type {
  SubagentOptions,
  SubagentInstructions,
  SubagentRunResult,
  SubagentTerminateMode,
} from './subagents/subagent-types.js';
export type { SubagentInfo, SubagentListing } from './subagents/subagents-feature.js';
export { loadAgentsFromDirectory, type AgentLoadResult } from './subagents/agent-loader.js';
export { AgentLoadError, parseAgentMarkdown } from './subagents/agent-file.js';
export type { AgentFileOptions } from './subagents/agent-file.js';
export type { AgentDirectoryOptions, ExtensionAgentDir } from './subagents/agent-loader.js';
export { INVOKE_AGENT_TOOL_NAME } from './core/session-runtime.js';
export type {
  SessionRuntime,
  SubagentCallInfo,
  RuntimeStreamRetry,
} from './core/session-runtime.js';
export { ExtensionManager } from './extensions/extension-manager.js';
export type { AgentExtensionInfo, ExtensionListing } from './agent/agent-extensions.js';
export type {
  ConfigureOptions,
  ExtensionManagerOptions,
  ExtensionScope,
  ExtensionSettingRequest,
  InstallOptions,
  UpdateAllResult,
} from './extensions/extension-manager.js';
export type { ExtensionInfo } from './extensions/extension-info.js';
export type {
  ExtensionUpdateCheck,
  ExtensionUpdateInfo,
  ExtensionUpdateState,
  UpdateOptions,
} from './extensions/extension-update.js';
export {
  createExtensionFolder,
  validateExtensionFolder,
  EXTENSION_TEMPLATES,
} from './extensions/extension-scaffold.js';
export type { ExtensionTemplate } from './extensions/extension-scaffold.js';
export { INSTALL_WARNING as EXTENSION_INSTALL_WARNING } from './extensions/extension-consent.js';

export type {
  PolicyCall,
  PolicyCheckContext,
  PolicyCheckResult,
  PolicyExplanation,
  PolicyRuleInfo,
} from './policy/policy-engine.js';
export type { PolicyOptions } from './policy/policy-options.js';
export type { PolicyRule, PolicyDecision, ApprovalMode, PolicyTier } from './core/policy-rule.js';
export { PolicyRuleError } from './policy/policy-errors.js';
export type { PolicySource, RuleOrigin } from './core/policy-rule.js';
export type { PolicyFileRef } from './policy/policy-file.js';
export type { ApprovalsMode } from './policy/policy-gate.js';
export type { SessionRules } from './policy/session-rules.js';
export type {
  ApprovalHandler,
  ApprovalResponse,
  ApprovalDecision,
  ApprovalScope,
} from './policy/approvals/approval-response.js';
export type {
  AskUserHandler,
  AskUserRequest,
  AskUserResponse,
  AskUserQuestion,
  AskUserOption,
} from './tools/builtin/ask-user.js';
export type {
  SessionPolicy,
  ApprovalLogEntry,
  ApprovalLogDecision,
  PolicyCallInput,
  SessionPolicyState,
} from './policy/session-policy.js';

export { loadSettings, SETTINGS_SOURCES } from './settings/load-settings.js';
export type {
  LoadedSettings,
  LoadedSettingsFile,
  LoadSettingsOptions,
  SettingsScope,
  SettingsSource,
} from './settings/load-settings.js';
export { Settings, DEFAULT_SETTINGS } from './settings/settings-schema.js';
export type { McpServerSettings, HookDefinitionSettings } from './settings/settings-schema.js';
export type { SettingsWarning } from './settings/settings-file.js';
export { SettingsFileError } from './settings/settings-errors.js';
export { resolveFolderTrust } from './settings/folder-trust.js';
export type {
  FolderTrust,
  FolderTrustOptions,
  TrustSource,
  TrustLevel,
} from './settings/folder-trust.js';
export type { AgentSettingsOptions } from './agent/agent-settings.js';

export { AgentMcp } from './mcp/agent-mcp.js';
export type { McpPromptResult } from './mcp/agent-mcp.js';
export type { McpServerConfig, McpTransportKind } from './mcp/mcp-config.js';
export type {
  McpServerState,
  McpPromptInfo,
  McpPromptArgument,
  McpPromptMessage,
  McpContentBlock,
  McpResourceInfo,
  McpResourceContents,
  McpGetPromptResult,
  McpReadResourceResult,
  McpAnnotations,
  McpIcon,
  McpMeta,
} from './mcp/mcp-types.js';
export type { McpServerStatus, McpPrompt, McpWarning } from './mcp/mcp-manager.js';
export type { McpResource } from './mcp/mcp-resource-tools.js';

export { startTelemetry } from './telemetry/start-telemetry.js';
export type { TelemetryExport, TelemetryExportSettings } from './telemetry/start-telemetry.js';
export { resolveTelemetrySettings, DEFAULT_OTLP_ENDPOINT } from './telemetry/telemetry-settings.js';
export type {
  ResolvedTelemetrySettings,
  TelemetryFlagOverrides,
} from './telemetry/telemetry-settings.js';
export type { TelemetryOptions, TelemetryTracerProvider } from './telemetry/telemetry-options.js';

export { startSessionViewer } from './viewer/session-viewer.js';
export type { SessionViewer, SessionViewerOptions } from './viewer/session-viewer.js';
export { createSessionViewerHandler } from './viewer/viewer-handler.js';
export type { SessionViewerHandler, SessionViewerHandlerOptions } from './viewer/viewer-handler.js';
export type {
  TimelineView,
  TimelineTurn,
  TimelineItem,
  TimelineModelCall,
  TimelineToolCall,
  TimelineNote,
  TimelineTotals,
  TimelineTokens,
  TimelineDecision,
} from './viewer/timeline-types.js';

export { GeminiCliAcpServer } from './acp/acp-server.js';
export type { AcpByteStream, AcpServerConnection } from './acp/acp-server.js';
export type { GeminiCliAcpServerOptions } from './acp/acp-server-options.js';

export { DEFAULT_MODEL } from './model/models.js';
export { AuthType, getAuthTypeFromEnv } from './model/auth/auth-type.js';
export { openAICompatible } from './model/openai/openai-compatible.js';
export type { OpenAICompatibleOptions } from './model/openai/openai-compatible.js';
export type {
  ModelProvider,
  ProviderCapabilities,
  ProviderContext,
} from './model/model-provider.js';
export { selectAuthType } from './model/auth/auth-selection.js';
export { loginWithGoogle, logoutFromGoogle } from './model/auth/login-entry.js';
export type { GoogleLoginOptions, GoogleLoginResult } from './model/auth/google-login.js';
export type {
  AuthSelection,
  AuthSelectionOptions,
  AuthSettings,
  AuthSource,
} from './model/auth/auth-selection.js';
