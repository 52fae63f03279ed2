import type { Part } from '@google/genai';
import type { ToolCallRequestInfo, ToolCallResponseInfo } from '../events.js';
import type { ToolResult } from '../core/agent-tool.js';

/** Message sent for a call that was cancelled by an abort. */
export const CANCELLED_MESSAGE = '[Operation Cancelled] Reason: User cancelled the operation.';

function functionResponsePart(
  request: ToolCallRequestInfo,
  response: Record<string, unknown>,
): Part {
  return { functionResponse: { id: request.callId, name: request.name, response } };
}

/**
 * The response for a failed, refused or cancelled call: `{ functionResponse: { id, name, response: { error } } }`.
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
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

/** The response for a call that was aborted before it finished. */
export function cancelledResponse(
  request: ToolCallRequestInfo,
  durationMs?: number,
): ToolCallResponseInfo {
  return errorResponse(request, CANCELLED_MESSAGE, 'cancelled', durationMs);
}

/**
 * Converts a tool's {@link ToolResult} to the parts sent to the model, as gemini-cli does: an error result sends
 * only `{ error }`; a string becomes `{ output }`; for parts, the texts are joined with `\n` into `output` and
 * media parts (inlineData, fileData) follow the functionResponse as sibling parts.
 */
export function resultToResponse(
  request: ToolCallRequestInfo,
  result: ToolResult,
  durationMs?: number,
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
  let output: string;
  const siblings: Part[] = [];
  if (typeof result.llmContent === 'string') {
    output = result.llmContent;
  } else {
    const texts: string[] = [];
    for (const part of result.llmContent) {
      if (typeof part.text === 'string') texts.push(part.text);
      else siblings.push(part);
    }
    output = texts.join('\n');
  }
  return {
    callId: request.callId,
    name: request.name,
    responseParts: [functionResponsePart(request, { output }), ...siblings],
    resultDisplay: result.returnDisplay ?? output,
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}
