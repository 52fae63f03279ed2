import type { GroundingMetadata } from '@google/genai';
import { Buffer } from 'node:buffer';
import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import type { SessionContext } from '../../core/session-context.js';
import { defineBuiltinTool } from './builtin-tool.js';

/** What a grounded search answered: the model's text and Google Search's grounding (sources, supports). */
export interface GroundedAnswer {
  text: string;
  groundingMetadata?: GroundingMetadata | undefined;
}

/**
 * Runs one grounded search: a `generateContent` call with the `googleSearch` tool on the session's model client
 * (gemini-cli's `web-search` model config).
 */
export type GroundedSearch = (
  query: string,
  ctx: SessionContext,
  signal: AbortSignal,
) => Promise<GroundedAnswer>;

const WebSearchArgs = z.object({ query: z.string() });

/**
 * Inserts gemini-cli's citation markers (`[1]`, `[1][2]`) at the end of each grounding support's segment. The
 * segment indices are UTF-8 byte offsets, so the text is cut as bytes.
 */
function withCitations(text: string, grounding: GroundingMetadata): string {
  const insertions = (grounding.groundingSupports ?? [])
    .filter((s) => s.segment !== undefined && s.groundingChunkIndices !== undefined)
    .map((s) => ({
      index: s.segment?.endIndex ?? 0,
      marker: (s.groundingChunkIndices ?? []).map((i) => `[${i + 1}]`).join(''),
    }))
    .sort((a, b) => b.index - a.index);
  if (insertions.length === 0) return text;
  const encoder = new TextEncoder();
  const bytes = encoder.encode(text);
  const pieces: Uint8Array[] = [];
  let last = bytes.length;
  for (const { index, marker } of insertions) {
    const at = Math.min(Math.max(0, index), last);
    pieces.unshift(bytes.subarray(at, last));
    pieces.unshift(encoder.encode(marker));
    last = at;
  }
  pieces.unshift(bytes.subarray(0, last));
  return Buffer.concat(pieces).toString('utf8');
}

/**
 * The answer as gemini-cli renders it: citation markers in the text, then a `Sources:` list of `[n] title (uri)`.
 */
export function renderGroundedAnswer(answer: GroundedAnswer): string {
  const sources = answer.groundingMetadata?.groundingChunks ?? [];
  if (sources.length === 0 || answer.groundingMetadata === undefined) return answer.text;
  const list = sources.map(
    (source, i) => `[${i + 1}] ${source.web?.title || 'Untitled'} (${source.web?.uri || 'No URI'})`,
  );
  return `${withCitations(answer.text, answer.groundingMetadata)}\n\nSources:\n${list.join('\n')}`;
}

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === 'AbortError');
}

/**
 * gemini-cli's `google_web_search` (GoogleSearch, kind search): asks the model with Google Search grounding and
 * returns its answer with citation markers and the list of sources.
 */
export function createGoogleWebSearchTool(search: GroundedSearch): AgentTool {
  return defineBuiltinTool({
    name: 'google_web_search',
    displayName: 'GoogleSearch',
    kind: 'search',
    description:
      "Performs a grounded Google Search to find information across the internet. Returns a synthesized answer with citations (e.g., [1]) and source URIs. Best for finding up-to-date documentation, troubleshooting obscure errors, or broad research. Use this when you don't have a specific URL. If a search result requires deeper analysis, follow up by using 'web_fetch' on the provided URI.",
    parametersJsonSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            "The search query. Supports natural language questions (e.g., 'Latest breaking changes in React 19') or specific technical queries.",
        },
      },
      required: ['query'],
    },
    schema: WebSearchArgs,
    check: (args) => (args.query.trim() === '' ? "The 'query' parameter cannot be empty." : null),
    describe: (args) => `Searching the web for: "${args.query}"`,
    async run(args, ctx, call) {
      const { query } = args;
      let answer: GroundedAnswer;
      try {
        answer = await search(query, ctx, call.signal);
      } catch (error) {
        if (isAbort(error, call.signal)) {
          return { llmContent: 'Web search was cancelled.', returnDisplay: 'Search cancelled.' };
        }
        const message = `Error during web search for query "${query}": ${error instanceof Error ? error.message : String(error)}`;
        return {
          llmContent: `Error: ${message}`,
          returnDisplay: 'Error performing web search.',
          error: { message, type: 'web_search_failed' },
        };
      }
      if (!answer.text.trim()) {
        return {
          llmContent: `No search results or information found for query: "${query}"`,
          returnDisplay: 'No information found.',
        };
      }
      return {
        llmContent: `Web search results for "${query}":\n\n${renderGroundedAnswer(answer)}`,
        returnDisplay: `Search results for "${query}" returned.`,
      };
    },
  });
}
