import type {
  Content,
  FinishReason,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type { ModelChunk } from '../core/interceptors.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { ToolCallInput } from '../tools/tool-call.js';
import { CallIdFactory } from './call-ids.js';
import { normalizeFunctionCall } from './function-calls.js';
import { parseThought } from './thought.js';

/**
 * Turns the streamed chunks of one model call into events (gemini-cli's order within a chunk: thoughts,
 * content, tool_call_request, finished) and collects the model turn for history.
 */
export class ModelTurnCollector {
  private readonly parts: Part[] = [];
  private readonly inputs: ToolCallInput[] = [];
  private readonly ids: CallIdFactory;
  private lastUsage: GenerateContentResponseUsageMetadata | undefined;
  private finish: FinishReason | undefined;

  constructor(
    private readonly promptId: string,
    now?: () => number,
  ) {
    this.ids = new CallIdFactory(now);
  }

  /** Processes one chunk and returns its events. Chunks are plain objects: no SDK getters are used. */
  add(chunk: ModelChunk): ServerGeminiStreamEvent[] {
    const events: ServerGeminiStreamEvent[] = [];
    const candidate = chunk.candidates?.[0];
    const parts: Part[] = candidate?.content?.parts ?? [];
    if (chunk.usageMetadata) this.lastUsage = chunk.usageMetadata;
    // gemini-cli's traceId: the response's id, on content, thought and tool_call_request.
    const trace = typeof chunk.responseId === 'string' ? { traceId: chunk.responseId } : {};
    const texts: string[] = [];
    const calls: ToolCallInput[] = [];
    for (const part of parts) {
      if (part.thought === true) {
        if (typeof part.text === 'string' && part.text !== '') {
          events.push({ type: 'thought', value: parseThought(part.text), ...trace });
        }
        this.parts.push(part);
      } else if (part.functionCall) {
        const { input, historyCall } = normalizeFunctionCall(
          part.functionCall,
          this.ids,
          this.promptId,
        );
        if (trace.traceId !== undefined) input.request.traceId = trace.traceId;
        calls.push(input);
        this.parts.push({ ...part, functionCall: historyCall });
      } else {
        if (typeof part.text === 'string') texts.push(part.text);
        this.parts.push(part);
      }
    }
    const text = texts.join('');
    if (text !== '') events.push({ type: 'content', value: text, ...trace });
    for (const input of calls) {
      this.inputs.push(input);
      events.push({ type: 'tool_call_request', value: input.request });
    }
    if (candidate?.finishReason) {
      this.finish = candidate.finishReason;
      events.push({
        type: 'finished',
        value: { reason: candidate.finishReason, usageMetadata: chunk.usageMetadata },
      });
    }
    return events;
  }

  /** The function calls of the turn, in order. */
  get calls(): ToolCallInput[] {
    return [...this.inputs];
  }

  /** The usage metadata of the last chunk that carried one. */
  get usage(): GenerateContentResponseUsageMetadata | undefined {
    return this.lastUsage;
  }

  /** The finish reason, if a chunk carried one. */
  get finishReason(): FinishReason | undefined {
    return this.finish;
  }

  /**
   * The model turn for history: adjacent plain text parts merged, empty text parts dropped. Undefined when the
   * model produced nothing worth keeping (history stays valid: the next user turn is coalesced).
   */
  content(): Content | undefined {
    const merged: Part[] = [];
    for (const part of this.parts) {
      const prev = merged[merged.length - 1];
      if (isPlainText(part) && prev !== undefined && isPlainText(prev)) {
        merged[merged.length - 1] = {
          ...prev,
          text: `${prev.text ?? ''}${part.text ?? ''}`,
          ...(part.thoughtSignature && !prev.thoughtSignature
            ? { thoughtSignature: part.thoughtSignature }
            : {}),
        };
      } else {
        merged.push(part);
      }
    }
    const kept = merged.filter(
      (p) => !(typeof p.text === 'string' && p.text === '' && !p.thoughtSignature && isTextOnly(p)),
    );
    return kept.length > 0 ? { role: 'model', parts: kept } : undefined;
  }
}

function isPlainText(part: Part): boolean {
  return typeof part.text === 'string' && part.thought !== true && isTextOnly(part);
}

function isTextOnly(part: Part): boolean {
  return Object.keys(part).every((k) => k === 'text' || k === 'thoughtSignature');
}
