import type { GenerateContentParameters } from '@google/genai';
import { GeminiAgentError, ModelApiError } from '../errors.js';
import type { ServerGeminiStreamEvent, StreamErrorInfo } from '../events.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { raceAbort } from '../core/abort.js';
import type { EventPump } from './event-pump.js';
import type { ModelTurnCollector } from './model-turn.js';

/**
 * Streams one model call into `collector`, yielding each chunk's events as it arrives (and events other work
 * emits meanwhile, such as retries). Ends promptly when `signal` aborts, even if the stream ignores it.
 */
export async function* streamModelCall(
  model: ContentGenerator,
  request: GenerateContentParameters,
  collector: ModelTurnCollector,
  pump: EventPump,
  signal: AbortSignal,
): AsyncGenerator<ServerGeminiStreamEvent, void> {
  const stream = yield* pump.pump(raceAbort(model.generateContentStream(request, signal), signal));
  const iterator = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      const next = yield* pump.pump(raceAbort(iterator.next(), signal));
      if (next.done) {
        finished = true;
        return;
      }
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
