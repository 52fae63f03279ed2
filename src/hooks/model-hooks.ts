import type { FinishReason, GenerateContentParameters } from '@google/genai';
import type {
  ModelCall,
  ModelChunk,
  ModelInterceptor,
  ModelResponseStream,
} from '../core/interceptors.js';
import type { SessionHandle } from '../core/session-context.js';
import { resolveModel } from '../model/models.js';
import { isBlocking, stopsExecution } from './hook-output.js';
import { scopeOf, type HookSessionState } from './hook-session.js';
import type { HookScope, HookSystem } from './hook-system.js';
import {
  applyHookRequest,
  fromHookResponse,
  fromHookToolConfig,
  toHookRequest,
  toHookResponse,
} from './hook-translator.js';
import type { AnyHookOutput, HookToolConfig, LLMRequest, LLMResponse } from './hook-types.js';
import { blockedEvent, stoppedEvent } from './tool-hooks.js';

/** `FinishReason.STOP`, spelled out so that loading the hooks does not load `@google/genai` (import cost, P2). */
const STOP = 'STOP' as FinishReason;

type StateOf = (session: SessionHandle) => HookSessionState | undefined;

async function* chunksOf(chunks: readonly ModelChunk[]): ModelResponseStream {
  yield* chunks;
}

/** A BeforeModel hook's synthetic response, each candidate finished (`STOP`) unless it says otherwise. */
function syntheticChunk(response: LLMResponse): ModelChunk {
  const chunk = fromHookResponse(response);
  return {
    ...chunk,
    candidates: (chunk.candidates ?? []).map((c) => ({
      ...c,
      finishReason: c.finishReason ?? STOP,
    })),
  };
}

/**
 * BeforeModel, BeforeToolSelection and AfterModel, where gemini-cli's chat fires them around each model request:
 *
 * - BeforeModel: `continue: false` stops the turn (the model is not called); `deny`/`block` skips the model — its
 *   synthetic `llm_response`, if any, is the answer (gemini-cli uses one only with a block); otherwise
 *   `llm_request` rewrites the model, the generation settings and the messages.
 * - BeforeToolSelection: the merged `toolConfig` replaces the request's function-calling config.
 * - AfterModel, per streamed chunk: `continue: false` stops; `deny`/`block` keeps that chunk and ends the response
 *   (gemini-cli's code); an `llm_response` with parts replaces the chunk (text only: its function calls are lost,
 *   as in gemini-cli).
 */
export function modelInterceptor(system: HookSystem, stateOf: StateOf): ModelInterceptor {
  // Once: an agent's hooks never change after it is built (installed only when one of the three has a hook).
  const before = system.has('BeforeModel');
  const selection = system.has('BeforeToolSelection');
  const after = system.has('AfterModel');
  return async (call, next) => {
    const scope = scopeOf(stateOf(call.ctx.session), call.ctx, call.emit, new Set());
    let request = call.request;
    if (before) {
      const output = await system.fire(
        'BeforeModel',
        { llm_request: toHookRequest(request) },
        scope,
      );
      const early = beforeModelAnswer(output, call);
      if (early !== undefined) return early;
      const patch = output?.hookSpecificOutput?.['llm_request'] as Partial<LLMRequest> | undefined;
      if (patch !== undefined) {
        request = applyHookRequest(request, patch);
        if (patch.model !== undefined) request = { ...request, model: resolveModel(patch.model) };
      }
    }
    if (selection) {
      const output = await system.fire(
        'BeforeToolSelection',
        { llm_request: toHookRequest(request) },
        scope,
      );
      const toolConfig = output?.hookSpecificOutput?.['toolConfig'] as HookToolConfig | undefined;
      if (toolConfig !== undefined)
        request = {
          ...request,
          config: { ...request.config, toolConfig: fromHookToolConfig(toolConfig) },
        };
    }
    const stream = await next(request === call.request ? call : { ...call, request });
    return after ? afterModelStream(stream, request, call, system, scope) : stream;
  };
}

function beforeModelAnswer(
  output: AnyHookOutput | undefined,
  call: ModelCall,
): Promise<ModelResponseStream> | undefined {
  if (output === undefined) return undefined;
  if (stopsExecution(output)) {
    call.emit(stoppedEvent(output));
    call.stop();
    return Promise.resolve(chunksOf([]));
  }
  if (!isBlocking(output)) return undefined;
  call.emit(blockedEvent(output));
  const synthetic = output.hookSpecificOutput?.['llm_response'] as LLMResponse | undefined;
  if (synthetic === undefined) {
    call.stop();
    return Promise.resolve(chunksOf([]));
  }
  return Promise.resolve(chunksOf([syntheticChunk(synthetic)]));
}

async function* afterModelStream(
  stream: ModelResponseStream,
  request: GenerateContentParameters,
  call: ModelCall,
  system: HookSystem,
  scope: HookScope,
): ModelResponseStream {
  let hookRequest: LLMRequest | undefined;
  for await (const chunk of stream) {
    hookRequest ??= toHookRequest(request);
    const output = await system.fire(
      'AfterModel',
      { llm_request: hookRequest, llm_response: toHookResponse(chunk) },
      scope,
    );
    if (stopsExecution(output)) {
      call.emit(stoppedEvent(output as AnyHookOutput));
      call.stop();
      return;
    }
    if (isBlocking(output)) {
      call.emit(blockedEvent(output as AnyHookOutput));
      yield finished(chunk);
      return;
    }
    const replacement = output?.hookSpecificOutput?.['llm_response'] as
      Partial<LLMResponse> | undefined;
    if (replacement?.candidates?.[0]?.content?.parts?.length) {
      yield keepStreamFacts(fromHookResponse(replacement), chunk);
    } else {
      yield chunk;
    }
  }
}

/** The chunk as the last of its response: its first candidate finished (`STOP`) unless it says otherwise. */
function finished(chunk: ModelChunk): ModelChunk {
  const [first, ...rest] = chunk.candidates ?? [];
  if (first === undefined || first.finishReason !== undefined) return chunk;
  return { ...chunk, candidates: [{ ...first, finishReason: STOP }, ...rest] };
}

/** A replacement keeps the original chunk's finish reason and usage where the hook's response leaves them out. */
function keepStreamFacts(replacement: ModelChunk, original: ModelChunk): ModelChunk {
  const finish = original.candidates?.[0]?.finishReason;
  return {
    ...replacement,
    candidates: (replacement.candidates ?? []).map((c, i) =>
      i === 0 && c.finishReason === undefined && finish !== undefined
        ? { ...c, finishReason: finish }
        : c,
    ),
    ...(replacement.usageMetadata === undefined && original.usageMetadata !== undefined
      ? { usageMetadata: original.usageMetadata }
      : {}),
  };
}
