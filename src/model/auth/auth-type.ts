import { ConfigurationError } from '../../errors.js';

/**
 * gemini-cli's auth types (`AuthType` in `@google/gemini-cli-core`), with the same string values, so a value
 * read from gemini-cli's `security.auth.selectedType` setting means the same thing here.
 */
export const AuthType = {
  /** "Login with Google": cached OAuth credentials (`~/.gemini/oauth_creds.json`), Code Assist API. */
  LOGIN_WITH_GOOGLE: 'oauth-personal',
  /** A Gemini API key (`GEMINI_API_KEY`). */
  USE_GEMINI: 'gemini-api-key',
  /** Vertex AI (`GOOGLE_CLOUD_PROJECT` + `GOOGLE_CLOUD_LOCATION` with ADC, or `GOOGLE_API_KEY`). */
  USE_VERTEX_AI: 'vertex-ai',
  /** Old name of {@link AuthType.COMPUTE_ADC}, still found in old settings files. */
  LEGACY_CLOUD_SHELL: 'cloud-shell',
  /** Application Default Credentials (ADC file or the metadata server: GCE, Cloud Shell), Code Assist API. */
  COMPUTE_ADC: 'compute-default-credentials',
  /** A Gemini-compatible gateway at `GOOGLE_GEMINI_BASE_URL`; the API key is optional. */
  GATEWAY: 'gateway',
} as const;

/** One of the {@link AuthType} values. */
export type AuthType = (typeof AuthType)[keyof typeof AuthType];

/** Every valid {@link AuthType} value. */
export const AUTH_TYPES: readonly AuthType[] = Object.values(AuthType);

type Env = Readonly<Record<string, string | undefined>>;

/**
 * gemini-cli 0.61's `getAuthTypeFromEnv()`, first match wins: `GOOGLE_GENAI_USE_GCA=true` → `oauth-personal`,
 * `GOOGLE_GENAI_USE_VERTEXAI=true` → `vertex-ai`, `GOOGLE_GEMINI_BASE_URL` set → `gateway`, `GEMINI_API_KEY`
 * set → `gemini-api-key`, `CLOUD_SHELL=true` or `GEMINI_CLI_USE_COMPUTE_ADC=true` →
 * `compute-default-credentials`; otherwise `undefined`. The comparisons are exact (`'true'`, not `'1'`), as in
 * gemini-cli.
 */
export function getAuthTypeFromEnv(env: Env = process.env): AuthType | undefined {
  if (env['GOOGLE_GENAI_USE_GCA'] === 'true') return AuthType.LOGIN_WITH_GOOGLE;
  if (env['GOOGLE_GENAI_USE_VERTEXAI'] === 'true') return AuthType.USE_VERTEX_AI;
  if (env['GOOGLE_GEMINI_BASE_URL']) return AuthType.GATEWAY;
  if (env['GEMINI_API_KEY']) return AuthType.USE_GEMINI;
  if (env['CLOUD_SHELL'] === 'true' || env['GEMINI_CLI_USE_COMPUTE_ADC'] === 'true') {
    return AuthType.COMPUTE_ADC;
  }
  return undefined;
}

/**
 * Checks that `value` is an {@link AuthType}; `where` names its origin in the error message.
 *
 * @throws ConfigurationError (`AUTH_TYPE_INVALID`) listing the valid values.
 */
export function parseAuthType(value: unknown, where: string): AuthType {
  if (typeof value === 'string' && (AUTH_TYPES as readonly string[]).includes(value)) {
    return value as AuthType;
  }
  throw new ConfigurationError(
    `Invalid auth type ${JSON.stringify(value)} in ${where}: use one of ${AUTH_TYPES.join(', ')}.`,
    { code: 'AUTH_TYPE_INVALID' },
  );
}
