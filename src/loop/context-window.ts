import type { Content, Part } from '@google/genai';
import type { ContextWindowOverflowInfo } from '../events.js';
import { tokenLimit } from '../model/models.js';

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
 * left after the last request (its `promptTokenCount`; before any call in this process, an estimate of the stored
 * history, as gemini-cli starts a resumed chat). Returns the `context_window_will_overflow` value when it does not
 * fit, undefined when it does.
 */
export function contextOverflow(
  model: string,
  prompt: readonly Part[],
  lastPromptTokens: number | undefined,
  history: readonly Content[],
): ContextWindowOverflowInfo | undefined {
  const used = lastPromptTokens ?? estimateTokens(history.flatMap((c) => c.parts ?? []));
  const remainingTokenCount = tokenLimit(model) - used;
  const estimatedRequestTokenCount = estimateTokens(prompt);
  return estimatedRequestTokenCount > remainingTokenCount
    ? { estimatedRequestTokenCount, remainingTokenCount }
    : undefined;
}
