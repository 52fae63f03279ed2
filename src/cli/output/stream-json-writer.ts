import type {
  ServerGeminiStreamEvent,
  SubagentActivityInfo,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
} from '../sdk.js';
import type { OutputWriter, RunOutcome, RunStart, Sink } from './output-writer.js';
import { toolOutputText } from './tool-output.js';

/** Message of the `error` line for `loop_detected` (gemini-cli's text, severity warning). */
export const LOOP_DETECTED_MESSAGE = 'Loop detected, stopping execution';
/** Message of the `error` line for `max_session_turns` (gemini-cli's text, severity error). */
export const MAX_TURNS_MESSAGE = 'Maximum session turns exceeded';

/** gemini-cli's `tool_use` fields of a call. */
function toolUse(request: ToolCallRequestInfo): Record<string, unknown> {
  return { tool_name: request.name, tool_id: request.callId, parameters: request.args };
}

/** gemini-cli's `tool_result` fields of an answered call. */
function toolResult(response: ToolCallResponseInfo): Record<string, unknown> {
  const { callId, error } = response;
  const output = toolOutputText(response);
  return {
    tool_id: callId,
    status: error === undefined ? 'success' : 'error',
    ...(output === undefined ? {} : { output }),
    ...(error === undefined
      ? {}
      : { error: { type: error.type ?? 'TOOL_EXECUTION_ERROR', message: error.message } }),
  };
}

/**
 * `--output-format stream-json`: one JSON object per line, each with `type` and an ISO `timestamp`, using
 * gemini-cli's event names and fields (`init`, `message`, `tool_use`, `tool_result`, `error`, `result`).
 *
 * A subagent's tool calls and errors (gemini-cli prints none of them) are `tool_use` / `tool_result` / `error`
 * lines too, with two more fields: `parent_tool_id` (the parent's `invoke_agent` call) and `agent_name`. A reader
 * that ignores unknown fields sees them as calls; one that draws a tree nests them under `parent_tool_id`.
 */
export class StreamJsonWriter implements OutputWriter {
  constructor(
    private readonly out: Sink,
    private readonly now: () => Date = () => new Date(),
  ) {}

  start(info: RunStart): void {
    this.emit('init', { session_id: info.sessionId, model: info.model });
    if (info.prompt !== undefined) this.emit('message', { role: 'user', content: info.prompt });
  }

  event(event: ServerGeminiStreamEvent): void {
    switch (event.type) {
      case 'content':
        if (event.value !== '') {
          this.emit('message', { role: 'assistant', content: event.value, delta: true });
        }
        return;
      case 'subagent_activity':
        this.subagentEvent(event.value);
        return;
      case 'tool_call_request':
        this.emit('tool_use', toolUse(event.value));
        return;
      case 'tool_call_response':
        this.emit('tool_result', toolResult(event.value));
        return;
      case 'error':
        this.emit('error', { severity: 'error', message: event.value.error.message });
        return;
      case 'invalid_stream':
        this.emit('error', { severity: 'error', message: event.value.message });
        return;
      case 'loop_detected':
        this.emit('error', { severity: 'warning', message: LOOP_DETECTED_MESSAGE });
        return;
      case 'agent_execution_blocked':
        this.emit('error', {
          severity: 'warning',
          message: `Agent execution blocked: ${event.value.systemMessage?.trim() || event.value.reason}`,
        });
        return;
      case 'max_session_turns':
        this.emit('error', { severity: 'error', message: MAX_TURNS_MESSAGE });
        return;
      default:
        return;
    }
  }

  /** A subagent's tool call, result or error, nested under the parent's `invoke_agent` call. */
  private subagentEvent(activity: SubagentActivityInfo): void {
    const nested = {
      ...(activity.parentCallId === undefined ? {} : { parent_tool_id: activity.parentCallId }),
      agent_name: activity.agentName,
    };
    const inner = activity.event;
    switch (inner.type) {
      case 'tool_call_request':
        this.emit('tool_use', { ...toolUse(inner.value), ...nested });
        return;
      case 'tool_call_response':
        this.emit('tool_result', { ...toolResult(inner.value), ...nested });
        return;
      case 'error':
        // The parent goes on (its invoke_agent call gets the subagent's result): a warning, not an error.
        this.emit('error', { severity: 'warning', message: inner.value.error.message, ...nested });
        return;
      default:
        return;
    }
  }

  finish(outcome: RunOutcome): void {
    this.emit('result', {
      status: outcome.status,
      ...(outcome.error === undefined
        ? {}
        : { error: { type: outcome.error.type, message: outcome.error.message } }),
      stats: outcome.stats.stream,
    });
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    this.out(`${JSON.stringify({ type, timestamp: this.now().toISOString(), ...fields })}\n`);
  }
}
