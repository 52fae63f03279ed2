import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
  GoogleGenAI,
} from '@google/genai';
import { silentLogger, type Logger } from '../logger.js';
import { throwIfAborted } from '../core/abort.js';
import { resolveGeminiAuth, type GeminiAuth, type GeminiAuthOptions } from './auth.js';
import type { ContentGenerator } from './content-generator.js';
import { translateClientError, type CapturedResponse } from './gemini-errors.js';
import { resolveModel } from './models.js';
import { capResponseBody } from './response-cap.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './stream-validator.js';

/** Options of {@link GeminiContentGenerator}: credentials (see {@link GeminiAuthOptions}) plus extras. */
export interface GeminiGeneratorOptions extends GeminiAuthOptions {
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Logger (default silent). */
  logger?: Logger;
  /** Largest response body accepted, in bytes (default 32 MiB): a bigger one fails with `ResponseTooLargeError`. */
  maxResponseBytes?: number;
}

type Models = GoogleGenAI['models'];
type AnyParams = { model: string; config?: object };
type ClientConfig = {
  httpOptions?: { fetch?: typeof globalThis.fetch };
  abortSignal?: AbortSignal;
};

function configSignal(params: AnyParams): AbortSignal | undefined {
  return (params.config as ClientConfig | undefined)?.abortSignal;
}

/**
 * A signal for one client call that aborts when `parent` does. `@google/genai` adds an `abort` listener to the
 * signal it is given for every request and keeps it after success, so handing it the caller's long-lived
 * signal piles listeners up (Node warns after 10). The client gets this per-call signal instead; `unlink()`
 * removes the only listener on `parent` once the call (or its stream) is over.
 */
function callSignal(parent: AbortSignal | undefined): {
  signal: AbortSignal | undefined;
  unlink(): void;
} {
  if (!parent) return { signal: undefined, unlink: () => undefined };
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, unlink: () => undefined };
  }
  const onAbort = (): void => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    unlink: () => parent.removeEventListener('abort', onAbort),
  };
}

/**
 * The {@link ContentGenerator} on Google's official `@google/genai` client (API key or Vertex AI).
 *
 * Credentials are resolved when the generator is built (so a missing key fails early with
 * `MissingCredentialsError`), but the client library is imported on the first call only, so importing the SDK
 * stays cheap. The abort signal reaches the client as `config.abortSignal` through a per-call signal linked to it
 * (see `callSignal`). Model names are sent exactly
 * as given, except gemini-cli's aliases (`auto`, `pro`, `flash`, …; see `resolveModel`). Client errors are
 * translated into `ModelApiError` (`status`, `retryable`) / `AbortError`; a per-call fetch wrapper reads the
 * `Retry-After` header, which the client's own `ApiError` does not keep (a `config.httpOptions.fetch` of the
 * caller is wrapped, not replaced). Because a fetch is supplied, the client does not install its no-timeout
 * undici dispatcher: Node's default timeouts (300 s for headers and between body chunks) apply, and a timeout
 * surfaces as a retryable network error. Response bodies are capped at `maxResponseBytes` as they arrive.
 */
export class GeminiContentGenerator implements ContentGenerator {
  /** The resolved credentials and endpoint (the API key is not exposed by `toJSON`). */
  readonly auth: GeminiAuth;
  private readonly headers: Record<string, string> | undefined;
  private readonly logger: Logger;
  private readonly maxResponseBytes: number;
  private models: Promise<Models> | undefined;

  constructor(options: GeminiGeneratorOptions = {}) {
    this.auth = resolveGeminiAuth(options);
    this.headers = options.headers;
    this.logger = options.logger ?? silentLogger;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** The API endpoint requests go to: the base URL, or Google's default for the auth kind. */
  get endpoint(): string {
    const a = this.auth;
    if (a.baseUrl !== undefined) return a.baseUrl;
    if (!a.vertexai) return 'https://generativelanguage.googleapis.com';
    return a.location === undefined || a.location === 'global'
      ? 'https://aiplatform.googleapis.com'
      : `https://${a.location}-aiplatform.googleapis.com`;
  }

  /** The auth kind and endpoint, without secrets. */
  toJSON(): Record<string, unknown> {
    const { apiKey: _secret, ...rest } = this.auth;
    return { ...rest, apiKey: _secret === undefined ? undefined : '<redacted>' };
  }

  /**
   * Loads the client library now instead of on the first call (a session does this while it initializes, so
   * its first model call does not pay for it). A failure is not reported here: the first call retries the import
   * and reports it.
   */
  async preload(): Promise<void> {
    await this.client().then(
      () => undefined,
      () => undefined,
    );
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    return this.call(params, signal, (models, p) => models.generateContent(p));
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    return this.call(params, signal, (models, p) => models.countTokens(p));
  }

  async embedContent(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse> {
    return this.call(params, signal, (models, p) => models.embedContent(p));
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    const captured: { last?: CapturedResponse } = {};
    const link = callSignal(signal ?? configSignal(params));
    let stream: AsyncIterable<GenerateContentResponse>;
    try {
      stream = await this.call(
        params,
        signal,
        (models, prepared) => models.generateContentStream(prepared),
        captured,
        link.signal,
      );
    } catch (error) {
      link.unlink();
      throw error;
    }
    const model = resolveModel(params.model);
    const translate = (error: unknown) =>
      translateClientError(error, {
        model,
        signal,
        captured: captured.last,
        endpoint: this.endpoint,
      });
    return (async function* () {
      try {
        for await (const chunk of stream) yield chunk;
      } catch (error) {
        throw translate(error);
      } finally {
        link.unlink();
      }
    })();
  }

  private async call<P extends AnyParams, R>(
    params: P,
    signal: AbortSignal | undefined,
    run: (models: Models, prepared: P) => Promise<R>,
    captured: { last?: CapturedResponse } = {},
    clientSignal?: AbortSignal,
  ): Promise<R> {
    throwIfAborted(signal);
    // Unless the caller (a stream) owns the link, this call links its own signal and unlinks it when done.
    const link = clientSignal ? undefined : callSignal(signal ?? configSignal(params));
    const prepared = this.prepare(params, clientSignal ?? link?.signal, captured);
    try {
      const models = await this.client();
      throwIfAborted(signal);
      this.logger.debug('gemini request', { model: prepared.model });
      return await run(models, prepared);
    } catch (error) {
      throw translateClientError(error, {
        model: prepared.model,
        signal,
        captured: captured.last,
        endpoint: this.endpoint,
      });
    } finally {
      link?.unlink();
    }
  }

  private prepare<P extends AnyParams>(
    params: P,
    signal: AbortSignal | undefined,
    captured: { last?: CapturedResponse },
  ): P {
    const config = (params.config ?? {}) as ClientConfig;
    const baseFetch = config.httpOptions?.fetch ?? globalThis.fetch;
    const fetchWithCapture = async (
      input: string | URL | Request,
      init?: RequestInit,
    ): Promise<Response> => {
      const response = await baseFetch(input, init);
      if (!response.ok) {
        captured.last = {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
        };
      }
      return capResponseBody(response, this.maxResponseBytes);
    };
    return {
      ...params,
      model: resolveModel(params.model),
      config: {
        ...config,
        abortSignal: signal,
        httpOptions: { ...config.httpOptions, fetch: fetchWithCapture },
      },
    };
  }

  private client(): Promise<Models> {
    this.models ??= (async () => {
      const { GoogleGenAI } = await import('@google/genai');
      const a = this.auth;
      const httpOptions: { baseUrl?: string; headers?: Record<string, string> } = {};
      if (a.baseUrl !== undefined) httpOptions.baseUrl = a.baseUrl;
      if (this.headers !== undefined) httpOptions.headers = { ...this.headers };
      // A gateway without a key gets an empty x-goog-api-key header, as in gemini-cli. The client is given a
      // placeholder key so it neither warns on the console nor overwrites the header (it keeps one already set).
      const keyless = a.kind === 'gateway' && a.apiKey === '';
      if (keyless) httpOptions.headers = { ...httpOptions.headers, 'x-goog-api-key': '' };
      const apiKey = keyless ? 'keyless-gateway' : a.apiKey;
      const client = new GoogleGenAI({
        vertexai: a.vertexai,
        ...(apiKey !== undefined ? { apiKey } : {}),
        ...(a.project !== undefined ? { project: a.project } : {}),
        ...(a.location !== undefined ? { location: a.location } : {}),
        ...(a.apiVersion !== undefined ? { apiVersion: a.apiVersion } : {}),
        httpOptions,
      });
      return client.models;
    })();
    this.models.catch(() => {
      this.models = undefined;
    });
    return this.models;
  }
}
