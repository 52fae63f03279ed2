import type {
  Content,
  FinishReason,
  FunctionCallingConfigMode,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
  ToolConfig,
} from '@google/genai';
import type { ModelChunk } from '../core/interceptors.js';
import type { HookToolConfig, LLMRequest, LLMResponse } from './hook-types.js';

/** gemini-cli's default when a request names no model. */
const DEFAULT_HOOK_MODEL = 'gemini-2.5-flash';

function hasText(part: unknown): part is { text: string } {
  return (
    typeof part === 'object' &&
    part !== null &&
    typeof (part as { text?: unknown }).text === 'string'
  );
}

function isContent(value: unknown): value is Content {
  return typeof value === 'object' && value !== null && 'role' in value && 'parts' in value;
}

function contentsOf(request: GenerateContentParameters): unknown[] {
  const { contents } = request;
  if (contents === undefined) return [];
  return Array.isArray(contents) ? contents : [contents];
}

function generationSettings(config: GenerateContentConfig | undefined): LLMRequest['config'] {
  return {
    temperature: config?.temperature,
    maxOutputTokens: config?.maxOutputTokens,
    topP: config?.topP,
    topK: config?.topK,
  };
}

/** A model request as hooks see it: text only, one message per content that has text. */
export function toHookRequest(request: GenerateContentParameters): LLMRequest {
  const messages: LLMRequest['messages'] = [];
  for (const content of contentsOf(request)) {
    if (typeof content === 'string') {
      messages.push({ role: 'user', content });
    } else if (isContent(content)) {
      const role =
        content.role === 'model' ? 'model' : content.role === 'system' ? 'system' : 'user';
      const text = (content.parts ?? [])
        .filter(hasText)
        .map((p) => p.text)
        .join('');
      if (text) messages.push({ role, content: text });
    }
  }
  return {
    model: request.model || DEFAULT_HOOK_MODEL,
    messages,
    config: generationSettings(request.config),
  };
}

function messageText(message: LLMRequest['messages'][number]): string {
  return typeof message.content === 'string' ? message.content : String(message.content);
}

function messageContent(message: LLMRequest['messages'][number]): Content {
  return { role: message.role, parts: [{ text: messageText(message) }] };
}

/**
 * Applies a BeforeModel hook's `llm_request` as gemini-cli does: `model` replaces the model; `config` sets
 * temperature, maxOutputTokens, topP and topK (unspecified ones become unset); `messages` are merged back into the
 * contents by position — each content that had text takes the next message's text and keeps its other parts
 * (function calls and responses), contents without text stay as they are, extra messages are appended.
 */
export function applyHookRequest(
  request: GenerateContentParameters,
  patch: Partial<LLMRequest>,
): GenerateContentParameters {
  let contents: GenerateContentParameters['contents'] = request.contents;
  if (patch.messages !== undefined) {
    const merged: Content[] = [];
    let next = 0;
    for (const content of contentsOf(request)) {
      if (typeof content === 'string') {
        const message = patch.messages[next];
        merged.push(
          message
            ? (next++, messageContent(message))
            : { role: 'user', parts: [{ text: content }] },
        );
        continue;
      }
      if (!isContent(content)) {
        merged.push({ role: 'user', parts: [content as Part] });
        continue;
      }
      const parts: Part[] = content.parts ?? [];
      const message = parts.some(hasText) ? patch.messages[next] : undefined;
      if (message === undefined) {
        merged.push({ ...content, parts });
        continue;
      }
      next++;
      merged.push({
        ...content,
        role: message.role,
        parts: [{ text: messageText(message) }, ...parts.filter((p) => !hasText(p))],
      });
    }
    while (next < patch.messages.length) merged.push(messageContent(patch.messages[next++]!));
    contents = merged;
  }
  const config: GenerateContentConfig = { ...request.config };
  if (patch.config !== undefined) {
    for (const key of ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const) {
      const value = patch.config[key];
      if (value === undefined) delete config[key];
      else config[key] = value;
    }
  }
  return {
    ...request,
    model: patch.model ?? request.model,
    contents: contents ?? [],
    config,
  };
}

/** A streamed chunk as hooks see it: text parts only. */
export function toHookResponse(chunk: ModelChunk): LLMResponse {
  const candidates = chunk.candidates ?? [];
  const parts = candidates[0]?.content?.parts ?? [];
  // gemini-cli's getResponseText: '' for a chunk whose parts hold no text (a function call), none without parts.
  const text =
    parts.length === 0
      ? undefined
      : parts
          .filter((p) => hasText(p) && p.text !== '' && !(p as Part).thought)
          .map((p) => (p as { text: string }).text)
          .join('');
  return {
    ...(text === undefined ? {} : { text }),
    candidates: candidates.map((candidate) => ({
      content: {
        role: 'model' as const,
        parts: (candidate.content?.parts ?? []).filter(hasText).map((p) => p.text),
      },
      ...(candidate.finishReason === undefined
        ? {}
        : { finishReason: candidate.finishReason as LLMResponse['candidates'][0]['finishReason'] }),
      ...(candidate.index === undefined ? {} : { index: candidate.index }),
      ...(candidate.safetyRatings === undefined
        ? {}
        : {
            safetyRatings: candidate.safetyRatings.map((r) => ({
              category: String(r.category ?? ''),
              probability: String(r.probability ?? ''),
            })),
          }),
    })),
    ...(chunk.usageMetadata
      ? {
          usageMetadata: {
            promptTokenCount: chunk.usageMetadata.promptTokenCount,
            candidatesTokenCount: chunk.usageMetadata.candidatesTokenCount,
            totalTokenCount: chunk.usageMetadata.totalTokenCount,
          },
        }
      : {}),
  };
}

/** A hook's `llm_response` as a streamed chunk (text parts only). */
export function fromHookResponse(response: Partial<LLMResponse>): ModelChunk {
  return {
    candidates: (response.candidates ?? []).map((candidate) => ({
      content: { role: 'model', parts: candidate.content.parts.map((text) => ({ text })) },
      ...(candidate.finishReason === undefined
        ? {}
        : { finishReason: candidate.finishReason as FinishReason }),
      ...(candidate.index === undefined ? {} : { index: candidate.index }),
    })),
    ...(response.usageMetadata ? { usageMetadata: response.usageMetadata } : {}),
  };
}

/** A BeforeToolSelection tool config as the API's `toolConfig` (`functionCallingConfig`). */
export function fromHookToolConfig(config: HookToolConfig): ToolConfig {
  if (config.mode === undefined && config.allowedFunctionNames === undefined) return {};
  return {
    functionCallingConfig: {
      ...(config.mode === undefined ? {} : { mode: config.mode as FunctionCallingConfigMode }),
      ...(config.allowedFunctionNames === undefined
        ? {}
        : { allowedFunctionNames: config.allowedFunctionNames }),
    },
  };
}
