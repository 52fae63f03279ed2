import type {
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import type OpenAI from 'openai';
import { ModelCapabilityError } from '../../errors.js';
import { loadOptional, OPENAI_PACKAGE } from '../../core/optional-dependency.js';
import { silentLogger, type Logger } from '../../logger.js';
import { throwIfAborted } from '../../core/abort.js';
import type { ContentGenerator } from '../content-generator.js';
import { toContents } from '../contents.js';
import { splitModelId } from '../model-provider.js';
import { translateOpenAIError } from './openai-errors.js';
import { toChatRequest } from './openai-request.js';
import { ChatStreamAccumulator, fromChatCompletion } from './openai-response.js';

/** Resolved settings of one OpenAI-compatible endpoint. */
export interface OpenAIEndpoint {
  /** Provider id (`openai`, `ollama`, or the one given): the model prefix and the name in messages. */
  id: string;
  baseURL: string;
  /** `undefined` for a server that takes no key (no `Authorization` header is sent). */
  apiKey: string | undefined;
  /** Where the key comes from, for the 401 advice (`OPENAI_API_KEY`, `the apiKey option`). */
  keyHint: string;
  headers: Record<string, string>;
  organization: string | undefined;
  project: string | undefined;
  timeoutMs: number | undefined;
  /** Ask for `usage` on streams (`stream_options.include_usage`). */
  streamUsage: boolean;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

/**
 * A {@link ContentGenerator} on an OpenAI-compatible Chat Completions API (OpenAI, Azure-style gateways, Ollama,
 * vLLM, LM Studio, llama.cpp…) through the official `openai` package, which is loaded on the first call only.
 * Requests and answers are mapped to and from the neutral Gemini form (see `openai-request.ts` and
 * `openai-response.ts`), so the loop, the retry policy (the client's own retries are off), the recorder and
 * replay work unchanged. The provider prefix of the model id (`openai:` in `openai:gpt-4.1`) is removed.
 */
export class OpenAICompatibleGenerator implements ContentGenerator {
  private readonly endpoint: OpenAIEndpoint;
  private readonly logger: Logger;
  private readonly reported = new Set<string>();
  private clientPromise: Promise<OpenAI> | undefined;

  constructor(endpoint: OpenAIEndpoint, logger: Logger = silentLogger) {
    this.endpoint = endpoint;
    this.logger = logger;
  }

  /** The endpoint, without the key. */
  toJSON(): Record<string, unknown> {
    const { apiKey, ...rest } = this.endpoint;
    return {
      kind: 'openai-compatible',
      ...rest,
      apiKey: apiKey === undefined ? undefined : '<redacted>',
    };
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    throwIfAborted(signal);
    const model = this.modelOf(params.model);
    const body = this.request(params, model);
    const context = { provider: this.endpoint.id, model, keyHint: this.endpoint.keyHint, signal };
    let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
    try {
      const client = await this.client();
      stream = await client.chat.completions.create(
        {
          ...body,
          stream: true,
          ...(this.endpoint.streamUsage ? { stream_options: { include_usage: true } } : {}),
        },
        signal ? { signal } : {},
      );
    } catch (error) {
      throw translateOpenAIError(error, context);
    }
    return (async function* () {
      const accumulator = new ChatStreamAccumulator();
      try {
        for await (const c of stream) {
          const out = accumulator.add(c);
          if (out) yield out;
        }
      } catch (error) {
        throw translateOpenAIError(error, context);
      }
      yield accumulator.finishChunk();
    })();
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    throwIfAborted(signal);
    const model = this.modelOf(params.model);
    const body = this.request(params, model);
    try {
      const client = await this.client();
      const completion = await client.chat.completions.create(
        { ...body, stream: false },
        signal ? { signal } : {},
      );
      return fromChatCompletion(completion);
    } catch (error) {
      throw translateOpenAIError(error, {
        provider: this.endpoint.id,
        model,
        keyHint: this.endpoint.keyHint,
        signal,
      });
    }
  }

  /** Chat Completions has no token-count endpoint. */
  async countTokens(): Promise<CountTokensResponse> {
    throw new ModelCapabilityError(
      `countTokens is not available with the ${this.endpoint.id} provider (Chat Completions has no token-count ` +
        'endpoint): read the usage of a response instead.',
      { provider: this.endpoint.id, capability: 'countTokens' },
    );
  }

  /** `embeddings.create` with the text of each content. */
  async embedContent(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse> {
    throwIfAborted(signal);
    const model = this.modelOf(params.model);
    const input = toContents(params.contents).map((c) =>
      (c.parts ?? [])
        .map((p) => p.text ?? '')
        .filter((t) => t !== '')
        .join('\n'),
    );
    try {
      const client = await this.client();
      const res = await client.embeddings.create(
        {
          model,
          input,
          // Floats, not the client's default base64: what every compatible server supports.
          encoding_format: 'float',
          ...(params.config?.outputDimensionality
            ? { dimensions: params.config.outputDimensionality }
            : {}),
        },
        signal ? { signal } : {},
      );
      return { embeddings: res.data.map((d) => ({ values: d.embedding })) } as EmbedContentResponse;
    } catch (error) {
      throw translateOpenAIError(error, {
        provider: this.endpoint.id,
        model,
        keyHint: this.endpoint.keyHint,
        signal,
      });
    }
  }

  private modelOf(requested: string): string {
    const { prefix, name } = splitModelId(requested);
    return prefix === this.endpoint.id ? name : requested;
  }

  private request(params: GenerateContentParameters, model: string) {
    return toChatRequest(params, {
      provider: this.endpoint.id,
      model,
      maxTokensField: this.endpoint.maxTokensField,
      dropped: (setting) => {
        if (this.reported.has(setting)) return;
        this.reported.add(setting);
        this.logger.warn(
          `The ${this.endpoint.id} provider has no equivalent of ${setting}; it is not sent (see docs/providers.md).`,
          { provider: this.endpoint.id, setting },
        );
      },
    });
  }

  private client(): Promise<OpenAI> {
    this.clientPromise ??= (async () => {
      const { default: OpenAIClient } = await loadOptional(OPENAI_PACKAGE, () => import('openai'));
      const e = this.endpoint;
      return new OpenAIClient({
        apiKey: e.apiKey ?? 'no-key',
        baseURL: e.baseURL,
        maxRetries: 0,
        ...(e.timeoutMs !== undefined ? { timeout: e.timeoutMs } : {}),
        ...(e.organization !== undefined ? { organization: e.organization } : {}),
        ...(e.project !== undefined ? { project: e.project } : {}),
        // A keyless server gets no Authorization header at all (null removes the client's default).
        defaultHeaders: {
          ...e.headers,
          ...(e.apiKey === undefined ? { Authorization: null } : {}),
        },
      });
    })();
    this.clientPromise.catch(() => {
      this.clientPromise = undefined;
    });
    return this.clientPromise;
  }
}
