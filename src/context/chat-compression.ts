import type {
  Content,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from '@google/genai';
import { CompressionStatus, type ChatCompressedInfo } from '../events.js';
import { estimateTokens } from '../loop/context-window.js';
import { buildRequestContents } from '../loop/request-contents.js';
import {
  COMPRESSION_PROMPT,
  SNAPSHOT_ACK,
  SNAPSHOT_PROBE,
  snapshotRequest,
} from './compression-prompt.js';
import { formatTruncatedToolOutput } from './tool-output-truncation.js';

/** gemini-cli's `COMPRESSION_PRESERVE_THRESHOLD`: the newest 30 % of the history (in characters) is kept. */
export const COMPRESSION_PRESERVE_THRESHOLD = 0.3;

/** gemini-cli's `COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET`: tool outputs newer than this many tokens stay whole. */
export const COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET = 50_000;

/**
 * gemini-cli's `findCompressSplitPoint`: the index of the oldest turn to keep, so that about `fraction` of the
 * characters (JSON length) come before it. Only a user turn that is not a function response starts the kept part,
 * so a function call is never separated from its response. Returns `contents.length` (compress everything) only
 * when the history ends with a model turn without calls; 0 when nothing can be compressed.
 */
export function findCompressSplitPoint(contents: readonly Content[], fraction: number): number {
  if (!(fraction > 0 && fraction < 1)) throw new RangeError('Fraction must be between 0 and 1');
  const charCounts = contents.map((content) => JSON.stringify(content).length);
  const target = charCounts.reduce((a, b) => a + b, 0) * fraction;
  let lastSplitPoint = 0;
  let cumulative = 0;
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (content?.role === 'user' && !content.parts?.some((p) => p.functionResponse)) {
      if (cumulative >= target) return i;
      lastSplitPoint = i;
    }
    cumulative += charCounts[i] ?? 0;
  }
  const last = contents.at(-1);
  if (last?.role === 'model' && !last.parts?.some((p) => p.functionCall)) return contents.length;
  return lastSplitPoint;
}

/** A response's text as gemini-cli's `getResponseText`: the first candidate's non-thought text parts joined. */
export function responseText(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => typeof p.text === 'string' && p.text !== '' && p.thought !== true)
    .map((p) => p.text)
    .join('');
}

/** A text gemini-cli (or this SDK) already cut: cutting it again would only lose the pointer to the full output. */
function alreadyTruncated(text: string): boolean {
  return (
    text.startsWith('Output too large. Showing first ') && text.includes('For full output see: ')
  );
}

function responseString(response: unknown): string {
  if (typeof response === 'string') return response;
  if (response !== null && typeof response === 'object') {
    const record = response as Record<string, unknown>;
    if (typeof record['output'] === 'string') return record['output'];
    if (typeof record['content'] === 'string') return record['content'];
  }
  return JSON.stringify(response, null, 2) ?? '';
}

/** Saves one old tool output before it is cut: returns the file's path. */
export type SaveOutput = (content: string, toolName: string, callId: string) => Promise<string>;

/**
 * gemini-cli's `truncateHistoryToBudget`: from the newest turn back, function responses are kept whole while
 * their tokens fit in {@link COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET}; older ones are saved with `save` and
 * replaced by their cut text (`{ output }`, `maxChars` characters). When saving fails the response stays whole.
 */
export async function truncateHistoryToBudget(
  history: readonly Content[],
  save: SaveOutput,
  maxChars: number,
): Promise<Content[]> {
  let counter = 0;
  const out: Content[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const content = history[i] as Content;
    const parts: Part[] = [];
    const source = content.parts ?? [];
    for (let j = source.length - 1; j >= 0; j--) {
      const part = source[j] as Part;
      const fr = part.functionResponse;
      if (fr === undefined) {
        parts.unshift(part);
        continue;
      }
      const text = responseString(fr.response);
      const tokens = estimateTokens([{ text }]);
      if (
        counter + tokens <= COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET ||
        alreadyTruncated(text)
      ) {
        counter += tokens;
        parts.unshift(part);
        continue;
      }
      try {
        const file = await save(text, fr.name ?? 'unknown_tool', fr.id ?? `${i}_${j}`);
        const cut = formatTruncatedToolOutput(text, file, maxChars);
        parts.unshift({ functionResponse: { ...fr, response: { output: cut } } });
        counter += estimateTokens([{ text: cut }]);
      } catch {
        parts.unshift(part);
        counter += tokens;
      }
    }
    out.unshift({ ...content, parts });
  }
  return out;
}

/** What one compression works with. */
export interface CompressionInput {
  /** The stored history (call ids with their `<name>__` prefix). */
  history: readonly Content[];
  /** `session.compress()`: compress even under the threshold (and summarize after an inflated attempt). */
  force: boolean;
  /** The history's tokens now (the last `promptTokenCount`, or the estimate). */
  originalTokenCount: number;
  /** The model's context window. */
  tokenLimit: number;
  /** The fraction of `tokenLimit` that triggers an automatic compression; undefined: never automatically. */
  threshold: number | undefined;
  /** An earlier automatic summary came out larger than the history: automatic compressions only truncate now. */
  hasFailedCompressionAttempt: boolean;
  /** The characters a cut tool output keeps. */
  truncateThreshold: number;
  /** Parts sent before the history (the `<session_context>`), counted in the new token count. */
  contextParts: readonly Part[];
  /** Saves an old tool output that gets cut. */
  save: SaveOutput;
  /** One `generateContent` call with the session's model. */
  generate(request: Omit<GenerateContentParameters, 'model'>): Promise<GenerateContentResponse>;
}

/** The outcome: the new history (undefined: unchanged) and gemini-cli's figures. */
export interface CompressionOutcome {
  newHistory: Content[] | undefined;
  info: ChatCompressedInfo;
}

function unchanged(
  originalTokenCount: number,
  status: ChatCompressedInfo['compressionStatus'],
  newTokenCount = originalTokenCount,
): CompressionOutcome {
  return {
    newHistory: undefined,
    info: { originalTokenCount, newTokenCount, compressionStatus: status },
  };
}

/**
 * gemini-cli's `ChatCompressionService.compress` (two changes: a history with no split point — one prompt's long
 * tool loop — still gets its old tool outputs cut, where gemini-cli does nothing and then overflows; and a cut that
 * changed nothing is NOOP, not a rewrite): under the threshold (and not forced) nothing happens (NOOP);
 * otherwise old tool outputs are cut to the budget, the oldest ~70 % (split on a user prompt) is summarized by
 * the model into a `<state_snapshot>` (a second call checks and improves it), and the new history is
 * `[user: snapshot, model: "Got it. Thanks for the additional context!", …the kept turns]`. A summary that is
 * empty (4) or larger than the history was (2) leaves the history unchanged; after an inflated one, automatic
 * compressions only cut tool outputs (6). Model errors reject.
 */
export async function compressHistory(input: CompressionInput): Promise<CompressionOutcome> {
  const { history, originalTokenCount } = input;
  if (history.length === 0) return unchanged(0, CompressionStatus.NOOP);
  if (!input.force) {
    if (input.threshold === undefined) return unchanged(originalTokenCount, CompressionStatus.NOOP);
    if (originalTokenCount < input.threshold * input.tokenLimit) {
      return unchanged(originalTokenCount, CompressionStatus.NOOP);
    }
  }
  const truncated = await truncateHistoryToBudget(history, input.save, input.truncateThreshold);
  const truncatedOnly = (): CompressionOutcome => {
    // Only when an output was cut: an unchanged history is not rewritten (a checkpoint per model call).
    const tokens = estimateTokens(truncated.flatMap((c) => c.parts ?? []));
    if (tokens < estimateTokens(history.flatMap((c) => c.parts ?? []))) {
      return {
        newHistory: truncated,
        info: {
          originalTokenCount,
          newTokenCount: tokens,
          compressionStatus: CompressionStatus.CONTENT_TRUNCATED,
        },
      };
    }
    return unchanged(originalTokenCount, CompressionStatus.NOOP);
  };
  if (input.hasFailedCompressionAttempt && !input.force) return truncatedOnly();
  const split = findCompressSplitPoint(truncated, 1 - COMPRESSION_PRESERVE_THRESHOLD);
  // Nothing to summarize (one prompt's long tool loop): cutting old outputs still frees the window.
  if (split === 0) return truncatedOnly();
  const original = history.slice(0, split);
  const forSummary =
    estimateTokens(original.flatMap((c) => c.parts ?? [])) < input.tokenLimit
      ? original
      : truncated.slice(0, split);
  const contents = buildRequestContents(forSummary);
  const hasPrevious = forSummary.some((c) =>
    c.parts?.some((p) => p.text?.includes('<state_snapshot>')),
  );
  const systemInstruction = { text: COMPRESSION_PROMPT };
  const summary = responseText(
    await input.generate({
      contents: [...contents, { role: 'user', parts: [{ text: snapshotRequest(hasPrevious) }] }],
      config: { systemInstruction },
    }),
  );
  const verified = responseText(
    await input.generate({
      contents: [
        ...contents,
        { role: 'model', parts: [{ text: summary }] },
        { role: 'user', parts: [{ text: SNAPSHOT_PROBE }] },
      ],
      config: { systemInstruction },
    }),
  );
  const finalSummary = (verified.trim() || summary).trim();
  if (finalSummary === '') {
    return unchanged(originalTokenCount, CompressionStatus.COMPRESSION_FAILED_EMPTY_SUMMARY);
  }
  const newHistory: Content[] = [
    { role: 'user', parts: [{ text: finalSummary }] },
    { role: 'model', parts: [{ text: SNAPSHOT_ACK }] },
    ...truncated.slice(split),
  ];
  const newTokenCount = estimateTokens([
    ...input.contextParts,
    ...newHistory.flatMap((c) => c.parts ?? []),
  ]);
  if (newTokenCount > originalTokenCount) {
    return unchanged(
      originalTokenCount,
      CompressionStatus.COMPRESSION_FAILED_INFLATED_TOKEN_COUNT,
      newTokenCount,
    );
  }
  return {
    newHistory,
    info: { originalTokenCount, newTokenCount, compressionStatus: CompressionStatus.COMPRESSED },
  };
}
