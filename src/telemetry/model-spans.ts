import type { Attributes } from '@opentelemetry/api';
import type { ModelCall, ModelChunk, ModelResponseStream } from '../core/interceptors.js';
import type { TelemetryRecorder } from './telemetry-recorder.js';
import { ATTR, providerOf } from './semconv.js';
import { errorMessage, errorTypeOf } from './span-content.js';

function requestAttributes(call: ModelCall): Attributes {
  const config = call.request.config ?? {};
  const attributes: Attributes = {
    [ATTR.operationName]: 'chat',
    [ATTR.providerName]: providerOf(call.request.model),
    [ATTR.requestModel]: call.request.model,
    [ATTR.conversationId]: call.ctx.sessionId,
    [ATTR.turn]: call.turn,
    [ATTR.attempt]: call.attempt,
  };
  if (typeof config.temperature === 'number')
    attributes[ATTR.requestTemperature] = config.temperature;
  if (typeof config.topP === 'number') attributes[ATTR.requestTopP] = config.topP;
  if (typeof config.topK === 'number') attributes[ATTR.requestTopK] = config.topK;
  if (typeof config.maxOutputTokens === 'number') {
    attributes[ATTR.requestMaxTokens] = config.maxOutputTokens;
  }
  return attributes;
}

/** A failed model call's metrics and `gemini_cli.api_error` record. */
function signalError(
  recorder: TelemetryRecorder,
  call: ModelCall,
  promptId: string,
  durationMs: number,
  error: unknown,
): void {
  if (recorder.signals === undefined) return;
  const status = (error as { status?: unknown }).status;
  recorder.signals.apiError({
    sessionId: call.ctx.sessionId,
    promptId,
    model: call.request.model,
    durationMs,
    message: errorMessage(error),
    errorType: errorTypeOf(error),
    status: typeof status === 'number' ? status : undefined,
  });
}

/** What the streamed chunks of one response add up to. */
interface ResponseSummary {
  finishReasons: string[];
  text: string[];
  functionCalls: unknown[];
  usage: ModelChunk['usageMetadata'];
  model: string | undefined;
  responseId: string | undefined;
  firstChunkMs: number | undefined;
}

function absorb(summary: ResponseSummary, chunk: ModelChunk, logPrompts: boolean): void {
  if (chunk.usageMetadata !== undefined) summary.usage = chunk.usageMetadata;
  if (chunk.modelVersion !== undefined) summary.model = chunk.modelVersion;
  if (chunk.responseId !== undefined) summary.responseId = chunk.responseId;
  for (const candidate of chunk.candidates ?? []) {
    if (candidate.finishReason !== undefined) summary.finishReasons.push(candidate.finishReason);
    if (!logPrompts) continue;
    for (const part of candidate.content?.parts ?? []) {
      if (typeof part.text === 'string' && part.thought !== true) summary.text.push(part.text);
      if (part.functionCall !== undefined) summary.functionCalls.push(part.functionCall);
    }
  }
}

/**
 * Around each model call (each attempt): a `chat <model>` client span, child of the turn's span, with the request
 * settings, the response's finish reasons, model, id and token usage, and (with `logPrompts`) the request and
 * response content. The span ends when the response stream ends, fails or is abandoned.
 */
export async function traceModelCall(
  recorder: TelemetryRecorder,
  call: ModelCall,
  next: (call?: ModelCall) => Promise<ModelResponseStream>,
): Promise<ModelResponseStream> {
  const state = recorder.turn(call.ctx.sessionId);
  if (state?.inert === true) return next();
  const { span } = recorder.start(
    `chat ${call.request.model}`,
    'client',
    requestAttributes(call),
    state?.context,
  );
  if (state !== undefined) {
    state.modelCalls += 1;
    state.chat = span;
    state.model = call.request.model;
  }
  const promptId = state?.promptId ?? call.ctx.sessionId;
  recorder.signals?.apiRequest(call.ctx.sessionId, promptId, call.request.model);
  recorder.content(span, ATTR.systemInstructions, call.request.config?.systemInstruction);
  recorder.content(span, ATTR.inputMessages, call.request.contents);
  const started = Date.now();
  const finish = (): void => {
    if (state?.chat === span) state.chat = undefined;
    span.end();
  };
  let stream: ModelResponseStream;
  try {
    stream = await next();
  } catch (error) {
    recorder.fail(span, error);
    signalError(recorder, call, promptId, Date.now() - started, error);
    finish();
    throw error;
  }
  const summary: ResponseSummary = {
    finishReasons: [],
    text: [],
    functionCalls: [],
    usage: undefined,
    model: undefined,
    responseId: undefined,
    firstChunkMs: undefined,
  };
  let failed = false;
  return (async function* observed(): AsyncGenerator<ModelChunk, void> {
    try {
      for await (const chunk of stream) {
        summary.firstChunkMs ??= Date.now() - started;
        absorb(summary, chunk, recorder.logPrompts);
        yield chunk;
      }
    } catch (error) {
      recorder.fail(span, error);
      failed = true;
      signalError(recorder, call, promptId, Date.now() - started, error);
      throw error;
    } finally {
      const usage = summary.usage;
      const input = usage?.promptTokenCount;
      const output = usage?.candidatesTokenCount ?? 0;
      const attributes: Attributes = { [ATTR.finishReasons]: summary.finishReasons };
      if (summary.model !== undefined) attributes[ATTR.responseModel] = summary.model;
      if (summary.responseId !== undefined) attributes[ATTR.responseId] = summary.responseId;
      if (summary.firstChunkMs !== undefined) attributes[ATTR.firstChunkMs] = summary.firstChunkMs;
      if (usage !== undefined) {
        attributes[ATTR.inputTokens] = input ?? 0;
        attributes[ATTR.outputTokens] = output;
        if (usage.cachedContentTokenCount !== undefined) {
          attributes[ATTR.cachedInputTokens] = usage.cachedContentTokenCount;
        }
        if (usage.thoughtsTokenCount !== undefined) {
          attributes[ATTR.thoughtTokens] = usage.thoughtsTokenCount;
        }
        if (state !== undefined) {
          state.inputTokens += input ?? 0;
          state.outputTokens += output;
        }
      }
      span.setAttributes(attributes);
      if (!failed && recorder.signals !== undefined) {
        recorder.signals.apiResponse({
          sessionId: call.ctx.sessionId,
          promptId,
          model: call.request.model,
          provider: providerOf(call.request.model),
          durationMs: Date.now() - started,
          usage:
            usage === undefined
              ? undefined
              : {
                  input: input ?? 0,
                  output,
                  cached: usage.cachedContentTokenCount ?? 0,
                  thoughts: usage.thoughtsTokenCount ?? 0,
                  tool: usage.toolUsePromptTokenCount ?? 0,
                  total: usage.totalTokenCount ?? 0,
                },
          finishReasons: summary.finishReasons,
          text: summary.text.length > 0 ? summary.text.join('') : undefined,
        });
      }
      if (summary.text.length > 0 || summary.functionCalls.length > 0) {
        recorder.content(span, ATTR.outputMessages, [
          {
            role: 'model',
            parts: [
              ...(summary.text.length > 0 ? [{ text: summary.text.join('') }] : []),
              ...summary.functionCalls.map((functionCall) => ({ functionCall })),
            ],
            finish_reason: summary.finishReasons.at(-1),
          },
        ]);
      }
      finish();
    }
  })();
}
