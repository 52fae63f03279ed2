/**
 * Typed errors. Every error the SDK throws is a {@link GeminiAgentError} with a stable `code`, so callers can
 * branch on `err.code` (or `instanceof`) instead of parsing messages. Subclasses say who is at fault.
 */

/** Options accepted by every SDK error constructor. */
export interface GeminiAgentErrorOptions {
  /** The underlying error, if any. */
  cause?: unknown;
}

/** Base class of every error thrown by gemini-agent-sdk. `code` is stable across releases. */
export class GeminiAgentError extends Error {
  /** Stable machine-readable code, e.g. `CONFIGURATION`, `MODEL_API`, `SESSION_LOCKED`. */
  readonly code: string;

  constructor(code: string, message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
  }
}

/** The caller configured something wrong (bad option, missing credentials, bad file). Fix the input. */
export class ConfigurationError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'CONFIGURATION', message, options);
  }
}

/** No usable Gemini credentials were found. */
export class MissingCredentialsError extends ConfigurationError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'MISSING_CREDENTIALS' });
  }
}

/**
 * Signing in failed: the chosen auth method could not produce usable credentials (a rejected or revoked token,
 * a failed refresh, no metadata server, a Code Assist account that needs a project or validation), or the Gemini
 * API rejected them (HTTP 401, 403, or a 400 saying the API key is invalid: `status` is set). The message names
 * the method, why it failed and what to set; it never contains a token. Never retried; the CLI exits 41.
 */
export class AuthenticationError extends GeminiAgentError {
  /** The auth type that was tried (`oauth-personal`, `compute-default-credentials`, …), when known. */
  readonly authType: string | undefined;
  /** The HTTP status of the API's refusal, when it came from an API answer. */
  readonly status: number | undefined;

  constructor(
    message: string,
    details: { authType?: string; code?: string; status?: number } = {},
    options: GeminiAgentErrorOptions = {},
  ) {
    super(details.code ?? 'AUTHENTICATION', message, options);
    this.authType = details.authType;
    this.status = details.status;
  }
}

/**
 * The request needs a feature the model provider does not have (grounding with Google Search on an
 * OpenAI-compatible server, `countTokens` without a token-count endpoint…). Remove the feature or use a
 * provider that has it.
 */
export class ModelCapabilityError extends ConfigurationError {
  /** The provider, e.g. `openai`. */
  readonly provider: string;
  /** The missing capability, e.g. `grounding`, `countTokens`. */
  readonly capability: string;

  constructor(
    message: string,
    details: { provider: string; capability: string },
    options: GeminiAgentErrorOptions = {},
  ) {
    super(message, { ...options, code: 'MODEL_CAPABILITY_UNSUPPORTED' });
    this.provider = details.provider;
    this.capability = details.capability;
  }
}

/**
 * A feature needs an optional peer dependency that is not installed: the OpenAI-compatible provider needs
 * `openai`, the ACP server mode `@agentclientprotocol/sdk`, the MCP client `@modelcontextprotocol/sdk`, the
 * PostgreSQL session store `pg`. The message names the command that fixes it (`npm install <package>`). The
 * package's own load error is the `cause`.
 */
export class MissingDependencyError extends ConfigurationError {
  /** The npm package to install, e.g. `@modelcontextprotocol/sdk`. */
  readonly packageName: string;
  /** The feature that needs it, e.g. `the MCP client`. */
  readonly feature: string;

  constructor(
    details: { packageName: string; feature: string; versionRange?: string },
    options: GeminiAgentErrorOptions = {},
  ) {
    const spec =
      details.versionRange === undefined
        ? details.packageName
        : `"${details.packageName}@${details.versionRange}"`;
    super(
      `${capitalize(details.feature)} needs the package ${details.packageName}, which is not installed: ` +
        `run npm install ${spec} (it is an optional peer dependency of gemini-agent-sdk).`,
      { ...options, code: 'MISSING_DEPENDENCY' },
    );
    this.packageName = details.packageName;
    this.feature = details.feature;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A replay file (`fakeResponses`) is missing, malformed, exhausted or out of step with the calls made. */
export class ReplayError extends ConfigurationError {
  /** The replay file. */
  readonly file: string;
  /** 1-based line number the error refers to, when there is one. */
  readonly line: number | undefined;

  constructor(
    message: string,
    details: { file: string; line?: number; code?: string },
    options: GeminiAgentErrorOptions = {},
  ) {
    super(message, { ...options, code: details.code ?? 'REPLAY' });
    this.file = details.file;
    this.line = details.line;
  }
}

/** The model API answered with an error status (after retries, if the status was retryable). */
export class ModelApiError extends GeminiAgentError {
  /** HTTP status, when the failure had one. */
  readonly status: number | undefined;
  /** Whether the failure was of a retryable kind (429, 499, 5xx, network). */
  readonly retryable: boolean;

  constructor(
    message: string,
    details: { status?: number; retryable?: boolean; code?: string } = {},
    options: GeminiAgentErrorOptions = {},
  ) {
    super(details.code ?? 'MODEL_API', message, options);
    this.status = details.status;
    this.retryable = details.retryable ?? false;
  }
}

/** The model produced something the loop cannot use (malformed stream, invalid function call). */
export class ModelBehaviorError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'MODEL_BEHAVIOR', message, options);
  }
}

/**
 * gemini-cli's reasons a model response is unusable (its `InvalidStreamError` types), plus `PROMPT_BLOCKED` for a
 * prompt refused through `promptFeedback.blockReason`.
 */
export type InvalidStreamType =
  | 'NO_FINISH_REASON'
  | 'NO_RESPONSE_TEXT'
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'MAX_TOKENS_EXCEEDED'
  | 'SAFETY_BLOCKED'
  | 'RECITATION_BLOCKED'
  | 'OTHER_BLOCKED'
  | 'THINKING_ONLY_RESPONSE'
  | 'PROMPT_BLOCKED';

/**
 * A model response that cannot be used — blocked, empty, cut off without a finish reason, a malformed function
 * call — still so after gemini-cli's retries (code `INVALID_STREAM`). `type` names the reason; the stream yields
 * an `invalid_stream` event with the same type and message first.
 */
export class InvalidStreamError extends ModelBehaviorError {
  /** Why the response was unusable. */
  readonly type: InvalidStreamType;

  constructor(message: string, type: InvalidStreamType, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'INVALID_STREAM' });
    this.type = type;
  }
}

/** An MCP server failed to answer a request made outside a tool call (a prompt, a resource read). */
export class McpServerError extends GeminiAgentError {
  /** The server's name (its key in `mcpServers`). */
  readonly serverName: string;

  constructor(
    message: string,
    details: { serverName: string },
    options: GeminiAgentErrorOptions = {},
  ) {
    super('MCP_SERVER', message, options);
    this.serverName = details.serverName;
  }
}

/** A tool threw an error that was not meant for the model; `cause` holds the original error. */
export class ToolExecutionError extends GeminiAgentError {
  /** The tool's name. */
  readonly toolName: string;
  /** The call id of the failed call. */
  readonly callId: string;

  constructor(
    message: string,
    details: { toolName: string; callId: string },
    options: GeminiAgentErrorOptions = {},
  ) {
    super('TOOL_EXECUTION', message, options);
    this.toolName = details.toolName;
    this.callId = details.callId;
  }
}

/** An action was refused by the policy or by the workspace sandbox. */
export class PolicyDeniedError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'POLICY_DENIED', message, options);
  }
}

/** A configured limit was reached (turns, time, size). */
export class LimitExceededError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'LIMIT_EXCEEDED', message, options);
  }
}

/**
 * One model response grew past `limits.maxResponseBytes` (code `RESPONSE_TOO_LARGE`): the call was aborted and the
 * partial response dropped; the session stays usable.
 */
export class ResponseTooLargeError extends LimitExceededError {
  /** The limit that was exceeded, in bytes. */
  readonly limitBytes: number;

  constructor(limitBytes: number, options: GeminiAgentErrorOptions = {}) {
    super(
      `The model response exceeded ${formatBytes(limitBytes)} (limits.maxResponseBytes), so the call was ` +
        'aborted and the partial response dropped. Ask for a shorter answer, or raise limits.maxResponseBytes.',
      { ...options, code: 'RESPONSE_TOO_LARGE' },
    );
    this.limitBytes = limitBytes;
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** A session could not be found, loaded, stored or used. */
export class SessionError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions & { code?: string } = {}) {
    super(options.code ?? 'SESSION', message, options);
  }
}

/** The requested session does not exist in the store. */
export class SessionNotFoundError extends SessionError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'SESSION_NOT_FOUND' });
  }
}

/** Another live session (in this or another process) holds the lease on this session id. */
export class SessionLockedError extends SessionError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'SESSION_LOCKED' });
  }
}

/** `sendStream` was called while another `sendStream` on the same session was still running. */
export class SessionBusyError extends SessionError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'SESSION_BUSY' });
  }
}

/** The operation was aborted through its `AbortSignal`. */
export class AbortError extends GeminiAgentError {
  constructor(message = 'The operation was aborted.', options: GeminiAgentErrorOptions = {}) {
    super('ABORTED', message, options);
  }
}

/** A bug in the SDK: an invariant did not hold. Please report it. */
export class InternalError extends GeminiAgentError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super('INTERNAL', message, options);
  }
}
