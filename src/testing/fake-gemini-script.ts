import type { CountTokensResponse, GenerateContentResponse, Part } from '@google/genai';
import type { ContentGeneratorMethod } from '../model/content-generator.js';
import { loadReplayFile, parseReplayText, type FakeResponse } from '../model/replay-file.js';

/** A request received by {@link FakeGeminiServer}. */
export interface FakeGeminiRequest {
  /** The API method, from the path (`streamGenerateContent` is reported as `generateContentStream`). */
  method: ContentGeneratorMethod;
  /** HTTP method (always `POST` for the API routes). */
  httpMethod: string;
  /** Path and query string, e.g. `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
  path: string;
  /** API version segment of the path, e.g. `v1beta`. */
  apiVersion: string;
  /** Model name from the path (URL-decoded). */
  model: string;
  /** Request headers, lower-cased names. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
}

/**
 * One scripted answer of {@link FakeGeminiServer}, consumed by one request. Without `status` (or with a 2xx
 * status) it answers with `chunks` (SSE events for a stream, the merged chunks for `generateContent`) or
 * `countTokens`; with an error status it answers with `body` (default: a Google-shaped error) and `headers`.
 */
export interface FakeGeminiReply {
  /** Only a request of this method may consume the reply (replay lines set it); otherwise any method. */
  method?: ContentGeneratorMethod;
  /** Response chunks. */
  chunks?: GenerateContentResponse[];
  /** Answer to a `countTokens` request. */
  countTokens?: CountTokensResponse;
  /** HTTP status (default 200). */
  status?: number;
  /** Extra response headers, e.g. `{ 'retry-after': '1' }`. */
  headers?: Record<string, string>;
  /** JSON body of an error answer (default `{error: {code, message, status}}`). */
  body?: unknown;
  /** Delay before each streamed chunk (and before a unary answer), in ms. */
  chunkDelayMs?: number;
  /** Destroy the connection after this many SSE chunks were sent (0: after the headers, before any chunk). */
  resetAfterChunks?: number;
  /** Destroy the connection before answering at all (the client sees a network error). */
  resetBeforeResponse?: boolean;
  /** After `afterChunks` chunks, send `data: <data>` (not valid JSON by default) and end the stream. */
  malformed?: { afterChunks?: number; data?: string };
}

/**
 * A scripted turn: a reply, bare chunks (as the `ScriptedModel` turns built by `textTurn`/`callTurn`), or a
 * function computing either from the request.
 */
export type FakeGeminiTurn =
  | FakeGeminiReply
  | GenerateContentResponse[]
  | ((
      request: FakeGeminiRequest,
    ) =>
      | FakeGeminiReply
      | GenerateContentResponse[]
      | Promise<FakeGeminiReply | GenerateContentResponse[]>);

/** Converts one replay line (gemini-cli JSONL format) into a reply bound to its method. */
export function replyFromReplayLine(entry: FakeResponse): FakeGeminiReply {
  switch (entry.method) {
    case 'generateContentStream':
      return {
        method: entry.method,
        chunks: entry.response as unknown as GenerateContentResponse[],
      };
    case 'generateContent':
      return {
        method: entry.method,
        chunks: [entry.response as unknown as GenerateContentResponse],
      };
    case 'countTokens':
      return { method: entry.method, countTokens: entry.response as CountTokensResponse };
    case 'embedContent':
      return { method: entry.method, body: entry.response, status: 200 };
  }
}

/** Loads replies from a replay file path, or from JSONL lines given inline (strings or objects). */
export async function loadReplies(
  source: string | URL | ReadonlyArray<string | object>,
): Promise<FakeGeminiReply[]> {
  if (typeof source === 'string' || source instanceof URL) {
    const { lines } = await loadReplayFile(source);
    return lines.map((l) => replyFromReplayLine(l.entry));
  }
  const text = source.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  return parseReplayText(text, '<inline replay lines>').map((l) => replyFromReplayLine(l.entry));
}

/** Normalises a turn result into a reply. */
export function toReply(value: FakeGeminiReply | GenerateContentResponse[]): FakeGeminiReply {
  return Array.isArray(value) ? { chunks: value } : value;
}

/** Merges streamed chunks into one `generateContent` answer (all parts, last finishReason and usage). */
export function mergeChunks(chunks: GenerateContentResponse[]): GenerateContentResponse {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const parts: Part[] = [];
  let last: GenerateContentResponse | undefined;
  for (const chunk of chunks) {
    parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
    last = chunk;
  }
  const candidate = last?.candidates?.[0];
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(candidate?.finishReason ? { finishReason: candidate.finishReason } : {}),
        index: 0,
      },
    ],
    ...(last?.usageMetadata ? { usageMetadata: last.usageMetadata } : {}),
  } as unknown as GenerateContentResponse;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** A Google-shaped error body: `{error: {code, message, status}}`. */
export function googleErrorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } };
}
