import { randomUUID } from 'node:crypto';
import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { ModelCapabilityError } from '../../errors.js';
import { throwIfAborted } from '../../core/abort.js';
import type { ContentGenerator } from '../content-generator.js';
import { resolveModel } from '../models.js';
import {
  fromCountTokenResponse,
  fromGenerateContentResponse,
  toCountTokenRequest,
  toGenerateContentRequest,
  type CaGenerateContentResponse,
} from './code-assist-converter.js';
import type { CodeAssistHttp } from './code-assist-http.js';
import type { CodeAssistUser, GeminiUserTier } from './code-assist-types.js';

/** gemini-cli's `CCPA_AI_MODEL_MAPPINGS`: names Code Assist serves under another id. */
export const CODE_ASSIST_MODEL_MAPPINGS: Readonly<Record<string, string>> = {
  'gemini-3.5-flash': 'gemini-3-flash',
};

/** Options of {@link CodeAssistContentGenerator}. */
export interface CodeAssistGeneratorOptions {
  http: CodeAssistHttp;
  user: CodeAssistUser;
  /** The session id, sent as `request.session_id` (and as `user_prompt_id`, as gemini-cli's SDK does). */
  sessionId?: string;
  /** How the credentials were obtained, for {@link CodeAssistContentGenerator.toJSON}. */
  credentials?: string;
}

/**
 * The {@link ContentGenerator} on Google's Code Assist API — what gemini-cli uses for "Login with Google" and
 * for Application Default Credentials. Requests are the Gemini requests the loop builds, wrapped as gemini-cli
 * wraps them (`{model, project, user_prompt_id, request: {…, session_id}}`); answers are unwrapped from
 * `{response, traceId}`. Model names pass through gemini-cli's Code Assist mapping (`gemini-3.5-flash` →
 * `gemini-3-flash`). The user's tier and project come from setup and are exposed like gemini-cli's
 * `userTier` / `userTierName` / `paidTier`.
 */
export class CodeAssistContentGenerator implements ContentGenerator {
  /** The Google Cloud project requests are billed to. */
  readonly projectId: string;
  /** The user tier id (`free-tier`, `standard-tier`, …). */
  readonly userTier: string;
  /** The tier's display name, when known. */
  readonly userTierName: string | undefined;
  /** The paid tier, when there is one. */
  readonly paidTier: GeminiUserTier | undefined;
  private readonly http: CodeAssistHttp;
  private readonly sessionId: string | undefined;
  private readonly promptId: string;
  private readonly credentials: string | undefined;

  constructor(options: CodeAssistGeneratorOptions) {
    this.http = options.http;
    this.projectId = options.user.projectId;
    this.userTier = options.user.userTier;
    this.userTierName = options.user.userTierName;
    this.paidTier = options.user.paidTier;
    this.sessionId = options.sessionId;
    this.promptId = options.sessionId ?? randomUUID();
    this.credentials = options.credentials;
  }

  /** What the generator talks to, without secrets. */
  toJSON(): Record<string, unknown> {
    return {
      kind: 'code-assist',
      projectId: this.projectId,
      userTier: this.userTier,
      userTierName: this.userTierName,
      credentials: this.credentials,
    };
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    throwIfAborted(signal);
    const chunks = await this.http.postStream<CaGenerateContentResponse>(
      'streamGenerateContent',
      this.wrap(params),
      signal ?? params.config?.abortSignal,
    );
    return (async function* () {
      for await (const chunk of chunks) yield fromGenerateContentResponse(chunk);
    })();
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    throwIfAborted(signal);
    const response = await this.http.post<CaGenerateContentResponse>(
      'generateContent',
      this.wrap(params),
      signal ?? params.config?.abortSignal,
    );
    return fromGenerateContentResponse(response);
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    throwIfAborted(signal);
    const response = await this.http.post<{ totalTokens?: number }>(
      'countTokens',
      toCountTokenRequest({ ...params, model: mapModel(params.model) }),
      signal,
    );
    return fromCountTokenResponse(response);
  }

  /** The Code Assist API has no embeddings method. */
  async embedContent(): Promise<EmbedContentResponse> {
    throw new ModelCapabilityError(
      'The Code Assist API (Login with Google / ADC) cannot embed content: use an API key (GEMINI_API_KEY) or ' +
        'Vertex AI for embedContent.',
      { provider: 'code-assist', capability: 'embedContent' },
    );
  }

  private wrap(params: GenerateContentParameters) {
    const { abortSignal: _signal, ...config } = params.config ?? {};
    return toGenerateContentRequest(
      { ...params, model: mapModel(params.model), config },
      this.promptId,
      this.projectId,
      this.sessionId,
    );
  }
}

function mapModel(name: string): string {
  const resolved = resolveModel(name);
  const bare = resolved.startsWith('models/') ? resolved.slice(7) : resolved;
  const mapped = CODE_ASSIST_MODEL_MAPPINGS[bare];
  if (mapped === undefined) return resolved;
  return resolved.startsWith('models/') ? `models/${mapped}` : mapped;
}
