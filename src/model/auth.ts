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
}

/** Resolved client settings for `new GoogleGenAI(...)`. */
export interface GeminiAuth {
  /** `gemini-api-key` (API key, also for a gateway set through the base URL) or `vertex-ai`. */
  kind: 'gemini-api-key' | 'vertex-ai';
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
  'GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION), or pass fakeResponses.';

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
 * Application Default Credentials through the client. Unlike gemini-cli, a base URL alone is not enough: a
 * gateway that needs no key still gets an `apiKey` (any value), so the client never runs unauthenticated by
 * accident.
 *
 * @throws MissingCredentialsError when nothing usable is configured.
 */
export function resolveGeminiAuth(options: GeminiAuthOptions = {}): GeminiAuth {
  const env = options.env ?? process.env;
  const vertexai = options.vertexai ?? truthy(env['GOOGLE_GENAI_USE_VERTEXAI']);
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
  if (vertexai) {
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env['GOOGLE_API_KEY']);
    const project =
      nonEmpty(options.project) ??
      nonEmpty(env['GOOGLE_CLOUD_PROJECT']) ??
      nonEmpty(env['GOOGLE_CLOUD_PROJECT_ID']);
    const location = nonEmpty(options.location) ?? nonEmpty(env['GOOGLE_CLOUD_LOCATION']);
    if (apiKey === undefined && (project === undefined || location === undefined)) {
      throw new MissingCredentialsError(
        'No Gemini credentials for Vertex AI: set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (with ' +
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
      baseUrl,
      apiVersion,
    };
  }
  const apiKey =
    nonEmpty(options.apiKey) ?? nonEmpty(env['GEMINI_API_KEY']) ?? nonEmpty(env['GOOGLE_API_KEY']);
  if (apiKey === undefined) throw new MissingCredentialsError(NO_CREDENTIALS_MESSAGE);
  return {
    kind: 'gemini-api-key',
    apiKey,
    vertexai: false,
    project: undefined,
    location: undefined,
    baseUrl,
    apiVersion,
  };
}
