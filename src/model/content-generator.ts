import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';

/**
 * The one seam between the agent loop and a model. The loop only ever talks to this interface; the Gemini
 * adapter, replay (`fakeResponses`), the recorder and the testing kit's `ScriptedModel` implement it.
 *
 * Types are `@google/genai`'s own, so a request built here is exactly what the official client sends.
 */
export interface ContentGenerator {
  /** Streams one model turn. The returned iterable yields response chunks in order. */
  generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>>;
  /** One non-streaming model call. */
  generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse>;
  /** Counts the tokens of a request. */
  countTokens(params: CountTokensParameters, signal?: AbortSignal): Promise<CountTokensResponse>;
  /**
   * The Code Assist user tier (`free-tier`, `standard-tier`, a paid tier's id), when the model is reached through
   * Google sign-in — gemini-cli's `userTier`. Wrappers (retries, recorder, routing) pass it through.
   */
  readonly userTier?: string;
  /** The tier's display name (gemini-cli's `userTierName`). */
  readonly userTierName?: string;
  /** Embeds content. Optional: generators that cannot embed omit it. */
  embedContent?(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse>;
}

/** The four replayable methods, named as in gemini-cli's replay files. */
export type ContentGeneratorMethod =
  'generateContent' | 'generateContentStream' | 'countTokens' | 'embedContent';
