import type { GoogleLoginOptions, GoogleLoginResult } from './google-login.js';

/**
 * "Login with Google" with gemini-cli's flow and OAuth client: the browser flow (loopback redirect) or the
 * no-browser user-code flow; the credentials land in `~/.gemini/oauth_creds.json`, shared with gemini-cli.
 * The sign-in code is loaded on the first call only, so importing the SDK stays cheap. See docs/auth.md.
 *
 * @throws AuthenticationError `AUTH_LOGIN_FAILED` (denied consent, state mismatch, bad code, timeout),
 *   AbortError when `signal` aborts.
 */
export async function loginWithGoogle(options: GoogleLoginOptions): Promise<GoogleLoginResult> {
  const { loginWithGoogle: login } = await import('./google-login.js');
  return login(options);
}

/**
 * Signs out of "Login with Google": revokes the cached token (best effort) and deletes
 * `~/.gemini/oauth_creds.json`. Returns whether credentials were cached.
 */
export async function logoutFromGoogle(
  options: { env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<boolean> {
  const { logoutFromGoogle: logout } = await import('./google-login.js');
  return logout(options);
}
