import type { GenerateContentParameters } from '@google/genai';
import {
  GeminiAgentError,
  InvalidStreamError,
  ModelApiError,
  ResponseTooLargeError,
} from '../errors.js';
import type { RetryEventInfo, ServerGeminiStreamEvent, StreamErrorInfo } from '../events.js';
import { abortableSleep, raceAbort } from '../core/abort.js';
import type { ModelCall, ModelResponseStream } from '../core/interceptors.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { describeFailure } from '../model/failure-info.js';
import { retryNudge, StreamValidator } from '../model/stream-validator.js';
import type { LoopEnvironment } from './loop-types.js';
import { ModelTurnCollector } from './model-turn.js';

/** gemini-cli's mid-stream retries: at most 4 attempts (fewer if `retry.maxAttempts` is lower), 1 s, 2 s, 4 s. */
export const MID_STREAM_RETRY = { maxAttempts: 4, initialDelayMs: 1000 } as const;

/** The innermost step of a model call: the model itself (`call.ctx.signal` aborts it). */
export function modelTerminal(
  model: ContentGenerator,
): (call: ModelCall) => Promise<ModelResponseStream> {
  return (call) => model.generateContentStream(call.request, call.ctx.signal);
}

/** What a model call's interceptors see besides the request: the context, the turn, and the controls. */
export type ModelCallBase = Omit<ModelCall, 'request' | 'attempt'>;

/** How one model call ended. */
export type ModelCallOutcome =
  /** A usable response. */
  | { kind: 'ok'; collector: ModelTurnCollector }
  /** The signal aborted; `partial` holds what the current attempt had received. */
  | { kind: 'aborted'; partial: ModelTurnCollector }
  /** Failed for good (after the retries it deserved). */
  | { kind: 'failed'; error: GeminiAgentError };

/**
 * One model call with gemini-cli's mid-stream retries (`geminiChat.ts` `streamWithRetries`): the request is sent,
 * each chunk's events are yielded as they arrive, and when the stream ends the {@link StreamValidator} says whether
 * the response is usable. A failure after the response started — a retryable transport error (reset, timeout,
 * 5xx in the stream) or an unusable response (blocked, empty, no finish reason, malformed call) — yields a `retry`
 * event (`phase: 'stream'`: drop this attempt's partial output) and re-sends the same request, with gemini-cli's
 * nudge in the system instruction after an empty or thoughts-only answer. Failures while connecting were already
 * retried by the retry layer and are final here, as are a response over `limits.maxResponseBytes` and an abort.
 * Each attempt goes through the features' model interceptors (`env.chains.callModel`), as gemini-cli fires its
 * model hooks per attempt. An attempt during which an interceptor called `stop()` is not validated.
 */
export async function* callModel(
  env: LoopEnvironment,
  request: GenerateContentParameters,
  base: ModelCallBase,
  signal: AbortSignal,
  afterFunctionResponse: boolean,
): AsyncGenerator<ServerGeminiStreamEvent, ModelCallOutcome> {
  const maxAttempts = Math.min(env.streamRetry.maxAttempts, MID_STREAM_RETRY.maxAttempts);
  const sleep = env.streamRetry.sleep ?? abortableSleep;
  let lastInvalid: InvalidStreamError | undefined;
  for (let attempt = 1; ; attempt++) {
    const collector = new ModelTurnCollector(env.sessionId);
    const validator = new StreamValidator(env.limits.maxResponseBytes);
    const state = { connected: false };
    try {
      yield* streamAttempt(
        env,
        { ...base, request: retryNudge(request, lastInvalid), attempt },
        collector,
        validator,
        signal,
        state,
      );
      // An interceptor that ended the turn (`stop()`) may answer with nothing: that answer is not validated.
      if (env.control.stopped) return { kind: 'ok', collector };
      const invalid = validator.verdict(afterFunctionResponse);
      if (invalid !== undefined) throw invalid;
      return { kind: 'ok', collector };
    } catch (error) {
      if (signal.aborted) return { kind: 'aborted', partial: collector };
      const typed = toModelError(error);
      if (typed instanceof InvalidStreamError) lastInvalid = typed;
      const retryable =
        typed instanceof InvalidStreamError ||
        (state.connected &&
          typed instanceof ModelApiError &&
          typed.retryable &&
          !(typed instanceof ResponseTooLargeError));
      if (!retryable || attempt >= maxAttempts) return { kind: 'failed', error: typed };
      const delayMs = MID_STREAM_RETRY.initialDelayMs * 2 ** (attempt - 1);
      env.logger.debug('model stream failed, re-sending the request', {
        attempt,
        delayMs,
        ...describeFailure(typed),
      });
      const info: RetryEventInfo = {
        attempt,
        maxAttempts,
        delayMs,
        phase: 'stream',
        ...describeFailure(typed),
      };
      env.onRetry?.(info);
      yield { type: 'retry', value: info };
      try {
        await raceAbort(sleep(delayMs, signal), signal);
      } catch {
        return { kind: 'aborted', partial: new ModelTurnCollector(env.sessionId) };
      }
    }
  }
}

/**
 * Streams one attempt into `collector` and `validator`, yielding each chunk's events as it arrives (and events
 * other work emits meanwhile, such as connection retries). Ends promptly when `signal` aborts, even if the stream
 * ignores it. `state.connected` turns true once the stream is open.
 */
async function* streamAttempt(
  env: LoopEnvironment,
  call: ModelCall,
  collector: ModelTurnCollector,
  validator: StreamValidator,
  signal: AbortSignal,
  state: { connected: boolean },
): AsyncGenerator<ServerGeminiStreamEvent, void> {
  const stream = yield* env.pump.pump(raceAbort(env.chains.callModel(call), signal));
  state.connected = true;
  const iterator = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = yield* env.pump.pump(raceAbort(iterator.next(), signal));
      if (next.done) {
        finished = true;
        return;
      }
      validator.observe(next.value);
      yield* collector.add(next.value);
    }
  } finally {
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

/** The typed error a failed model call rejects the stream with: SDK errors as they are, others wrapped. */
export function toModelError(error: unknown): GeminiAgentError {
  if (error instanceof GeminiAgentError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: unknown } | null)?.status;
  return new ModelApiError(
    `Model call failed: ${message}`,
    typeof status === 'number' ? { status } : {},
    { cause: error },
  );
}

/** The `error` event value for a typed error. */
export function errorEventValue(error: GeminiAgentError): StreamErrorInfo {
  const status = (error as { status?: unknown }).status;
  return {
    error: {
      message: error.message,
      ...(typeof status === 'number' ? { status } : {}),
      code: error.code,
    },
  };
}
