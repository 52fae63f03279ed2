import type { GenerateContentParameters, GenerateContentResponse, Part } from '@google/genai';
import { InvalidStreamError, ResponseTooLargeError, type InvalidStreamType } from '../errors.js';

/** Default `limits.maxResponseBytes`: 32 MiB per model response. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Finish reasons of a normal end: an empty answer with one of these is empty, not blocked. */
const COMPLETE_REASONS = new Set(['STOP', 'FINISH_REASON_UNSPECIFIED']);

/** gemini-cli's wording for the reasons it names; any other blocking reason is `OTHER_BLOCKED`. */
const BLOCKED: Record<string, { type: InvalidStreamType; message: string }> = {
  MAX_TOKENS: {
    type: 'MAX_TOKENS_EXCEEDED',
    message:
      'Model stream ended due to token limit exhaustion (MAX_TOKENS) with empty response text.',
  },
  SAFETY: {
    type: 'SAFETY_BLOCKED',
    message: 'Model stream ended due to safety settings (SAFETY) with empty response text.',
  },
  RECITATION: {
    type: 'RECITATION_BLOCKED',
    message: 'Model stream ended due to recitation settings (RECITATION) with empty response text.',
  },
};

/** Removes what does not show (zero-width characters, HTML comments), as gemini-cli does before its check. */
export function visibleText(text: string): string {
  let out = text.replace(/[\u200B-\u200D\uFEFF\u200E\u200F]/g, '');
  // Without `<!--` the comment pattern cannot match: skip its scans (every stored model turn comes here).
  if (!out.includes('<!--')) return out.trim();
  let previous: string;
  do {
    previous = out;
    out = out.replace(/<!--[\s\S]*?-->/g, '');
  } while (out !== previous);
  return out.trim();
}

function partBytes(part: Part): number {
  let bytes = 0;
  if (typeof part.text === 'string') bytes += Buffer.byteLength(part.text);
  if (part.functionCall) bytes += JSON.stringify(part.functionCall.args ?? {}).length;
  if (part.inlineData?.data) bytes += part.inlineData.data.length;
  if (part.executableCode?.code) bytes += part.executableCode.code.length;
  if (part.codeExecutionResult?.output) bytes += part.codeExecutionResult.output.length;
  return bytes;
}

/**
 * Watches the chunks of one model call and decides, when the stream ends, whether the response is usable — the one
 * place that knows every way a response can be unusable (gemini-cli's stream validation, `geminiChat.ts`):
 *
 * - `promptFeedback.blockReason`: the prompt itself was refused (`PROMPT_BLOCKED`);
 * - no finish reason at all — no candidates, an empty candidate list, an empty 200 body, a stream cut off early
 *   (`NO_FINISH_REASON`); unlike gemini-cli this holds after a function response too: a stream that stops without
 *   a finish reason is cut off, whatever came before;
 * - `MALFORMED_FUNCTION_CALL` / `UNEXPECTED_TOOL_CALL` without a call;
 * - no visible text and no call: by finish reason `MAX_TOKENS_EXCEEDED`, `SAFETY_BLOCKED`, `RECITATION_BLOCKED`,
 *   `OTHER_BLOCKED` (`PROHIBITED_CONTENT`, `BLOCKLIST`, `SPII`, `OTHER`, …), else `THINKING_ONLY_RESPONSE` when
 *   there were thoughts, else `NO_RESPONSE_TEXT` — the last one not after a function response, where an empty
 *   answer is a valid end of the tool loop (as gemini-cli).
 *
 * It also counts the response's payload bytes and throws {@link ResponseTooLargeError} past `maxResponseBytes`.
 */
export class StreamValidator {
  private finishReason: string | undefined;
  private hasToolCall = false;
  private hasThoughts = false;
  private text = '';
  private blockReason: string | undefined;
  private blockMessage: string | undefined;
  private bytes = 0;

  constructor(private readonly maxResponseBytes: number = DEFAULT_MAX_RESPONSE_BYTES) {}

  /**
   * Takes one chunk into account.
   *
   * @throws ResponseTooLargeError once the response is larger than the limit.
   */
  observe(chunk: Pick<GenerateContentResponse, 'promptFeedback' | 'candidates'>): void {
    const feedback = chunk.promptFeedback;
    if (feedback?.blockReason !== undefined) {
      this.blockReason = String(feedback.blockReason);
      this.blockMessage = feedback.blockReasonMessage;
    }
    for (const candidate of chunk.candidates ?? []) {
      if (candidate.finishReason) this.finishReason = String(candidate.finishReason);
    }
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      this.bytes += partBytes(part);
      if (part.functionCall) this.hasToolCall = true;
      else if (part.thought === true) this.hasThoughts = true;
      else if (typeof part.text === 'string') this.text += part.text;
    }
    if (this.bytes > this.maxResponseBytes) throw new ResponseTooLargeError(this.maxResponseBytes);
  }

  /**
   * The verdict once the stream ended: undefined when the response is usable, else the error saying why.
   *
   * @param afterFunctionResponse the request ended with tool results (an empty answer is then fine).
   */
  verdict(afterFunctionResponse: boolean): InvalidStreamError | undefined {
    if (this.hasToolCall) return undefined;
    if (this.blockReason !== undefined && this.finishReason === undefined) {
      const detail = this.blockMessage ? `: ${this.blockMessage}` : '';
      return new InvalidStreamError(
        `The prompt was blocked by Gemini (promptFeedback.blockReason ${this.blockReason}${detail}). ` +
          'Rephrase the prompt or check the safety settings.',
        'PROMPT_BLOCKED',
      );
    }
    const reason = this.finishReason;
    if (reason === undefined) {
      return new InvalidStreamError(
        'Model stream ended without a finish reason.',
        'NO_FINISH_REASON',
      );
    }
    if (reason === 'MALFORMED_FUNCTION_CALL') {
      return new InvalidStreamError(
        'Model stream ended with malformed function call.',
        'MALFORMED_FUNCTION_CALL',
      );
    }
    if (reason === 'UNEXPECTED_TOOL_CALL') {
      return new InvalidStreamError(
        'Model stream ended with unexpected tool call.',
        'UNEXPECTED_TOOL_CALL',
      );
    }
    if (visibleText(this.text) !== '') return undefined;
    const known = BLOCKED[reason];
    if (known !== undefined) return new InvalidStreamError(known.message, known.type);
    if (!COMPLETE_REASONS.has(reason)) {
      return new InvalidStreamError(
        `Model stream ended due to ${reason} with empty response text.`,
        'OTHER_BLOCKED',
      );
    }
    if (this.hasThoughts) {
      return new InvalidStreamError(
        'Model stream ended with empty response text but contained reasoning thoughts.',
        'THINKING_ONLY_RESPONSE',
      );
    }
    if (afterFunctionResponse) return undefined;
    return new InvalidStreamError(
      'Model stream ended with empty response text.',
      'NO_RESPONSE_TEXT',
    );
  }
}

/** gemini-cli's nudges, appended to the system instruction when re-sending after an empty answer. */
const NUDGES: Partial<Record<InvalidStreamType, string>> = {
  THINKING_ONLY_RESPONSE:
    '\n[System: You previously generated thoughts but failed to provide a final user-facing response. Please ensure you provide your final answer or call a tool now.]',
  NO_RESPONSE_TEXT:
    '\n[System: You previously returned an empty response with no text or thoughts. Please ensure you provide your final answer or call a tool now.]',
};

/**
 * The request to re-send after an unusable response: as gemini-cli does, a thoughts-only or empty answer adds a
 * nudge to a string (or absent) system instruction; anything else re-sends the request unchanged.
 */
export function retryNudge(
  request: GenerateContentParameters,
  lastInvalid: InvalidStreamError | undefined,
): GenerateContentParameters {
  const nudge = lastInvalid === undefined ? undefined : NUDGES[lastInvalid.type];
  if (nudge === undefined) return request;
  const system = request.config?.systemInstruction;
  if (system !== undefined && typeof system !== 'string') return request;
  return {
    ...request,
    config: { ...request.config, systemInstruction: `${system ?? ''}${nudge}` },
  };
}
