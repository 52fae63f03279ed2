import type { Content, Part } from '@google/genai';
import type { ContextWindowOverflowInfo } from '../events.js';

/** gemini-cli's token heuristics (`tokenCalculation.ts`): ~4 ASCII characters a token, 1.5 tokens a non-ASCII one. */
const CHARS_PER_TOKEN = 4;
const NON_ASCII_TOKENS_PER_CHAR = 1.5;
/** Above this length a text counts `length / 4` (the per-character scan would be slow). */
const MAX_CHARS_FOR_FULL_SCAN = 100_000;
const IMAGE_TOKENS = 3000;
const PDF_TOKENS = 25_800;
/** Nested `functionResponse.parts` deeper than this count nothing. */
const MAX_DEPTH = 3;

/**
 * Estimates the tokens of parts locally, as gemini-cli does for text: per character for text, the JSON of the
 * payload for function responses (and their nested parts), fixed amounts for images (3,000) and PDFs (25,800),
 * the JSON length for anything else. gemini-cli asks the `countTokens` API for media instead; we never make that
 * extra call (it would also consume a replay line).
 */
export function estimateTokens(parts: readonly Part[], depth = 0): number {
  if (depth > MAX_DEPTH) return 0;
  let tokens = 0;
  for (const part of parts) {
    if (typeof part.text === 'string') tokens += textTokens(part.text);
    else if (part.functionResponse) {
      const { name, response, parts: nested } = part.functionResponse;
      tokens += (name?.length ?? 0) / CHARS_PER_TOKEN;
      if (response !== undefined && response !== null) {
        tokens += JSON.stringify(response).length / CHARS_PER_TOKEN;
      }
      if (nested && nested.length > 0) tokens += estimateTokens(nested as Part[], depth + 1);
    } else {
      tokens += mediaTokens(part) ?? JSON.stringify(part).length / CHARS_PER_TOKEN;
    }
  }
  return Math.floor(tokens);
}

function textTokens(text: string): number {
  if (text.length > MAX_CHARS_FOR_FULL_SCAN) return text.length / CHARS_PER_TOKEN;
  let tokens = 0;
  for (let i = 0; i < text.length; i++) {
    tokens += text.charCodeAt(i) <= 127 ? 1 / CHARS_PER_TOKEN : NON_ASCII_TOKENS_PER_CHAR;
  }
  return tokens;
}

function mediaTokens(part: Part): number | undefined {
  const mime = part.inlineData?.mimeType ?? part.fileData?.mimeType;
  if (mime?.startsWith('image/')) return IMAGE_TOKENS;
  if (mime?.startsWith('application/pdf')) return PDF_TOKENS;
  return undefined;
}

/**
 * gemini-cli's check before a prompt is sent: the prompt's estimated tokens against what the model's window has
 * left after the last request (its `promptTokenCount`; before any call in this process, the estimate of the
 * history, as gemini-cli starts a resumed chat). Returns the `context_window_will_overflow` value (gemini-cli's
 * figures) when it does not fit, undefined when it does.
 */
export function contextOverflow(
  limit: number,
  prompt: readonly Part[],
  context: ContextTracker,
  history: readonly Content[],
): ContextWindowOverflowInfo | undefined {
  const remainingTokenCount = limit - (context.lastCount ?? context.estimate(history));
  const estimatedRequestTokenCount = estimateTokens(prompt);
  return estimatedRequestTokenCount > remainingTokenCount
    ? { estimatedRequestTokenCount, remainingTokenCount }
    : undefined;
}

/**
 * The same check before a model call inside a turn (the history ends with tool results): what was added since the
 * last model call against what the window had left then. Undefined when the request fits.
 */
export function pendingOverflow(
  limit: number,
  context: ContextTracker,
  history: readonly Content[],
): ContextWindowOverflowInfo | undefined {
  const used = context.estimate(history);
  if (used <= limit) return undefined;
  const pending = context.sinceCount(history);
  return { estimatedRequestTokenCount: pending, remainingTokenCount: limit - (used - pending) };
}

/**
 * A session's context accounting: the tokens its history takes, counted locally and calibrated by the model's own
 * count. Each model call's `promptTokenCount` is recorded with the history length it was sent with; the estimate
 * of the history is then that count plus the local estimate of what was added since. Without a count (a resumed or
 * compressed history, a provider without usage) the whole history is estimated once and the sum kept, so every
 * estimate costs only the turns added since the last one, however long the session grows.
 */
export class ContextTracker {
  private counted: { length: number; tokens: number } | undefined;
  private summed = { length: 0, tokens: 0 };
  private source: readonly Content[] | undefined;

  /** The model's count for a request sent with the first `historyLength` turns. */
  calibrate(historyLength: number, promptTokens: number): void {
    this.counted = { length: historyLength, tokens: promptTokens };
  }

  /** The history was replaced (compression): forget the counts; `tokens` is the new estimate, if known. */
  reset(tokens?: number, historyLength = 0): void {
    this.counted = tokens === undefined ? undefined : { length: historyLength, tokens };
    this.summed = { length: 0, tokens: 0 };
    this.source = undefined;
  }

  /** The last real count (`promptTokenCount`), if this history had one. */
  get lastCount(): number | undefined {
    return this.counted?.tokens;
  }

  /** The tokens `history` takes: the last count plus the estimate of the turns after it (see the class). */
  estimate(history: readonly Content[]): number {
    const counted = this.counted;
    if (counted !== undefined && counted.length <= history.length) {
      return counted.tokens + estimateContents(history, counted.length);
    }
    if (this.source !== history || this.summed.length > history.length) {
      this.source = history;
      this.summed = { length: 0, tokens: 0 };
    }
    this.summed = {
      length: history.length,
      tokens: this.summed.tokens + estimateContents(history, this.summed.length),
    };
    return this.summed.tokens;
  }

  /** The tokens of the turns added since the last count (all of them without one). */
  sinceCount(history: readonly Content[]): number {
    const from =
      this.counted !== undefined && this.counted.length <= history.length ? this.counted.length : 0;
    return estimateContents(history, from);
  }
}

function estimateContents(history: readonly Content[], from: number): number {
  let tokens = 0;
  for (let i = from; i < history.length; i++) tokens += estimateTokens(history[i]?.parts ?? []);
  return tokens;
}
