import type * as GoogleAuthModule from 'google-auth-library';
import type { AuthClient, Credentials, OAuth2Client } from 'google-auth-library';
import { AuthenticationError, MissingCredentialsError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { noCredentialsMessage } from '../auth.js';
import { describeAuthFailure } from './auth-failure.js';
import { AuthType } from './auth-type.js';
import {
  GEMINI_CLI_OAUTH_CLIENT_ID,
  GEMINI_CLI_OAUTH_CLIENT_SECRET,
  GEMINI_CLI_OAUTH_SCOPES,
  googleOAuthEndpoints,
  type GoogleOAuthEndpoints,
} from './google-oauth.js';
import {
  FORCE_ENCRYPTED_FILE_ENV_VAR,
  readCachedCredentials,
  writeOAuthCredentials,
  type CachedCredentials,
} from './oauth-credentials-file.js';

type Env = Readonly<Record<string, string | undefined>>;
type GoogleAuthLibrary = typeof GoogleAuthModule;

/** The Google auth types, served by the Code Assist API. */
export type GoogleAuthType = typeof AuthType.LOGIN_WITH_GOOGLE | typeof AuthType.COMPUTE_ADC;

/** Where the working credentials came from. */
export type GoogleCredentialsKind =
  'access-token' | 'cached-oauth' | 'adc-file' | 'metadata-server';

/** A signed-in google-auth-library client and where its credentials came from. */
export interface GoogleSignIn {
  client: AuthClient;
  kind: GoogleCredentialsKind;
  /** The credentials file, for `cached-oauth` and `adc-file`. */
  file?: string;
}

/** Options of {@link loadGoogleAuthClient}. */
export interface LoadGoogleAuthOptions {
  authType: GoogleAuthType;
  /** Why this auth type was chosen (for messages). */
  reason: string;
  /**
   * The type was not asked for but is the fallback when nothing is configured: the metadata server is then
   * only asked when this looks like Google Cloud (`GCE_METADATA_HOST`, Cloud Shell, a GCE machine), and
   * "nothing found" is a `MissingCredentialsError` listing every way to sign in.
   */
  implicit?: boolean;
  env?: Env;
  logger?: Logger;
}

/**
 * gemini-cli 0.61's `initOauthClient()` for a non-interactive program: finds working Google credentials for
 * `oauth-personal` ("Login with Google") and `compute-default-credentials` (ADC), in gemini-cli's order:
 *
 * 1. `GOOGLE_GENAI_USE_GCA` with `GOOGLE_CLOUD_ACCESS_TOKEN`: that access token as is;
 * 2. each cached credentials file — `~/.gemini/oauth_creds.json`, then `GOOGLE_APPLICATION_CREDENTIALS` —
 *    ADC-typed JSON (service account, external account…) through `GoogleAuth.fromJSON`, OAuth credentials
 *    through an `OAuth2Client` with gemini-cli's client: the token is refreshed if needed and checked against
 *    `tokeninfo` (a revoked token is skipped); refreshed tokens are written back to `oauth_creds.json`;
 * 3. for `compute-default-credentials`: the metadata server (`Compute`; `GCE_METADATA_HOST` overrides its
 *    address), which also serves Cloud Shell's credentials.
 *
 * The browser sign-in is not started here (a library must not open browsers): `oauth-personal` without
 * cached credentials fails, telling to run `gemini-agent login`. `google-auth-library` is imported on the first
 * call only.
 *
 * @throws AuthenticationError (`AUTH_FAILED`, `AUTH_LOGIN_REQUIRED`) naming the method, why it was chosen,
 *   what failed and what to do; MissingCredentialsError when `implicit` and nothing was found.
 */
export async function loadGoogleAuthClient(options: LoadGoogleAuthOptions): Promise<GoogleSignIn> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const gal = await import('google-auth-library');
  const endpoints = googleOAuthEndpoints(env);
  const accessToken = env['GOOGLE_CLOUD_ACCESS_TOKEN'];
  if (env['GOOGLE_GENAI_USE_GCA'] && accessToken) {
    const client = createGeminiOAuthClient(gal, endpoints);
    client.setCredentials({ access_token: accessToken });
    logger.debug('Using GOOGLE_CLOUD_ACCESS_TOKEN.');
    return { client, kind: 'access-token' };
  }
  const { found, problems } = await readCachedCredentials(env);
  const failures = problems.map((p) => `${p.file} ${p.reason}`);
  for (const cached of found) {
    const result = await tryCachedCredentials(gal, endpoints, cached, logger);
    if ('client' in result) return result;
    failures.push(`${cached.file}: ${result.failure}`);
  }
  if (options.authType === AuthType.COMPUTE_ADC) {
    if (options.implicit && !metadataServerLikely(gal, env)) {
      throw new MissingCredentialsError(noCredentialsMessage(failures));
    }
    return signInWithMetadataServer(gal, options.reason, failures, logger);
  }
  throw loginRequired(options.reason, failures, env);
}

/** An `OAuth2Client` with gemini-cli's OAuth client and the (possibly overridden) endpoints. */
export function createGeminiOAuthClient(
  gal: GoogleAuthLibrary,
  endpoints: GoogleOAuthEndpoints,
): OAuth2Client {
  return new gal.OAuth2Client({
    clientId: GEMINI_CLI_OAUTH_CLIENT_ID,
    clientSecret: GEMINI_CLI_OAUTH_CLIENT_SECRET,
    endpoints: clientEndpoints(endpoints),
  });
}

function clientEndpoints(endpoints: GoogleOAuthEndpoints) {
  return {
    oauth2AuthBaseUrl: endpoints.authUrl,
    oauth2TokenUrl: endpoints.tokenUrl,
    tokenInfoUrl: endpoints.tokenInfoUrl,
    oauth2RevokeUrl: endpoints.revokeUrl,
  };
}

async function tryCachedCredentials(
  gal: GoogleAuthLibrary,
  endpoints: GoogleOAuthEndpoints,
  cached: CachedCredentials,
  logger: Logger,
): Promise<GoogleSignIn | { failure: string }> {
  const json = cached.json;
  const secrets = [json['access_token'], json['refresh_token'], json['private_key']].map((v) =>
    typeof v === 'string' ? v : undefined,
  );
  // An ADC file (service account, external account, …) — or, unlike gemini-cli, an `authorized_user` file of
  // gcloud's at GOOGLE_APPLICATION_CREDENTIALS, which carries its own OAuth client and must refresh with it.
  const ownClient = cached.origin === 'adc' && typeof json['client_id'] === 'string';
  if (isAdcCredentials(json) || ownClient) {
    try {
      const auth = new gal.GoogleAuth({ scopes: [...GEMINI_CLI_OAUTH_SCOPES] });
      const client = auth.fromJSON(
        {
          ...json,
          refresh_token:
            typeof json['refresh_token'] === 'string' ? json['refresh_token'] : undefined,
        },
        // UserRefreshClient takes OAuth2Client options: it refreshes at the (possibly overridden) endpoint.
        (json['type'] === 'authorized_user'
          ? { endpoints: clientEndpoints(endpoints) }
          : {}) as Parameters<typeof auth.fromJSON>[1],
      );
      const { token } = await client.getAccessToken();
      if (!token) return { failure: 'the credentials gave no access token' };
      logger.debug('Using Application Default Credentials from a file.', {
        file: cached.file,
        type: json['type'],
      });
      return { client, kind: 'adc-file', file: cached.file };
    } catch (error) {
      return { failure: describeAuthFailure(error, secrets).message };
    }
  }
  const client = createGeminiOAuthClient(gal, endpoints);
  if (cached.origin === 'oauth') {
    client.on('tokens', (tokens: Credentials) => {
      writeOAuthCredentials(cached.file, tokens).catch((error: unknown) => {
        logger.warn('Could not save refreshed Google credentials.', {
          file: cached.file,
          reason: error instanceof Error ? error.message : String(error),
        });
      });
    });
  }
  client.setCredentials(json as Credentials);
  try {
    const { token } = await client.getAccessToken();
    if (!token) return { failure: 'the credentials gave no access token' };
    // As gemini-cli: ask the server whether the token was revoked.
    await client.getTokenInfo(token);
    logger.debug('Loaded cached Google credentials.', { file: cached.file });
    return {
      client,
      kind: cached.origin === 'oauth' ? 'cached-oauth' : 'adc-file',
      file: cached.file,
    };
  } catch (error) {
    return { failure: describeAuthFailure(error, secrets).message };
  }
}

/** gemini-cli's `isAdcCredentials`: JSON with a `type` other than `authorized_user`. */
function isAdcCredentials(json: Record<string, unknown>): boolean {
  return typeof json['type'] === 'string' && json['type'] !== 'authorized_user';
}

function metadataServerLikely(gal: GoogleAuthLibrary, env: Env): boolean {
  if (env['GCE_METADATA_HOST'] || env['GCE_METADATA_IP'] || env['CLOUD_SHELL'] === 'true')
    return true;
  const detection = env['METADATA_SERVER_DETECTION']?.trim().toLowerCase();
  if (detection === 'assume-present') return true;
  if (detection === 'none' || detection === 'bios-only' || detection === 'ping-only') {
    return detection !== 'none' && gal.gcpMetadata.getGCPResidency();
  }
  return gal.gcpMetadata.getGCPResidency();
}

async function signInWithMetadataServer(
  gal: GoogleAuthLibrary,
  reason: string,
  failures: string[],
  logger: Logger,
): Promise<GoogleSignIn> {
  logger.debug('Attempting to authenticate via metadata server application default credentials.');
  const client = new gal.Compute({});
  try {
    await client.getAccessToken();
  } catch (error) {
    const tried = failures.length
      ? ` Cached credentials were not usable: ${failures.join('; ')}.`
      : '';
    throw new AuthenticationError(
      'Could not authenticate using metadata server application default credentials ' +
        `(auth type compute-default-credentials, chosen because ${reason}): ` +
        `${describeAuthFailure(error).message}.${tried} Run on Google Cloud (or set GCE_METADATA_HOST), ` +
        'set GOOGLE_APPLICATION_CREDENTIALS to a credentials file, sign in with `gemini-agent login`, ' +
        'or choose another auth type (e.g. GEMINI_API_KEY).',
      { authType: AuthType.COMPUTE_ADC, code: 'AUTH_FAILED' },
    );
  }
  return { client, kind: 'metadata-server' };
}

function loginRequired(reason: string, failures: string[], env: Env): AuthenticationError {
  const keychain =
    env[FORCE_ENCRYPTED_FILE_ENV_VAR] === 'true'
      ? ` ${FORCE_ENCRYPTED_FILE_ENV_VAR}=true keeps gemini-cli's credentials in the OS keychain, which this ` +
        'SDK does not read: unset it and sign in again.'
      : '';
  const tried = failures.length
    ? ` The cached credentials are not usable: ${failures.join('; ')}.`
    : ' No cached credentials were found.';
  return new AuthenticationError(
    `Login with Google needs a sign-in (auth type oauth-personal, chosen because ${reason}).${tried}${keychain} ` +
      'Run `gemini-agent login` (or sign in once with `gemini`), or choose another auth type (e.g. set ' +
      'GEMINI_API_KEY).',
    { authType: AuthType.LOGIN_WITH_GOOGLE, code: 'AUTH_LOGIN_REQUIRED' },
  );
}
