import type { ServerGeminiStreamEvent } from '../sdk.js';
import type { OutputWriter, RunOutcome, RunStart, Sink } from './output-writer.js';
import { toolOutputText } from './tool-output.js';

/** Message of the `error` line for `loop_detected` (gemini-cli's text, severity warning). */
export const LOOP_DETECTED_MESSAGE = 'Loop detected, stopping execution';
/** Message of the `error` line for `max_session_turns` (gemini-cli's text, severity error). */
export const MAX_TURNS_MESSAGE = 'Maximum session turns exceeded';

/**
 * `--output-format stream-json`: one JSON object per line, each with `type` and an ISO `timestamp`, using
 * gemini-cli's event names and fields (`init`, `message`, `tool_use`, `tool_result`, `error`, `result`).
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
      case 'tool_call_request':
        this.emit('tool_use', {
          tool_name: event.value.name,
          tool_id: event.value.callId,
          parameters: event.value.args,
        });
        return;
      case 'tool_call_response': {
        const { callId, error } = event.value;
        const output = toolOutputText(event.value);
        this.emit('tool_result', {
          tool_id: callId,
          status: error === undefined ? 'success' : 'error',
          ...(output === undefined ? {} : { output }),
          ...(error === undefined
            ? {}
            : { error: { type: error.type ?? 'TOOL_EXECUTION_ERROR', message: error.message } }),
        });
        return;
      }
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
