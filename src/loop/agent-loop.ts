import type { FunctionCall, GenerateContentParameters } from '@google/genai';
import {
  CompressionStatus,
  type ServerGeminiStreamEvent,
  type ToolCallResponseInfo,
} from '../events.js';
import { linkedAbortController } from '../core/abort.js';
import { cancelledResponse, errorResponse } from '../tools/tool-response.js';
import { runToolCalls, waitingApprovals } from '../tools/tool-scheduler.js';
import { ToolCallLoopDetector } from './loop-detector.js';
import type { LoopEnvironment, LoopOutcome, LoopStart, PausedTurn } from './loop-types.js';
import { InvalidStreamError } from '../errors.js';
import { callModel, errorEventValue } from './model-call.js';
import { commitInterrupted, endsWithToolResults } from './interrupted-turn.js';
import { contextOverflow, pendingOverflow } from './context-window.js';
import { buildRequestContents, withContextParts } from './request-contents.js';
import { abandonedResponses, commitToolResults, resolvePausedTurn } from './tool-turn.js';

/** What the model gets for calls that were not run because a loop was detected. */
export const LOOP_DETECTED_MESSAGE =
  'Loop detected: the same tool call was requested 5 times in a row, so it was not run again.';

/**
 * The reason the loop's own signal aborts with when a run ends: what `controller.abort()` would make (an
 * `AbortError` DOMException with the default message), made once. A DOMException captures a stack trace when it is
 * built, which cost ~50 µs per run — paid by every subagent delegation, whose run is one short loop.
 */
const LOOP_ENDED = new DOMException('This operation was aborted', 'AbortError');

/**
 * One `sendStream`: appends the prompt, then calls the model and runs its tool calls until the model answers
 * without calls, a limit is reached, the signal aborts, or approvals are needed. Yields gemini-cli events.
 *
 * Whatever happens (abort, tool throw, model error, consumer stops iterating), every function call in history
 * ends up answered, and every completed message is committed before the next model call.
 */
export async function* runAgentLoop(
  env: LoopEnvironment,
  start: LoopStart,
  signal?: AbortSignal,
): AsyncGenerator<ServerGeminiStreamEvent, LoopOutcome> {
  const { controller, dispose } = linkedAbortController(signal);
  const abort = controller.signal;
  let paused = false;
  try {
    if (start.kind === 'prompt') {
      yield* compressIfNeeded(env, abort);
      // gemini-cli's check: a prompt that cannot fit is neither sent nor stored.
      const overflow = contextOverflow(
        env.tokenLimit,
        start.parts,
        env.context,
        env.history.view(),
      );
      if (overflow !== undefined) {
        yield { type: 'context_window_will_overflow', value: overflow };
        return { kind: 'context_overflow' };
      }
      if (start.abandoned)
        yield* commitToolResults(env, abandonedResponses(start.abandoned), undefined);
      yield* closeOpenCalls(env);
      await env.commit({
        kind: 'user',
        content: { role: 'user', parts: start.parts },
        timestamp: new Date().toISOString(),
      });
    } else if (start.kind === 'approvals') {
      const emitted = new Set(
        start.paused.outcomes.flatMap((o) => (o.kind === 'done' ? [o.response.callId] : [])),
      );
      const resolved = yield* env.pump.pump(
        resolvePausedTurn(env, start.paused, start.decisions, abort),
      );
      if (resolved.held !== undefined && !abort.aborted && !resolved.fatal) {
        // A resumed call held again (its subagent waits for another approval): the turn pauses again.
        for (const o of resolved.held.outcomes) {
          if (o.kind === 'done' && !emitted.has(o.response.callId))
            yield { type: 'tool_call_response', value: o.response };
        }
        await env.commitPause(resolved.held);
        paused = true;
        yield {
          type: 'approval_required',
          value: { pending: waitingApprovals(resolved.held.outcomes) },
        };
        return { kind: 'paused', paused: resolved.held };
      }
      yield* commitToolResults(env, resolved.responses, resolved.fatal, emitted);
      if (abort.aborted) {
        yield { type: 'user_cancelled' };
        return { kind: 'cancelled' };
      }
    }

    const detector = new ToolCallLoopDetector();
    for (let turn = 1; turn <= env.limits.maxTurns; turn++) {
      if (abort.aborted) {
        yield { type: 'user_cancelled' };
        return { kind: 'cancelled' };
      }
      if (env.control.stopped) return { kind: 'stopped' };
      if (turn > 1 || start.kind !== 'prompt') {
        // Tool results were added since the last model call: compress, then check they fit (no 400 from the API).
        yield* compressIfNeeded(env, abort);
        const overflow = pendingOverflow(env.tokenLimit, env.context, env.history.view());
        if (overflow !== undefined) {
          yield { type: 'context_window_will_overflow', value: overflow };
          return { kind: 'context_overflow' };
        }
      }
      const exceeded = env.budget?.check(env.context.estimate(env.history.view()));
      if (exceeded !== undefined && env.budget !== undefined) {
        // Paused like a held approval: stored first, so a consumer (or a process) that stops here loses nothing.
        await env.budget.pause(exceeded);
        yield { type: 'budget_exceeded', value: exceeded };
        return { kind: 'budget_paused' };
      }
      const ctx = env.contextFor(abort);
      const prepared = await env.prepare(ctx);
      const modelInfo = env.takeModelInfo();
      if (modelInfo !== undefined) yield { type: 'model_info', value: modelInfo };

      const declarations = prepared.registry.declarations();
      const request: GenerateContentParameters = {
        model: env.modelName,
        contents: withContextParts(buildRequestContents(env.history.view()), prepared.contextParts),
        config: {
          ...env.generationConfig,
          ...(prepared.systemInstruction === undefined
            ? {}
            : { systemInstruction: prepared.systemInstruction }),
          ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations }] } : {}),
        },
      };
      const call = { ctx, turn, emit: env.pump.emit, stop: env.control.stop };
      const outcome = yield* callModel(env, request, call, abort, endsWithToolResults(env));
      if (outcome.kind === 'aborted') {
        await commitInterrupted(env, outcome.partial);
        yield { type: 'user_cancelled' };
        return { kind: 'cancelled' };
      }
      if (outcome.kind === 'failed') {
        const typed = outcome.error;
        await commitInterrupted(env, undefined);
        if (typed instanceof InvalidStreamError) {
          yield { type: 'invalid_stream', value: { type: typed.type, message: typed.message } };
        } else {
          yield { type: 'error', value: errorEventValue(typed) };
        }
        throw typed;
      }
      const collector = outcome.collector;
      env.onUsage(collector.usage);
      const content = collector.content();
      if (content) {
        await env.commit({
          kind: 'model',
          content,
          timestamp: new Date().toISOString(),
          model: env.modelName,
          ...(collector.usage ? { usage: collector.usage } : {}),
        });
      }
      const calls = collector.calls;
      if (calls.length === 0) return { kind: 'completed' };
      // Stopped during the model call: the finally block answers the calls as cancelled.
      if (env.control.stopped) return { kind: 'stopped' };

      let looped = false;
      for (const call of calls)
        looped = detector.record(call.request.name, call.request.args) || looped;
      if (looped) {
        const responses = calls.map((c) =>
          errorResponse(c.request, LOOP_DETECTED_MESSAGE, 'loop_detected'),
        );
        yield* commitToolResults(env, responses, undefined);
        yield { type: 'loop_detected' };
        return { kind: 'loop_detected' };
      }

      const result = yield* env.pump.pump(
        runToolCalls({
          calls,
          registry: prepared.registry,
          decide: env.chains.decideTool,
          run: env.chains.runTool,
          contextFor: env.contextFor,
          signal: abort,
          timeoutMs: env.limits.toolTimeoutMs,
          emit: env.pump.emit,
          stop: env.control.stop,
          logger: env.logger,
          model: env.modelName,
        }),
      );
      const hasPaused = result.outcomes.some((o) => o.kind !== 'done');
      if (hasPaused && !result.cancelled && !result.fatal) {
        for (const o of result.outcomes) {
          if (o.kind === 'done') yield { type: 'tool_call_response', value: o.response };
        }
        const pending = waitingApprovals(result.outcomes);
        const held: PausedTurn = { outcomes: result.outcomes };
        await env.commitPause(held);
        paused = true;
        yield { type: 'approval_required', value: { pending } };
        return { kind: 'paused', paused: held };
      }
      const responses: ToolCallResponseInfo[] = result.outcomes.map((o) => {
        if (o.kind === 'done') return o.response;
        const req = o.kind === 'held' ? o.held.input.request : o.paused.input.request;
        return result.cancelled
          ? cancelledResponse(req, 'queued')
          : errorResponse(req, 'Not run: another call of this turn failed.', 'cancelled');
      });
      yield* commitToolResults(env, responses, result.fatal);
      if (result.cancelled || abort.aborted) {
        yield { type: 'user_cancelled' };
        return { kind: 'cancelled' };
      }
    }
    if (env.control.stopped) return { kind: 'stopped' };
    yield { type: 'max_session_turns' };
    return { kind: 'max_turns' };
  } finally {
    controller.abort(LOOP_ENDED);
    dispose();
    if (!paused) {
      // The consumer stopped iterating or something threw mid-turn: answer whatever is still open.
      for await (const _ of closeOpenCalls(env)) void _;
    }
  }
}

/** gemini-cli's compression before a model call; yields `chat_compressed` when the history was compressed. */
async function* compressIfNeeded(
  env: LoopEnvironment,
  signal: AbortSignal,
): AsyncGenerator<ServerGeminiStreamEvent, void> {
  if (env.compress === undefined || signal.aborted) return;
  const info = yield* env.pump.pump(env.compress(env.contextFor(signal), signal));
  if (info?.compressionStatus === CompressionStatus.COMPRESSED) {
    yield { type: 'chat_compressed', value: info };
  }
}

/** Answers function calls left open by an interrupted run (or a resumed history) with cancelled responses. */
async function* closeOpenCalls(
  env: LoopEnvironment,
): AsyncGenerator<ServerGeminiStreamEvent, void> {
  const open = env.history.unansweredCalls();
  if (open.length === 0) return;
  const responses = open.map((call: FunctionCall) =>
    cancelledResponse(
      {
        callId: call.id ?? '',
        name: call.name ?? '',
        args: (call.args as Record<string, unknown> | undefined) ?? {},
        isClientInitiated: false,
        prompt_id: env.sessionId,
      },
      'queued',
    ),
  );
  yield* commitToolResults(env, responses, undefined);
}
