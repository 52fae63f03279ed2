import type { FinishReason, GenerateContentResponseUsageMetadata, Part } from '@google/genai';

/**
 * Event type strings, identical to gemini-cli's `GeminiEventType` so code written for the reference SDK keeps
 * working. Additions (`tool_call_response` is emitted here, `approval_required`) use the same grammar.
 */
export const GeminiEventType = {
  Content: 'content',
  Thought: 'thought',
  ToolCallRequest: 'tool_call_request',
  ToolCallResponse: 'tool_call_response',
  ToolCallConfirmation: 'tool_call_confirmation',
  ApprovalRequired: 'approval_required',
  UserCancelled: 'user_cancelled',
  Error: 'error',
  ChatCompressed: 'chat_compressed',
  MaxSessionTurns: 'max_session_turns',
  Finished: 'finished',
  LoopDetected: 'loop_detected',
  Citation: 'citation',
  Retry: 'retry',
  InvalidStream: 'invalid_stream',
  ModelInfo: 'model_info',
} as const;

/** One of the {@link GeminiEventType} strings. */
export type GeminiEventTypeName = (typeof GeminiEventType)[keyof typeof GeminiEventType];

/** A parsed thought part: the first `**…**` is the subject, the rest the description. */
export interface ThoughtSummary {
  subject: string;
  description: string;
}

/** Value of `tool_call_request`: one function call the model asked for. */
export interface ToolCallRequestInfo {
  /** Unique id of this call within the session (`<name>__<raw id>` as gemini-cli records it). */
  callId: string;
  /** Tool name as the model sent it (trimmed). */
  name: string;
  /** Arguments as an object (a JSON string from the model is parsed first). */
  args: Record<string, unknown>;
  /** Always false: the model, not the client, asked for this call. */
  isClientInitiated: false;
  /** The prompt id (the session id, as in the reference SDK). */
  prompt_id: string;
}

/** Value of `tool_call_response`: the result of one call, exactly as sent back to the model. */
export interface ToolCallResponseInfo {
  callId: string;
  name: string;
  /** The parts sent to the model for this call (one `functionResponse`, possibly followed by media parts). */
  responseParts: Part[];
  /** Human-readable result (for UIs and the CLI's `tool_result`). */
  resultDisplay?: string;
  /** Present when the call failed, was denied or was cancelled. */
  error?: { message: string; type?: string };
  /** Wall time the call took, in milliseconds. */
  durationMs?: number;
}

/** What a human is asked to approve. */
export interface ApprovalRequest {
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** One line saying what the call will do, e.g. `Run shell command: ls -la`. */
  description: string;
  /** Kind of tool (`read`, `edit`, `execute`, …). */
  kind: string;
  /** For `activate_skill`: the skill that would be activated and the folder tree it would share. */
  skill?: { name: string; description: string; location: string; folderTree: string };
  /** The rule that asked, when a policy rule decided. */
  reason?: string;
}

/** Value of `approval_required`: calls waiting for `session.resolveApprovals()` (approvals mode `pause`). */
export interface ApprovalRequiredInfo {
  pending: ApprovalRequest[];
}

/** Value of `error`. */
export interface StreamErrorInfo {
  error: { message: string; status?: number; code?: string };
}

/** Value of `finished`. */
export interface FinishedInfo {
  reason: FinishReason | undefined;
  usageMetadata: GenerateContentResponseUsageMetadata | undefined;
}

/** Value of `invalid_stream`. */
export interface InvalidStreamInfo {
  type: string;
  message: string;
}

/** Value of `chat_compressed`. */
export interface ChatCompressedInfo {
  originalTokenCount: number;
  newTokenCount: number;
  compressionStatus: number;
}

/** Every event `sendStream` yields, as one discriminated union on `type`. */
export type ServerGeminiStreamEvent =
  | { type: 'content'; value: string }
  | { type: 'thought'; value: ThoughtSummary }
  | { type: 'tool_call_request'; value: ToolCallRequestInfo }
  | { type: 'tool_call_response'; value: ToolCallResponseInfo }
  | {
      type: 'tool_call_confirmation';
      value: { request: ToolCallRequestInfo; details: ApprovalRequest };
    }
  | { type: 'approval_required'; value: ApprovalRequiredInfo }
  | { type: 'user_cancelled'; value?: undefined }
  | { type: 'error'; value: StreamErrorInfo }
  | { type: 'chat_compressed'; value: ChatCompressedInfo }
  | { type: 'max_session_turns'; value?: undefined }
  | { type: 'finished'; value: FinishedInfo }
  | { type: 'loop_detected'; value?: undefined }
  | { type: 'citation'; value: string }
  | { type: 'retry'; value?: undefined }
  | { type: 'invalid_stream'; value: InvalidStreamInfo }
  | { type: 'model_info'; value: string };

/** Alias kept for readers of the reference SDK's docs. */
export type GeminiStreamEvent = ServerGeminiStreamEvent;
