import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { ModelCapabilityError } from '../errors.js';
import type { ContentGenerator } from './content-generator.js';
import { splitModelId } from './model-provider.js';

/** The routing key of Gemini itself (also accepted as an explicit `gemini:` model prefix). */
export const GEMINI_KEY = 'gemini';

/**
 * Which source serves a model id: its provider prefix when it names a known provider (`openai:gpt-4.1`,
 * `ollama:llama3.2`, `gemini:gemini-2.5-pro`, or the id of the configured provider), else the configured
 * provider, else Gemini. An unknown prefix is part of a Gemini model name, as before providers existed.
 */
export function routeKey(
  model: string | undefined,
  knownKeys: readonly string[],
  fallback: string,
): string {
  if (model === undefined) return fallback;
  const { prefix } = splitModelId(model);
  return prefix !== undefined && knownKeys.includes(prefix) ? prefix : fallback;
}

/**
 * Sends each call to the source its model id routes to (see {@link routeKey}), so `session.setModel('openai:…')`
 * works in a Gemini session and back. The first source is built eagerly (credentials are checked at once); the
 * others when first used. A `gemini:` prefix is removed before Gemini sees the name.
 */
export class ProviderRouter implements ContentGenerator {
  private readonly sources = new Map<string, Promise<ContentGenerator>>();

  constructor(
    private readonly primaryKey: string,
    /** The source of the session's own model (built eagerly). */
    readonly primary: ContentGenerator,
    private readonly knownKeys: readonly string[],
    private readonly create: (key: string) => Promise<ContentGenerator>,
  ) {
    this.sources.set(primaryKey, Promise.resolve(primary));
  }

  /** The primary source's Code Assist tier, if any. */
  get userTier(): string | undefined {
    return this.primary.userTier;
  }

  /** The primary source's tier name, if any. */
  get userTierName(): string | undefined {
    return this.primary.userTierName;
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    const { source, request } = await this.pick(params);
    return source.generateContentStream(request, signal);
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    const { source, request } = await this.pick(params);
    return source.generateContent(request, signal);
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    const { source, request } = await this.pick(params);
    return source.countTokens(request, signal);
  }

  async embedContent(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse> {
    const { source, request, key } = await this.pick(params);
    if (!source.embedContent) {
      throw new ModelCapabilityError(`The ${key} model source cannot embed content.`, {
        provider: key,
        capability: 'embedContent',
      });
    }
    return source.embedContent(request, signal);
  }

  private async pick<P extends { model: string }>(
    params: P,
  ): Promise<{ source: ContentGenerator; request: P; key: string }> {
    const key = routeKey(params.model, this.knownKeys, this.primaryKey);
    let source = this.sources.get(key);
    if (source === undefined) {
      source = this.create(key);
      this.sources.set(key, source);
      source.catch(() => this.sources.delete(key));
    }
    const { prefix, name } = splitModelId(params.model);
    const request =
      key === GEMINI_KEY && prefix === GEMINI_KEY ? { ...params, model: name } : params;
    return { source: await source, request, key };
  }
}
