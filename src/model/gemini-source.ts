import type { Logger } from '../logger.js';
import { AuthCache } from './auth/auth-cache.js';
import { selectAuthType, type AuthSettings } from './auth/auth-selection.js';
import { AuthType } from './auth/auth-type.js';
import { parseCustomHeaders } from './client-headers.js';
import type { ContentGenerator } from './content-generator.js';
import { GeminiContentGenerator } from './gemini-generator.js';

/** How Gemini is reached: credentials, endpoint and the session (part of `CreateContentGeneratorOptions`). */
export interface GeminiSourceOptions {
  /**
   * How to sign in to Gemini (gemini-cli's auth types: `gemini-api-key`, `vertex-ai`, `gateway`,
   * `oauth-personal`, `compute-default-credentials`). Default: chosen as gemini-cli does — `apiKey` /
   * `vertexai` options, then `authSettings.selectedType`, then the environment (see docs/auth.md).
   */
  authType?: AuthType | `${AuthType}`;
  /** gemini-cli's `security.auth.*` settings (`selectedType`, `enforcedType`); the agent reads them. */
  authSettings?: AuthSettings;
  /**
   * The session's model id. A provider prefix picks another provider: `openai:gpt-4.1` (`OPENAI_API_KEY`,
   * `OPENAI_BASE_URL`), `ollama:llama3.2` (`OLLAMA_HOST`); `gemini:` or no prefix is Gemini. Requests naming
   * another provider's model are routed there.
   */
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
}

/** Gemini through the chosen auth method: `@google/genai` (key, Vertex AI, gateway) or Code Assist (Google). */
export async function createGeminiSource(
  options: GeminiSourceOptions,
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
  const shared =
    options.authCache === undefined
      ? gemini
      : sharedGenerator(options.authCache, logger, gemini, [
          gemini.auth,
          Object.keys(headers).length ? headers : null,
          options.maxResponseBytes ?? null,
        ]);
  // Credentials were checked above; the client library is loaded here, not during the first model call.
  await shared.preload();
  return shared;
}

/**
 * The Gemini API generators built so far for one agent (its {@link AuthCache}), by logger and by everything that
 * reaches the `@google/genai` client (resolved credentials and endpoint, headers, response cap). A
 * `GeminiContentGenerator` keeps no state of a session (each call wraps its own fetch and signal), so the
 * sessions of one agent with the same settings share one client, its options and headers, instead of one each.
 */
const sharedGenerators = new WeakMap<
  AuthCache,
  WeakMap<Logger, Map<string, GeminiContentGenerator>>
>();

/** The generator already built for these settings, or `built` (kept for the next session). */
function sharedGenerator(
  cache: AuthCache,
  logger: Logger,
  built: GeminiContentGenerator,
  settings: unknown[],
): GeminiContentGenerator {
  let byLogger = sharedGenerators.get(cache);
  if (byLogger === undefined) sharedGenerators.set(cache, (byLogger = new WeakMap()));
  let bySettings = byLogger.get(logger);
  if (bySettings === undefined) byLogger.set(logger, (bySettings = new Map()));
  const key = JSON.stringify(settings);
  const existing = bySettings.get(key);
  if (existing !== undefined) return existing;
  bySettings.set(key, built);
  return built;
}
