import type { GenerateContentResponse, Part } from '@google/genai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';

/**
 * Chat Completions answers in the neutral (Gemini) form:
 *
 * - `content` → text parts; `reasoning_content` / `reasoning` (DeepSeek, vLLM, Ollama…) → thought parts;
 * - `tool_calls` → `functionCall` parts with the call id and the parsed arguments; arguments that are not a JSON
 *   object give finish reason `MALFORMED_FUNCTION_CALL` instead of a call, as Gemini reports a broken call;
 * - `finish_reason`: `stop` and `tool_calls` → `STOP`, `length` → `MAX_TOKENS`, `content_filter` → `SAFETY`,
 *   anything else → `OTHER`;
 * - `usage`: `prompt_tokens` → `promptTokenCount`, `completion_tokens` minus reasoning tokens →
 *   `candidatesTokenCount`, reasoning tokens → `thoughtsTokenCount`, cached prompt tokens →
 *   `cachedContentTokenCount`, `total_tokens` → `totalTokenCount`.
 */

/** The finish reason for a Chat Completions `finish_reason`. */
export function toFinishReason(reason: string | null | undefined): string | undefined {
  switch (reason) {
    case null:
    case undefined:
      return undefined;
    case 'stop':
    case 'tool_calls':
    case 'function_call':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'OTHER';
  }
}

/** `usageMetadata` for a Chat Completions `usage`. */
export function toUsageMetadata(
  usage: CompletionUsage | null | undefined,
): GenerateContentResponse['usageMetadata'] {
  if (!usage) return undefined;
  const thoughts = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    promptTokenCount: usage.prompt_tokens,
    candidatesTokenCount: Math.max(0, usage.completion_tokens - thoughts),
    totalTokenCount: usage.total_tokens,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
  };
}

type Delta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: unknown;
  reasoning?: unknown;
};

function reasoningOf(delta: Delta | undefined): string | undefined {
  const r = delta?.reasoning_content ?? delta?.reasoning;
  return typeof r === 'string' && r !== '' ? r : undefined;
}

function chunk(
  parts: Part[],
  extra: {
    finishReason?: string;
    usage?: GenerateContentResponse['usageMetadata'];
    id?: string;
    model?: string;
  },
): GenerateContentResponse {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(extra.finishReason ? { finishReason: extra.finishReason } : {}),
      },
    ],
    ...(extra.usage ? { usageMetadata: extra.usage } : {}),
    ...(extra.id ? { responseId: extra.id } : {}),
    ...(extra.model ? { modelVersion: extra.model } : {}),
  } as unknown as GenerateContentResponse;
}

/** Turns tool calls into `functionCall` parts; a broken one (arguments not a JSON object) marks the turn. */
function callParts(calls: Array<{ id?: string; name?: string; arguments?: string }>): {
  parts: Part[];
  malformed: boolean;
} {
  const parts: Part[] = [];
  let malformed = false;
  for (const call of calls) {
    let args: unknown;
    try {
      args =
        call.arguments === undefined || call.arguments.trim() === ''
          ? {}
          : JSON.parse(call.arguments);
    } catch {
      malformed = true;
      continue;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args) || !call.name) {
      malformed = true;
      continue;
    }
    parts.push({
      functionCall: {
        name: call.name,
        args: args as Record<string, unknown>,
        ...(call.id ? { id: call.id } : {}),
      },
    });
  }
  return { parts, malformed };
}

/**
 * Converts a Chat Completions stream chunk by chunk: text and reasoning deltas come out at once, tool calls
 * (which arrive in fragments) come out whole in the last chunk, together with the finish reason and the usage
 * (sent after the finish reason when `stream_options.include_usage` is on) — the shape Gemini streams in.
 */
export class ChatStreamAccumulator {
  private readonly calls = new Map<number, { id?: string; name?: string; arguments: string }>();
  private finish: string | null | undefined;
  private usage: CompletionUsage | undefined;
  private id: string | undefined;
  private model: string | undefined;

  /** The neutral chunk for one stream chunk, or `undefined` when it carried nothing to show yet. */
  add(c: ChatCompletionChunk): GenerateContentResponse | undefined {
    this.id ??= c.id || undefined;
    this.model ??= c.model || undefined;
    if (c.usage) this.usage = c.usage;
    const choice = c.choices?.[0];
    if (!choice) return undefined;
    if (choice.finish_reason) this.finish = choice.finish_reason;
    const delta = choice.delta as Delta | undefined;
    for (const t of delta?.tool_calls ?? []) {
      const entry = this.calls.get(t.index) ?? { arguments: '' };
      if (t.id) entry.id = t.id;
      if (t.function?.name) entry.name = (entry.name ?? '') + t.function.name;
      if (t.function?.arguments) entry.arguments += t.function.arguments;
      this.calls.set(t.index, entry);
    }
    const parts: Part[] = [];
    const reasoning = reasoningOf(delta);
    if (reasoning !== undefined) parts.push({ text: reasoning, thought: true });
    if (typeof delta?.content === 'string' && delta.content !== '')
      parts.push({ text: delta.content });
    return parts.length > 0 ? chunk(parts, { id: this.id, model: this.model }) : undefined;
  }

  /** The closing chunk: the whole tool calls, the finish reason and the usage. */
  finishChunk(): GenerateContentResponse {
    const ordered = [...this.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    const { parts, malformed } = callParts(ordered);
    const finishReason = malformed ? 'MALFORMED_FUNCTION_CALL' : toFinishReason(this.finish);
    return chunk(parts, {
      ...(finishReason ? { finishReason } : {}),
      usage: toUsageMetadata(this.usage),
      id: this.id,
      model: this.model,
    });
  }
}

/** A whole (non-streamed) Chat Completions answer as one neutral response. */
export function fromChatCompletion(completion: ChatCompletion): GenerateContentResponse {
  const choice = completion.choices?.[0];
  const message = choice?.message as
    | (ChatCompletion.Choice['message'] & { reasoning_content?: unknown; reasoning?: unknown })
    | undefined;
  const parts: Part[] = [];
  const reasoning = message?.reasoning_content ?? message?.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '')
    parts.push({ text: reasoning, thought: true });
  if (typeof message?.content === 'string' && message.content !== '')
    parts.push({ text: message.content });
  const calls = (message?.tool_calls ?? []).flatMap((t) =>
    t.type === 'function'
      ? [{ id: t.id, name: t.function.name, arguments: t.function.arguments }]
      : [],
  );
  const { parts: callParts_, malformed } = callParts(calls);
  parts.push(...callParts_);
  const finishReason = malformed
    ? 'MALFORMED_FUNCTION_CALL'
    : toFinishReason(choice?.finish_reason);
  return chunk(parts, {
    ...(finishReason ? { finishReason } : {}),
    usage: toUsageMetadata(completion.usage),
    id: completion.id,
    model: completion.model,
  });
}
