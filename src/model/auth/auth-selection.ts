import { ConfigurationError } from '../../errors.js';
import { AuthType, getAuthTypeFromEnv, parseAuthType } from './auth-type.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The auth keys of gemini-cli's settings (`security.auth.*`), as read from its settings files. */
export interface AuthSettings {
  /** `security.auth.selectedType`: the method chosen in gemini-cli's `/auth` dialog. */
  selectedType?: string;
  /** `security.auth.enforcedType`: an admin-enforced method; any other one is refused. */
  enforcedType?: string;
  /** The settings file(s) the values came from, for error messages. */
  source?: string;
}

/** What decides the auth method, strongest first (see {@link selectAuthType}). */
export interface AuthSelectionOptions {
  /** Explicit choice (the `authType` option). */
  authType?: string;
  /** An explicit API key (the `apiKey` option) means `gemini-api-key` (or `vertex-ai` with `vertexai`). */
  apiKey?: string;
  /** An explicit `vertexai: true` means `vertex-ai`. */
  vertexai?: boolean;
  /** gemini-cli's settings. */
  settings?: AuthSettings;
  /** Environment (default `process.env`). */
  env?: Env;
}

/** Where an auth choice came from. */
export type AuthSource = 'option' | 'settings' | 'environment' | 'default';

/** The chosen auth method and why it was chosen. */
export interface AuthSelection {
  /** The method (`cloud-shell` is normalised to `compute-default-credentials`). */
  type: AuthType;
  /** Which input decided. */
  source: AuthSource;
  /** Human-readable reason, used in error messages (`GEMINI_API_KEY is set`, …). */
  reason: string;
}

/**
 * Chooses the auth method as gemini-cli 0.61 does, with the SDK's explicit options in front:
 *
 * 1. the `authType` option; else an explicit `apiKey` / `vertexai: true` option;
 * 2. `security.auth.selectedType` from gemini-cli's settings (the CLI's `configuredAuthType || …`);
 * 3. `getAuthTypeFromEnv()` (`GOOGLE_GENAI_USE_GCA`, `GOOGLE_GENAI_USE_VERTEXAI`, `GOOGLE_GEMINI_BASE_URL`,
 *    `GEMINI_API_KEY`, `CLOUD_SHELL` / `GEMINI_CLI_USE_COMPUTE_ADC`);
 * 4. `GOOGLE_API_KEY` alone → `gemini-api-key` (the SDK always accepted it);
 * 5. otherwise `compute-default-credentials`, as gemini-cli's SDK does (`getAuthTypeFromEnv() || COMPUTE_ADC`):
 *    cached "Login with Google" credentials, an ADC file, or the metadata server.
 *
 * `security.auth.enforcedType`, when set, must equal the result.
 *
 * @throws ConfigurationError `AUTH_TYPE_INVALID` for an unknown value, `AUTH_TYPE_NOT_ALLOWED` when the
 *   enforced type differs.
 */
export function selectAuthType(options: AuthSelectionOptions = {}): AuthSelection {
  const selection = choose(options);
  const enforced = options.settings?.enforcedType;
  if (enforced !== undefined && enforced !== '') {
    const want = normalise(
      parseAuthType(enforced, settingsWhere(options.settings, 'enforcedType')),
    );
    if (want !== selection.type) {
      throw new ConfigurationError(
        `The enforced authentication type is '${want}' (security.auth.enforcedType in ` +
          `${options.settings?.source ?? 'settings'}), but the current type is '${selection.type}' ` +
          `(${selection.reason}). Sign in with '${want}' or pass authType: '${want}'.`,
        { code: 'AUTH_TYPE_NOT_ALLOWED' },
      );
    }
  }
  return selection;
}

function choose(options: AuthSelectionOptions): AuthSelection {
  const env = options.env ?? process.env;
  if (options.authType !== undefined) {
    return {
      type: normalise(parseAuthType(options.authType, 'the authType option')),
      source: 'option',
      reason: 'the authType option',
    };
  }
  if (options.vertexai === true) {
    return { type: AuthType.USE_VERTEX_AI, source: 'option', reason: 'the vertexai option' };
  }
  if (options.apiKey !== undefined && options.apiKey.trim() !== '') {
    return { type: AuthType.USE_GEMINI, source: 'option', reason: 'the apiKey option' };
  }
  const selected = options.settings?.selectedType;
  if (selected !== undefined && selected !== '') {
    const where = settingsWhere(options.settings, 'selectedType');
    return { type: normalise(parseAuthType(selected, where)), source: 'settings', reason: where };
  }
  const fromEnv = getAuthTypeFromEnv(env);
  if (fromEnv !== undefined) {
    return { type: fromEnv, source: 'environment', reason: envReason(fromEnv, env) };
  }
  if (env['GOOGLE_API_KEY']) {
    return { type: AuthType.USE_GEMINI, source: 'environment', reason: 'GOOGLE_API_KEY is set' };
  }
  return {
    type: AuthType.COMPUTE_ADC,
    source: 'default',
    reason:
      'nothing else is configured (the SDK then uses Application Default Credentials, as gemini-cli does)',
  };
}

function normalise(type: AuthType): AuthType {
  return type === AuthType.LEGACY_CLOUD_SHELL ? AuthType.COMPUTE_ADC : type;
}

function settingsWhere(settings: AuthSettings | undefined, key: string): string {
  return `security.auth.${key} in ${settings?.source ?? 'settings'}`;
}

function envReason(type: AuthType, env: Env): string {
  switch (type) {
    case AuthType.LOGIN_WITH_GOOGLE:
      return 'GOOGLE_GENAI_USE_GCA=true';
    case AuthType.USE_VERTEX_AI:
      return 'GOOGLE_GENAI_USE_VERTEXAI=true';
    case AuthType.GATEWAY:
      return 'GOOGLE_GEMINI_BASE_URL is set';
    case AuthType.USE_GEMINI:
      return 'GEMINI_API_KEY is set';
    default:
      return env['CLOUD_SHELL'] === 'true' ? 'CLOUD_SHELL=true' : 'GEMINI_CLI_USE_COMPUTE_ADC=true';
  }
}
