import { ConfigurationError } from '../../errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * gemini-cli's OAuth client ("installed application"; Google documents that such a client secret is not a
 * secret). Using the same client means credentials cached by `gemini` work here and the other way round.
 */
export const GEMINI_CLI_OAUTH_CLIENT_ID =
  '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com';
/** See {@link GEMINI_CLI_OAUTH_CLIENT_ID}. */
export const GEMINI_CLI_OAUTH_CLIENT_SECRET = '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';

/** The scopes gemini-cli asks for (Cloud Code authorization). */
export const GEMINI_CLI_OAUTH_SCOPES: readonly string[] = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
];

/** Where the browser goes after a successful / failed loopback sign-in (gemini-cli's pages). */
export const SIGN_IN_SUCCESS_URL =
  'https://developers.google.com/gemini-code-assist/auth_success_gemini';
/** See {@link SIGN_IN_SUCCESS_URL}. */
export const SIGN_IN_FAILURE_URL =
  'https://developers.google.com/gemini-code-assist/auth_failure_gemini';
/** The redirect of the no-browser (user code) flow: a Google page that shows the code to paste. */
export const USER_CODE_REDIRECT_URI = 'https://codeassist.google.com/authcode';

/** Google's OAuth endpoints used for "Login with Google". */
export interface GoogleOAuthEndpoints {
  /** Consent page (`https://accounts.google.com/o/oauth2/v2/auth`). */
  authUrl: string;
  /** Token exchange and refresh (`https://oauth2.googleapis.com/token`). */
  tokenUrl: string;
  /** Token check, used to detect revoked cached credentials (`https://oauth2.googleapis.com/tokeninfo`). */
  tokenInfoUrl: string;
  /** Token revocation (`https://oauth2.googleapis.com/revoke`). */
  revokeUrl: string;
  /** The signed-in account's e-mail (`https://www.googleapis.com/oauth2/v2/userinfo`). */
  userInfoUrl: string;
}

/** The env variable that points every endpoint of {@link GoogleOAuthEndpoints} at one base URL. */
export const OAUTH_ENDPOINT_ENV = 'GEMINI_AGENT_OAUTH_ENDPOINT';

/**
 * Google's endpoints, or — when `GEMINI_AGENT_OAUTH_ENDPOINT` is set (tests, proxies) — the same paths under
 * that base URL: `<base>/o/oauth2/v2/auth`, `<base>/token`, `<base>/tokeninfo`, `<base>/revoke`,
 * `<base>/oauth2/v2/userinfo`. gemini-cli has no such switch; it is how tests reach a loopback fake, like
 * `CODE_ASSIST_ENDPOINT` and `GCE_METADATA_HOST`.
 *
 * @throws ConfigurationError when the variable is not an http(s) URL.
 */
export function googleOAuthEndpoints(env: Env = process.env): GoogleOAuthEndpoints {
  const base = env[OAUTH_ENDPOINT_ENV];
  if (base === undefined || base === '') {
    return {
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      tokenInfoUrl: 'https://oauth2.googleapis.com/tokeninfo',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      userInfoUrl: 'https://www.googleapis.com/oauth2/v2/userinfo',
    };
  }
  if (!/^https?:\/\/[^/]/i.test(base)) {
    throw new ConfigurationError(
      `Invalid ${OAUTH_ENDPOINT_ENV} "${base}": it must be an http:// or https:// base URL.`,
      { code: 'AUTH_ENDPOINT_INVALID' },
    );
  }
  const root = base.replace(/\/+$/, '');
  return {
    authUrl: `${root}/o/oauth2/v2/auth`,
    tokenUrl: `${root}/token`,
    tokenInfoUrl: `${root}/tokeninfo`,
    revokeUrl: `${root}/revoke`,
    userInfoUrl: `${root}/oauth2/v2/userinfo`,
  };
}
