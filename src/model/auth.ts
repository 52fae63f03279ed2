import { ConfigurationError, MissingCredentialsError } from '../errors.js';

/** Credentials and endpoint options; each explicit option beats the matching environment variable. */
export interface GeminiAuthOptions {
  /** API key (Gemini API, or Vertex AI express mode). Default: `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** Use Vertex AI. Default: `GOOGLE_GENAI_USE_VERTEXAI` is `true` or `1`. */
  vertexai?: boolean;
  /** Google Cloud project (Vertex AI). Default: `GOOGLE_CLOUD_PROJECT`, then `GOOGLE_CLOUD_PROJECT_ID`. */
  project?: string;
  /** Google Cloud location (Vertex AI). Default: `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** API base URL. Default: `GOOGLE_VERTEX_BASE_URL` (Vertex AI) or `GOOGLE_GEMINI_BASE_URL`. */
  baseUrl?: string;
  /** API version, e.g. `v1beta`. Default: `GOOGLE_GENAI_API_VERSION`, else the client's default. */
  apiVersion?: string;
  /** Environment to read instead of `process.env` (tests inject one). */
  env?: Record<string, string | undefined>;
  /**
   * The auth method chosen by {@link selectAuthType} (`gemini-api-key`, `vertex-ai` or `gateway`). Without it the
   * method follows `vertexai` / `GOOGLE_GENAI_USE_VERTEXAI`, else an API key.
   */
  authType?: GeminiApiAuthType;
  /** Why that method was chosen (`GEMINI_API_KEY is set`, …), quoted in error messages. */
  authReason?: string;
}

/** The auth types served by the `@google/genai` client (the others go through Code Assist). */
export type GeminiApiAuthType = 'gemini-api-key' | 'vertex-ai' | 'gateway';

/** Resolved client settings for `new GoogleGenAI(...)`. */
export interface GeminiAuth {
  /**
   * `gemini-api-key` (API key, optionally at another base URL), `vertex-ai`, or `gateway` (a Gemini-compatible
   * endpoint at `GOOGLE_GEMINI_BASE_URL`, where the key may be empty).
   */
  kind: GeminiApiAuthType;
  apiKey: string | undefined;
  vertexai: boolean;
  project: string | undefined;
  location: string | undefined;
  baseUrl: string | undefined;
  apiVersion: string | undefined;
}

/** The message of the error thrown when no credentials are found. */
export const NO_CREDENTIALS_MESSAGE =
  'No Gemini credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI with ' +
  'GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION), sign in with `gemini-agent login` (Login with Google), ' +
  'set GOOGLE_APPLICATION_CREDENTIALS, or pass fakeResponses.';

/** {@link NO_CREDENTIALS_MESSAGE}, plus the credentials that were found but could not be used. */
export function noCredentialsMessage(failures: readonly string[] = []): string {
  const tried = failures.length ? ` Credentials found but not usable: ${failures.join('; ')}.` : '';
  return NO_CREDENTIALS_MESSAGE + tried;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && ['true', '1', 'yes'].includes(value.trim().toLowerCase());
}

/**
 * Resolves credentials the way gemini-cli does (`GEMINI_API_KEY`, `GOOGLE_API_KEY`, `GOOGLE_GENAI_USE_VERTEXAI`
 * with `GOOGLE_CLOUD_PROJECT`/`GOOGLE_CLOUD_LOCATION`, base URL from `GOOGLE_GEMINI_BASE_URL` /
 * `GOOGLE_VERTEX_BASE_URL`); explicit options beat the environment. Vertex AI without an API key uses
 * Application Default Credentials through the client. With `authType: 'gateway'` (gemini-cli's `gateway`,
 * chosen when `GOOGLE_GEMINI_BASE_URL` is set) the key is optional: an empty key is sent as an empty
 * `x-goog-api-key` header, as gemini-cli does. Without `authType`, a base URL alone is not enough: a key is
 * required, so the client never runs unauthenticated by accident.
 *
 * @throws MissingCredentialsError when nothing usable is configured (the message says which method was
 *   chosen, why, and what to set).
 */
export function resolveGeminiAuth(options: GeminiAuthOptions = {}): GeminiAuth {
  const env = options.env ?? process.env;
  const type: GeminiApiAuthType =
    options.authType ??
    ((options.vertexai ?? truthy(env['GOOGLE_GENAI_USE_VERTEXAI']))
      ? 'vertex-ai'
      : 'gemini-api-key');
  const vertexai = type === 'vertex-ai';
  const chosen =
    options.authReason === undefined
      ? ''
      : ` (auth type ${type}, chosen because ${options.authReason})`;
  const apiVersion = nonEmpty(options.apiVersion) ?? nonEmpty(env['GOOGLE_GENAI_API_VERSION']);
  const baseUrl =
    nonEmpty(options.baseUrl) ??
    (vertexai ? nonEmpty(env['GOOGLE_VERTEX_BASE_URL']) : nonEmpty(env['GOOGLE_GEMINI_BASE_URL']));
  if (baseUrl !== undefined && !/^https?:\/\//i.test(baseUrl)) {
    throw new ConfigurationError(
      `Invalid Gemini base URL "${baseUrl}": it must start with http:// or https:// ` +
        '(check baseUrl, GOOGLE_GEMINI_BASE_URL or GOOGLE_VERTEX_BASE_URL).',
    );
  }
  const base = { apiVersion, baseUrl };
  if (vertexai) {
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env['GOOGLE_API_KEY']);
    const project =
      nonEmpty(options.project) ??
      nonEmpty(env['GOOGLE_CLOUD_PROJECT']) ??
      nonEmpty(env['GOOGLE_CLOUD_PROJECT_ID']);
    const location = nonEmpty(options.location) ?? nonEmpty(env['GOOGLE_CLOUD_LOCATION']);
    if (apiKey === undefined && (project === undefined || location === undefined)) {
      throw new MissingCredentialsError(
        `No Gemini credentials for Vertex AI${chosen}: set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (with ` +
          'Application Default Credentials, e.g. `gcloud auth application-default login`) or GOOGLE_API_KEY, ' +
          'or unset GOOGLE_GENAI_USE_VERTEXAI and set GEMINI_API_KEY, or pass fakeResponses.',
      );
    }
    return {
      kind: 'vertex-ai',
      apiKey,
      vertexai: true,
      project: apiKey === undefined ? project : undefined,
      location: apiKey === undefined ? location : undefined,
      ...base,
    };
  }
  const apiKey =
    nonEmpty(options.apiKey) ?? nonEmpty(env['GEMINI_API_KEY']) ?? nonEmpty(env['GOOGLE_API_KEY']);
  if (type === 'gateway') {
    if (baseUrl === undefined) {
      throw new MissingCredentialsError(
        `No gateway URL${chosen}: set GOOGLE_GEMINI_BASE_URL (or pass baseUrl) to the gateway's address, or ` +
          'choose another auth type.',
      );
    }
    return {
      kind: 'gateway',
      apiKey: apiKey ?? '',
      vertexai: false,
      project: undefined,
      location: undefined,
      ...base,
    };
  }
  if (apiKey === undefined) {
    throw new MissingCredentialsError(
      chosen === ''
        ? NO_CREDENTIALS_MESSAGE
        : `When using Gemini API, you must specify the GEMINI_API_KEY environment variable${chosen}. ` +
            'Set GEMINI_API_KEY or pass apiKey, or choose another auth type (see docs/auth.md).',
    );
  }
  return {
    kind: 'gemini-api-key',
    apiKey,
    vertexai: false,
    project: undefined,
    location: undefined,
    ...base,
  };
}
