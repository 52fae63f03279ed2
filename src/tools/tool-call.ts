import type { ToolCallRequestInfo } from '../events.js';

/**
 * One function call of a model turn, ready for the scheduler: the event value plus, when the call cannot run
 * as sent (no name, arguments that are not a JSON object), the error the model gets instead.
 */
export interface ToolCallInput {
  /** The `tool_call_request` value (args already parsed into an object). */
  request: ToolCallRequestInfo;
  /** Set when the call is malformed; the scheduler answers it with this error and runs nothing. */
  malformed?: { message: string; type: string };
}
