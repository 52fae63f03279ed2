import { ConfigurationError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { AuthCache } from './auth/auth-cache.js';
import { selectAuthType, type AuthSettings } from './auth/auth-selection.js';
import { AuthType } from './auth/auth-type.js';
import { parseCustomHeaders } from './client-headers.js';
import type { ContentGenerator } from './content-generator.js';
import { GeminiContentGenerator } from './gemini-generator.js';
import { RecordingContentGenerator } from './recorder.js';
import { createReplayGenerator } from './replay.js';
import { RetryingContentGenerator, type RetryOptions } from './retry.js';

/** Options of {@link createContentGenerator}. */
export interface CreateContentGeneratorOptions {
  /**
   * Replay this gemini-cli JSONL file instead of calling the API (no network, no credentials). Each generator
   * created replays from line 1 — call `createContentGenerator` once per session, as the reference does.
   */
  fakeResponses?: string | URL;
  /** Strict replay (default `true`); `false` takes the first remaining line of the called method. */
  fakeResponsesStrict?: boolean;
  /** Append one line per completed call to this file, in the replay format. Wraps everything else. */
  recordResponses?: string | URL;
  /**
   * How to sign in to Gemini (gemini-cli's auth types: `gemini-api-key`, `vertex-ai`, `gateway`,
   * `oauth-personal`, `compute-default-credentials`). Default: chosen as gemini-cli does — `apiKey` /
   * `vertexai` options, then `authSettings.selectedType`, then the environment (see docs/auth.md).
   */
  authType?: AuthType | `${AuthType}`;
  /** gemini-cli's `security.auth.*` settings (`selectedType`, `enforcedType`); the agent reads them. */
  authSettings?: AuthSettings;
  /** The session's model id (for the Code Assist User-Agent). */
  model?: string;
  /** The session id (sent to the Code Assist API as `session_id`). */
  sessionId?: string;
  /** Shares sign-in and Code Assist setup between generators (pass the same object for one agent). */
  authCache?: AuthCache;
  /** Gemini API key; beats `GEMINI_API_KEY` / `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** API base URL; beats `GOOGLE_GEMINI_BASE_URL` / `GOOGLE_VERTEX_BASE_URL`. */
  baseUrl?: string;
  /** Use Vertex AI; beats `GOOGLE_GENAI_USE_VERTEXAI`. */
  vertexai?: boolean;
  /** Google Cloud project (Vertex AI); beats `GOOGLE_CLOUD_PROJECT`. */
  project?: string;
  /** Google Cloud location (Vertex AI); beats `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** API version; beats `GOOGLE_GENAI_API_VERSION`. */
  apiVersion?: string;
  /** Extra HTTP headers for the Gemini API. */
  headers?: Record<string, string>;
  /** Environment read instead of `process.env`. */
  env?: Record<string, string | undefined>;
  /** Largest response body the Gemini API may send, in bytes (default 32 MiB). */
  maxResponseBytes?: number;
  /** Retry settings, or `false` to disable retries. Not applied to replay. */
  retry?: RetryOptions | false;
  /** Use this generator (e.g. a `ScriptedModel`) instead of replay or the Gemini API. Retries apply. */
  contentGenerator?: ContentGenerator;
  /** Logger (default silent). */
  logger?: Logger;
}

/**
 * Builds the {@link ContentGenerator} the agent talks to:
 *
 * - the source is `contentGenerator` if given, else a replay of `fakeResponses`, else Gemini through the auth
 *   method chosen as gemini-cli chooses it ({@link selectAuthType}): the `@google/genai` client for API keys,
 *   Vertex AI and gateways, the Code Assist API for "Login with Google" and Application Default Credentials
 *   (`MissingCredentialsError` / `AuthenticationError` saying what to set when signing in fails);
 * - the source is wrapped in retries (`retry`), except replay, which never fails transiently;
 * - with `recordResponses`, a recorder wraps the result (outermost), as in gemini-cli.
 *
 * Cheap: the replay file is read here (so a missing or malformed file fails now, with a `ReplayError`), but the
 * `@google/genai` client is only imported on the first API call.
 */
export async function createContentGenerator(
  options: CreateContentGeneratorOptions = {},
): Promise<ContentGenerator> {
  const logger = options.logger ?? silentLogger;
  if (options.contentGenerator && options.fakeResponses !== undefined) {
    throw new ConfigurationError(
      'Both contentGenerator and fakeResponses were given: pass only one of them.',
    );
  }
  let generator: ContentGenerator;
  if (options.contentGenerator) {
    generator = withRetry(options.contentGenerator, options.retry, logger);
  } else if (options.fakeResponses !== undefined) {
    generator = await createReplayGenerator(options.fakeResponses, {
      strict: options.fakeResponsesStrict ?? true,
    });
  } else {
    generator = withRetry(await createGeminiSource(options, logger), options.retry, logger);
  }
  if (options.recordResponses !== undefined) {
    generator = new RecordingContentGenerator(generator, options.recordResponses);
  }
  return generator;
}

/** Gemini through the chosen auth method: `@google/genai` (key, Vertex AI, gateway) or Code Assist (Google). */
async function createGeminiSource(
  options: CreateContentGeneratorOptions,
  logger: Logger,
): Promise<ContentGenerator> {
  const env = options.env ?? process.env;
  const selection = selectAuthType({
    ...(options.authType === undefined ? {} : { authType: options.authType }),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.vertexai === undefined ? {} : { vertexai: options.vertexai }),
    ...(options.authSettings === undefined ? {} : { settings: options.authSettings }),
    env,
  });
  logger.debug('auth method chosen', { authType: selection.type, because: selection.reason });
  const headers = { ...parseCustomHeaders(env['GEMINI_CLI_CUSTOM_HEADERS']), ...options.headers };
  if (selection.type === AuthType.LOGIN_WITH_GOOGLE || selection.type === AuthType.COMPUTE_ADC) {
    const { createCodeAssistGenerator } =
      await import('./code-assist/create-code-assist-generator.js');
    return createCodeAssistGenerator({
      authType: selection.type,
      reason: selection.reason,
      implicit: selection.source === 'default',
      env,
      logger,
      headers,
      cache: options.authCache ?? new AuthCache(),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.project === undefined ? {} : { project: options.project }),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    });
  }
  const gemini = new GeminiContentGenerator({
    authType: selection.type as 'gemini-api-key' | 'vertex-ai' | 'gateway',
    authReason: selection.reason,
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    vertexai: options.vertexai,
    project: options.project,
    location: options.location,
    apiVersion: options.apiVersion,
    headers: Object.keys(headers).length ? headers : undefined,
    env: options.env,
    logger,
    ...(options.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.maxResponseBytes }),
  });
  // Credentials were checked above; the client library is loaded here, not during the first model call.
  await gemini.preload();
  return gemini;
}

function withRetry(
  generator: ContentGenerator,
  retry: RetryOptions | false | undefined,
  logger: Logger,
): ContentGenerator {
  if (retry === false) return generator;
  return new RetryingContentGenerator(generator, { logger, ...retry });
}
