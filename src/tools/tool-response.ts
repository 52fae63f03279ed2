import type { Part } from '@google/genai';
import type { ToolCallRequestInfo, ToolCallResponseInfo } from '../events.js';
import type { AgentTool, ToolResult } from '../core/agent-tool.js';
import { functionResponseParts } from './function-response.js';

/** Sent for a call that was running when the signal aborted (gemini-cli's tool executor wording). */
export const CANCELLED_RUNNING_MESSAGE = '[Operation Cancelled] User cancelled tool execution.';
/** Sent for a call that had not started when the signal aborted (gemini-cli's scheduler wording). */
export const CANCELLED_QUEUED_MESSAGE = '[Operation Cancelled] Reason: Operation cancelled';

function functionResponsePart(
  request: ToolCallRequestInfo,
  response: Record<string, unknown>,
): Part {
  return { functionResponse: { id: request.callId, name: request.name, response } };
}

/**
 * The response for a failed, refused or cancelled call: `{ functionResponse: { id, name, response: { error } } }`,
 * with `error` and gemini-cli's `errorType` both carrying `type`.
 */
export function errorResponse(
  request: ToolCallRequestInfo,
  message: string,
  type: string,
  durationMs?: number,
): ToolCallResponseInfo {
  return {
    callId: request.callId,
    name: request.name,
    responseParts: [functionResponsePart(request, { error: message })],
    resultDisplay: message,
    error: { message, type },
    errorType: type,
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

/**
 * The response for a call the signal cancelled: `running` when it had started (gemini-cli's
 * `[Operation Cancelled] User cancelled tool execution.`), `queued` when it never ran
 * (`[Operation Cancelled] Reason: Operation cancelled`).
 */
export function cancelledResponse(
  request: ToolCallRequestInfo,
  stage: 'queued' | 'running',
  durationMs?: number,
): ToolCallResponseInfo {
  const message = stage === 'running' ? CANCELLED_RUNNING_MESSAGE : CANCELLED_QUEUED_MESSAGE;
  return errorResponse(request, message, 'cancelled', durationMs);
}

/**
 * Converts a tool's {@link ToolResult} to the parts sent to the model, as gemini-cli does: an error result sends
 * only `{ error }`; a string becomes `{ output }`; parts go through {@link functionResponseParts} (texts joined
 * into `output`, media nested or as siblings depending on `model`).
 */
export function resultToResponse(
  request: ToolCallRequestInfo,
  result: ToolResult,
  durationMs?: number,
  model?: string,
): ToolCallResponseInfo {
  if (result.error) {
    return {
      ...errorResponse(
        request,
        result.error.message,
        result.error.type ?? 'execution_failed',
        durationMs,
      ),
      resultDisplay: result.returnDisplay ?? result.error.message,
    };
  }
  const responseParts =
    typeof result.llmContent === 'string'
      ? [functionResponsePart(request, { output: result.llmContent })]
      : functionResponseParts(request.callId, request.name, result.llmContent, model);
  const output = responseParts[0]?.functionResponse?.response?.['output'];
  return {
    callId: request.callId,
    name: request.name,
    responseParts,
    resultDisplay: result.returnDisplay ?? (typeof output === 'string' ? output : ''),
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(result.fileDiff === undefined ? {} : { fileDiff: result.fileDiff }),
  };
}

/**
 * Adds what gemini-cli records about a call's tool to its response: the display name, the call's description
 * (`tool.describe(args)`; empty when that throws on odd arguments) and whether its output renders as Markdown.
 */
export function withToolDisplay(
  response: ToolCallResponseInfo,
  tool: Pick<AgentTool, 'displayName' | 'describe' | 'kind'>,
  args: Record<string, unknown>,
): ToolCallResponseInfo {
  let description: string;
  try {
    description = tool.describe(args);
  } catch {
    description = '';
  }
  return {
    ...response,
    displayName: tool.displayName,
    description,
    renderOutputAsMarkdown: tool.kind !== 'execute',
  };
}
