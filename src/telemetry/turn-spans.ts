import type { ServerGeminiStreamEvent } from '../events.js';
import type { Turn, TurnEvents } from '../core/interceptors.js';
import type { TelemetryRecorder } from './telemetry-recorder.js';
import { ATTR, EVENT, providerOf } from './semconv.js';
import type { TurnState } from './session-spans.js';
import { endOpenTools, onHeldCalls, onToolRequest, onToolResponse } from './tool-spans.js';

/** The text of a prompt's parts, for `gen_ai.input.messages`. */
function promptMessages(turn: Turn): unknown {
  if (turn.prompt === undefined) return undefined;
  return [{ role: 'user', parts: turn.prompt }];
}

/** Everything a turn's events say that its spans record. */
function observe(
  recorder: TelemetryRecorder,
  state: TurnState,
  event: ServerGeminiStreamEvent,
  output: string[],
): void {
  switch (event.type) {
    case 'content':
      output.push(event.value);
      return;
    case 'tool_call_request':
      onToolRequest(state, event.value);
      return;
    case 'tool_call_response':
      onToolResponse(recorder, state, event.value);
      return;
    case 'approval_required':
      onHeldCalls(state, event.value.pending);
      return;
    case 'retry': {
      const v = event.value;
      const attributes = {
        'gemini_agent.retry.attempt': v.attempt,
        'gemini_agent.retry.max_attempts': v.maxAttempts,
        'gemini_agent.retry.delay_ms': v.delayMs,
        'gemini_agent.retry.phase': v.phase,
        'gemini_agent.retry.reason': v.reason,
        ...(v.status === undefined ? {} : { 'http.response.status_code': v.status }),
        ...(v.code === undefined ? {} : { [ATTR.errorType]: v.code }),
      };
      (state.chat ?? state.span).addEvent(EVENT.retry, attributes);
      if (state.chat !== undefined) state.span.addEvent(EVENT.retry, attributes);
      recorder.signals?.retried({
        sessionId: state.sessionId,
        model: state.model,
        attempt: v.attempt,
        delayMs: v.delayMs,
        phase: v.phase,
        reason: v.reason,
      });
      return;
    }
    case 'chat_compressed':
      state.span.addEvent(EVENT.compressed, {
        'gemini_agent.compression.original_tokens': event.value.originalTokenCount,
        'gemini_agent.compression.new_tokens': event.value.newTokenCount,
      });
      recorder.signals?.compressed(
        state.sessionId,
        event.value.originalTokenCount,
        event.value.newTokenCount,
      );
      return;
    case 'warning':
      state.span.addEvent(EVENT.warning, {
        'gemini_agent.warning.code': event.value.code,
        'gemini_agent.warning.message': event.value.message,
      });
      return;
    case 'loop_detected':
      state.span.addEvent(EVENT.loopDetected);
      return;
    case 'error':
      recorder.failWith(state.span, event.value.error.code ?? 'error', event.value.error.message);
      return;
    default:
      return;
  }
}

/**
 * Around each turn: an `invoke_agent <agent>` span, the parent of the turn's `chat` and `execute_tool` spans (and,
 * through the active context, of the spans of a subagent's turns).
 */
export function traceTurn(
  recorder: TelemetryRecorder,
  turn: Turn,
  next: (turn?: Turn) => TurnEvents,
): TurnEvents {
  return (async function* traced(): AsyncGenerator<ServerGeminiStreamEvent, void> {
    const sessionId = turn.session.id;
    const outer = recorder.turn(sessionId);
    const { span, context } = recorder.start(
      `invoke_agent ${recorder.agentName}`,
      'internal',
      {
        [ATTR.operationName]: 'invoke_agent',
        [ATTR.agentName]: recorder.agentName,
        [ATTR.conversationId]: sessionId,
        [ATTR.providerName]: providerOf(undefined),
        ...(turn.prompt === undefined ? { [ATTR.resumed]: true } : {}),
      },
      outer?.context,
    );
    const inert =
      recorder.signals === undefined &&
      !span.isRecording() &&
      !recorder.api.trace.isSpanContextValid(span.spanContext());
    const state: TurnState = {
      sessionId,
      promptId: recorder.nextPromptId(sessionId),
      span,
      context,
      resumed: turn.prompt === undefined,
      inert,
      chat: undefined,
      tools: new Map(),
      asked: new Map(),
      requested: new Map(),
      modelCalls: 0,
      toolCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    recorder.setTurn(sessionId, state);
    if (inert) {
      try {
        yield* next();
      } finally {
        span.end();
        recorder.setTurn(sessionId, outer);
      }
      return;
    }
    recorder.content(span, ATTR.inputMessages, promptMessages(turn));
    if (turn.prompt !== undefined) {
      const text = turn.prompt.map((p) => p.text ?? '').join('');
      recorder.signals?.userPrompt(sessionId, state.promptId, text);
    }
    const output: string[] = [];
    try {
      for await (const event of next()) {
        observe(recorder, state, event, output);
        yield event;
      }
    } catch (error) {
      recorder.fail(span, error);
      throw error;
    } finally {
      endOpenTools(recorder, state);
      state.chat?.end();
      if (output.length > 0) {
        recorder.content(span, ATTR.outputMessages, [
          { role: 'model', parts: [{ text: output.join('') }] },
        ]);
      }
      span.setAttributes({
        [ATTR.modelCalls]: state.modelCalls,
        [ATTR.toolCalls]: state.toolCalls,
        [ATTR.inputTokens]: state.inputTokens,
        [ATTR.outputTokens]: state.outputTokens,
      });
      span.end();
      recorder.setTurn(sessionId, outer);
    }
  })();
}
