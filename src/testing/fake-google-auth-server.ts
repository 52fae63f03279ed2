import { LoopbackServer, sendJson, type LoopbackRequest } from './loopback-server.js';
import type { ServerResponse } from 'node:http';

/** Options of {@link FakeGoogleAuthServer}. */
export interface FakeGoogleAuthServerOptions {
  /** Lifetime of issued access tokens, in seconds (default 3600). */
  expiresIn?: number;
  /** The e-mail `userinfo` and `tokeninfo` report (default `user@example.com`). */
  email?: string;
  /** The authorization code `/token` accepts for `grant_type=authorization_code` (default `fake-auth-code`). */
  authorizationCode?: string;
  /** Refresh tokens `/token` accepts besides the ones it issued (e.g. the one in a prepared oauth_creds.json). */
  refreshTokens?: string[];
  /** Access tokens accepted without having been issued (e.g. an unexpired one in a prepared oauth_creds.json). */
  accessTokens?: string[];
}

/** A request the fake received. */
export interface FakeGoogleAuthRequest extends LoopbackRequest {
  /** The parsed form body (token, tokeninfo, revoke). */
  form: Record<string, string>;
}

/**
 * A loopback stand-in for Google's OAuth endpoints **and** the GCE metadata server, so sign-in can be tested
 * offline with the real google-auth-library:
 *
 * - OAuth (point `GEMINI_AGENT_OAUTH_ENDPOINT` at {@link FakeGoogleAuthServer.baseUrl}): `POST /token`
 *   (`authorization_code` with PKCE and `refresh_token` grants, answering like Google, `invalid_grant` for
 *   unknown or revoked refresh tokens), `POST /tokeninfo`, `POST /revoke`, `GET /oauth2/v2/userinfo`, and
 *   `GET /o/oauth2/v2/auth`, which plays the user's browser: it redirects straight to `redirect_uri` with the
 *   code and the `state` it was given;
 * - metadata server (point `GCE_METADATA_HOST` at {@link FakeGoogleAuthServer.metadataHost}):
 *   `GET /computeMetadata/v1/instance/service-accounts/default/token` and `…/email`,
 *   `/computeMetadata/v1/project/project-id`, all requiring `Metadata-Flavor: Google`.
 *
 * Issued tokens look like Google's (`ya29.…`, `1//…`) so redaction can be tested; `requests` records
 * everything.
 */
export class FakeGoogleAuthServer {
  /** Every request, in order. */
  readonly requests: FakeGoogleAuthRequest[] = [];
  /** Access tokens currently valid. */
  readonly validAccessTokens = new Set<string>();
  private readonly refreshTokens = new Set<string>();
  private readonly options: FakeGoogleAuthServerOptions;
  private readonly loopback = new LoopbackServer((req, res) => this.handle(req, res));
  private counter = 0;
  /** While set, `/token` fails with this OAuth error (e.g. `{ status: 400, error: 'invalid_grant' }`). */
  tokenFailure: { status: number; error: string; description?: string } | undefined;
  /** While false, the metadata server answers 404 (no service account), like a VM without one. */
  metadataAvailable = true;

  constructor(options: FakeGoogleAuthServerOptions = {}) {
    this.options = options;
    for (const t of options.refreshTokens ?? []) this.refreshTokens.add(t);
    for (const t of options.accessTokens ?? []) this.validAccessTokens.add(t);
  }

  /** OAuth base URL, e.g. `http://127.0.0.1:4321` (the value for `GEMINI_AGENT_OAUTH_ENDPOINT`). */
  get baseUrl(): string {
    return this.loopback.baseUrl;
  }

  /** `127.0.0.1:<port>` (the value for `GCE_METADATA_HOST`). */
  get metadataHost(): string {
    return this.loopback.baseUrl.replace(/^http:\/\//, '');
  }

  /** Starts listening; returns the base URL. */
  start(): Promise<string> {
    return this.loopback.start();
  }

  /** Stops listening. */
  close(): Promise<void> {
    return this.loopback.close();
  }

  /** Whether `authorization: Bearer <token>` carries a valid access token. */
  isAuthorized(authorization: string | string[] | undefined): boolean {
    const value = Array.isArray(authorization) ? authorization[0] : authorization;
    const m = /^Bearer (.+)$/.exec(value ?? '');
    return m !== null && this.validAccessTokens.has(m[1] as string);
  }

  /** Revokes every token (as if the user signed out everywhere). */
  revokeAll(): void {
    this.validAccessTokens.clear();
    this.refreshTokens.clear();
  }

  /** Issues a fresh access token (as the metadata server or a refresh would). */
  issueAccessToken(): string {
    const token = `ya29.fake-access-${++this.counter}-${Math.random().toString(36).slice(2, 10)}`;
    this.validAccessTokens.add(token);
    return token;
  }

  private async handle(req: LoopbackRequest, res: ServerResponse): Promise<void> {
    const url = new URL(req.path, 'http://127.0.0.1');
    const form = Object.fromEntries(new URLSearchParams(req.text));
    this.requests.push({ ...req, form });
    if (url.pathname.startsWith('/computeMetadata/v1/'))
      return this.metadata(req, url.pathname, res);
    switch (`${req.method} ${url.pathname}`) {
      case 'POST /token':
        return this.token(form, res);
      case 'POST /tokeninfo':
      case 'GET /tokeninfo': {
        const token =
          form['access_token'] ??
          url.searchParams.get('access_token') ??
          /^Bearer (.+)$/.exec(String(req.headers['authorization'] ?? ''))?.[1];
        if (!token || !this.validAccessTokens.has(token)) {
          return sendJson(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
        }
        return sendJson(res, 200, {
          azp: 'fake',
          aud: 'fake',
          scope: 'https://www.googleapis.com/auth/cloud-platform',
          expires_in: this.options.expiresIn ?? 3600,
          email: this.options.email ?? 'user@example.com',
        });
      }
      case 'POST /revoke': {
        const token = form['token'] ?? url.searchParams.get('token') ?? '';
        this.validAccessTokens.delete(token);
        this.refreshTokens.delete(token);
        return sendJson(res, 200, {});
      }
      case 'GET /oauth2/v2/userinfo':
        if (!this.isAuthorized(req.headers['authorization'])) {
          return sendJson(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
        }
        return sendJson(res, 200, {
          email: this.options.email ?? 'user@example.com',
          verified_email: true,
        });
      case 'GET /o/oauth2/v2/auth': {
        const redirect = url.searchParams.get('redirect_uri');
        if (!redirect) return sendJson(res, 400, { error: 'invalid_request' });
        const target = new URL(redirect);
        target.searchParams.set('code', this.options.authorizationCode ?? 'fake-auth-code');
        const state = url.searchParams.get('state');
        if (state !== null) target.searchParams.set('state', state);
        res.writeHead(302, { location: target.toString() });
        res.end();
        return;
      }
      default:
        return sendJson(res, 404, {
          error: 'not_found',
          error_description: `${req.method} ${url.pathname}`,
        });
    }
  }

  private token(form: Record<string, string>, res: ServerResponse): void {
    if (this.tokenFailure) {
      const f = this.tokenFailure;
      return sendJson(res, f.status, {
        error: f.error,
        error_description: f.description ?? f.error,
      });
    }
    const grant = form['grant_type'];
    let refresh: string | undefined;
    if (grant === 'authorization_code') {
      if (form['code'] !== (this.options.authorizationCode ?? 'fake-auth-code')) {
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: 'Malformed auth code.',
        });
      }
      refresh = `1//fake-refresh-${++this.counter}-${Math.random().toString(36).slice(2, 10)}`;
      this.refreshTokens.add(refresh);
    } else if (grant === 'refresh_token') {
      if (!this.refreshTokens.has(form['refresh_token'] ?? '')) {
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: 'Token has been expired or revoked.',
        });
      }
    } else {
      return sendJson(res, 400, { error: 'unsupported_grant_type' });
    }
    sendJson(res, 200, {
      access_token: this.issueAccessToken(),
      expires_in: this.options.expiresIn ?? 3600,
      token_type: 'Bearer',
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      ...(refresh ? { refresh_token: refresh } : {}),
    });
  }

  private metadata(req: LoopbackRequest, path: string, res: ServerResponse): void {
    if (req.headers['metadata-flavor'] !== 'Google') {
      res.writeHead(403);
      res.end('Missing Metadata-Flavor header');
      return;
    }
    const reply = (status: number, body: string, type = 'application/text'): void => {
      res.writeHead(status, { 'metadata-flavor': 'Google', 'content-type': type });
      res.end(body);
    };
    if (!this.metadataAvailable) return reply(404, 'Not Found');
    const rest = path.slice('/computeMetadata/v1/'.length).replace(/\/$/, '');
    if (rest === 'instance/service-accounts/default/token') {
      return reply(
        200,
        JSON.stringify({
          access_token: this.issueAccessToken(),
          expires_in: this.options.expiresIn ?? 3600,
          token_type: 'Bearer',
        }),
        'application/json',
      );
    }
    if (rest === 'instance/service-accounts/default/email') {
      return reply(200, this.options.email ?? 'vm@example.iam.gserviceaccount.com');
    }
    if (rest === 'project/project-id') return reply(200, 'fake-gce-project');
    if (rest === '' || rest === 'instance') return reply(200, '{}', 'application/json');
    return reply(404, 'Not Found');
  }
}
