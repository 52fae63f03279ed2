import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { CodeChallengeMethod, Credentials, OAuth2Client } from 'google-auth-library';
import { AbortError, AuthenticationError, ConfigurationError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { describeAuthFailure } from './auth-failure.js';
import { createGeminiOAuthClient } from './google-auth-client.js';
import {
  GEMINI_CLI_OAUTH_SCOPES,
  SIGN_IN_FAILURE_URL,
  SIGN_IN_SUCCESS_URL,
  USER_CODE_REDIRECT_URI,
  googleOAuthEndpoints,
} from './google-oauth.js';
import {
  cacheGoogleAccount,
  clearOAuthCredentials,
  oauthCredentialsPath,
  writeOAuthCredentials,
} from './oauth-credentials-file.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Options of {@link loginWithGoogle}. */
export interface GoogleLoginOptions {
  /**
   * `browser`: gemini-cli's web flow — a loopback server on 127.0.0.1 receives the redirect
   * (`OAUTH_CALLBACK_PORT` / `OAUTH_CALLBACK_HOST` as gemini-cli). `user-code`: the no-browser flow — open the
   * printed URL anywhere, paste the code shown (PKCE-protected).
   */
  mode: 'browser' | 'user-code';
  /** Shows a message to the user (the URL to open, what to do next). */
  show: (message: string) => void;
  /** Opens the consent page in a browser (browser mode). A failure is reported, the URL stays usable. */
  openBrowser?: (url: string) => Promise<void> | void;
  /** Reads the code the user pastes (user-code mode). */
  readCode?: (prompt: string) => Promise<string>;
  /** Gives up after this long (default 5 minutes, as gemini-cli). */
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: Env;
  logger?: Logger;
}

/** What a successful sign-in saved. */
export interface GoogleLoginResult {
  /** Where the credentials were written (`~/.gemini/oauth_creds.json`, mode 0600). */
  credentialsFile: string;
  /** The account's e-mail, when Google's userinfo endpoint returned it. */
  email: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * "Login with Google" as gemini-cli does it, with gemini-cli's OAuth client, so the result is the
 * `~/.gemini/oauth_creds.json` both `gemini` and this SDK use (`authType: 'oauth-personal'`). The e-mail is
 * cached in `google_accounts.json`, as gemini-cli does. Tokens are never shown or logged.
 *
 * @throws AuthenticationError `AUTH_LOGIN_FAILED` (denied consent, state mismatch, bad code, timeout),
 *   AbortError when `signal` aborts, ConfigurationError for a bad `OAUTH_CALLBACK_PORT`.
 */
export async function loginWithGoogle(options: GoogleLoginOptions): Promise<GoogleLoginResult> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const gal = await import('google-auth-library');
  const endpoints = googleOAuthEndpoints(env);
  const client = createGeminiOAuthClient(gal, endpoints);
  const tokens =
    options.mode === 'browser'
      ? await browserFlow(client, options, env, logger)
      : await userCodeFlow(client, options, gal.CodeChallengeMethod.S256);
  const credentialsFile = oauthCredentialsPath(env);
  await writeOAuthCredentials(credentialsFile, tokens);
  const email = await fetchEmail(endpoints.userInfoUrl, tokens.access_token ?? undefined, logger);
  if (email !== undefined) await cacheGoogleAccount(env, email);
  return { credentialsFile, email };
}

/**
 * Signs out: revokes the cached token at Google (best effort) and deletes `~/.gemini/oauth_creds.json`,
 * moving the cached account to the "old" list (gemini-cli's `clearCachedCredentialFile`).
 *
 * @returns whether credentials were cached.
 */
export async function logoutFromGoogle(
  options: { env?: Env; logger?: Logger } = {},
): Promise<boolean> {
  const env = options.env ?? process.env;
  const { readOAuthCredentials } = await import('./oauth-credentials-file.js');
  const cached = await readOAuthCredentials(oauthCredentialsPath(env)).catch(() => undefined);
  const token = cached?.refresh_token ?? cached?.access_token;
  if (token) {
    try {
      const revoke = new URL(googleOAuthEndpoints(env).revokeUrl);
      revoke.searchParams.set('token', token);
      await fetch(revoke, { method: 'POST', signal: AbortSignal.timeout(10_000) });
    } catch {
      (options.logger ?? silentLogger).debug(
        'Could not revoke the token at Google; deleting it locally.',
      );
    }
  }
  await clearOAuthCredentials(env);
  return cached !== undefined;
}

async function browserFlow(
  client: OAuth2Client,
  options: GoogleLoginOptions,
  env: Env,
  logger: Logger,
): Promise<Credentials> {
  const host = env['OAUTH_CALLBACK_HOST'] || '127.0.0.1';
  const port = callbackPort(env);
  const state = randomBytes(32).toString('hex');
  let server: Server | undefined;
  let redirectUri = '';
  const received = new Promise<Credentials>((resolve, reject) => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // Unlike gemini-cli, a stray request (a favicon, a port scan) does not abort the sign-in.
      if (url.pathname !== '/oauth2callback') {
        res.writeHead(404).end();
        return;
      }
      const fail = (message: string, status = 301): void => {
        if (status === 301) res.writeHead(301, { Location: SIGN_IN_FAILURE_URL }).end();
        else res.writeHead(status, { 'content-type': 'text/plain' }).end(message);
        reject(
          new AuthenticationError(message, {
            code: 'AUTH_LOGIN_FAILED',
            authType: 'oauth-personal',
          }),
        );
      };
      const error = url.searchParams.get('error');
      const code = url.searchParams.get('code');
      if (error) {
        const description =
          url.searchParams.get('error_description') || 'No additional details provided';
        return fail(`Google OAuth error: ${error}. ${description}`);
      }
      if (url.searchParams.get('state') !== state) {
        return fail('OAuth state mismatch. Possible CSRF attack or browser session issue.', 400);
      }
      if (!code) {
        return fail(
          'No authorization code received from Google OAuth. Please try authenticating again.',
        );
      }
      client.getToken({ code, redirect_uri: redirectUri }).then(
        ({ tokens }) => {
          res.writeHead(301, { Location: SIGN_IN_SUCCESS_URL }).end();
          resolve(tokens);
        },
        (e: unknown) =>
          fail(
            `Failed to exchange authorization code for tokens: ${describeAuthFailure(e).message}`,
          ),
      );
    });
  });
  try {
    const bound = await listen(server as unknown as Server, port, host);
    redirectUri = `http://127.0.0.1:${bound}/oauth2callback`;
    const authUrl = client.generateAuthUrl({
      redirect_uri: redirectUri,
      access_type: 'offline',
      scope: [...GEMINI_CLI_OAUTH_SCOPES],
      state,
    });
    options.show(
      `Attempting to open authentication page in your browser.\nOtherwise navigate to:\n\n${authUrl}\n\n`,
    );
    try {
      await options.openBrowser?.(authUrl);
    } catch (error) {
      logger.warn('Could not open a browser.', { reason: (error as Error).message });
      options.show(
        `Failed to open browser: ${(error as Error).message}\nOpen the URL above yourself, or run again with --no-browser.\n`,
      );
    }
    options.show('Waiting for authentication...\n');
    return await withDeadline(received, options);
  } finally {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

async function userCodeFlow(
  client: OAuth2Client,
  options: GoogleLoginOptions,
  S256: CodeChallengeMethod,
): Promise<Credentials> {
  if (!options.readCode) {
    throw new ConfigurationError('The no-browser sign-in needs a way to read the code (readCode).');
  }
  const readCode = options.readCode;
  const verifier = await client.generateCodeVerifierAsync();
  const authUrl = client.generateAuthUrl({
    redirect_uri: USER_CODE_REDIRECT_URI,
    access_type: 'offline',
    scope: [...GEMINI_CLI_OAUTH_SCOPES],
    code_challenge_method: S256,
    code_challenge: verifier.codeChallenge,
    state: randomBytes(32).toString('hex'),
  });
  options.show(`Please visit the following URL to authorize the application:\n\n${authUrl}\n\n`);
  const code = (await withDeadline(readCode('Enter the authorization code: '), options)).trim();
  if (!code) {
    throw new AuthenticationError('Authorization code is required.', { code: 'AUTH_LOGIN_FAILED' });
  }
  try {
    const { tokens } = await client.getToken({
      code,
      codeVerifier: verifier.codeVerifier,
      redirect_uri: USER_CODE_REDIRECT_URI,
    });
    return tokens;
  } catch (error) {
    throw new AuthenticationError(
      `Failed to authenticate with authorization code: ${describeAuthFailure(error).message}. Run the sign-in again and paste the whole code.`,
      { code: 'AUTH_LOGIN_FAILED', authType: 'oauth-personal' },
    );
  }
}

function callbackPort(env: Env): number {
  const raw = env['OAUTH_CALLBACK_PORT'];
  if (!raw) return 0;
  const port = Number.parseInt(raw, 10);
  if (Number.isNaN(port) || port <= 0 || port > 65535) {
    throw new ConfigurationError(`Invalid value for OAUTH_CALLBACK_PORT: "${raw}"`, {
      code: 'AUTH_CALLBACK_PORT_INVALID',
    });
  }
  return port;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new AuthenticationError(`OAuth callback server error: ${error.message}`, {
          code: 'AUTH_LOGIN_FAILED',
        }),
      ),
    );
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

async function withDeadline<T>(work: Promise<T>, options: GoogleLoginOptions): Promise<T> {
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AuthenticationError(
            `Authentication timed out after ${Math.round(ms / 1000)} seconds. Please try again, or use --no-browser.`,
            { code: 'AUTH_LOGIN_FAILED' },
          ),
        ),
      ms,
    );
    onAbort = () => reject(new AbortError('Authentication cancelled by user.'));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}

async function fetchEmail(
  url: string,
  token: string | undefined,
  logger: Logger,
): Promise<string | undefined> {
  if (!token) return undefined;
  try {
    const res = await fetch(url, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return undefined;
    const info = (await res.json()) as { email?: unknown };
    return typeof info.email === 'string' ? info.email : undefined;
  } catch (error) {
    logger.debug('Could not fetch the account e-mail.', { reason: (error as Error).message });
    return undefined;
  }
}
