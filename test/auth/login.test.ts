import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  AuthenticationError,
  loginWithGoogle,
  logoutFromGoogle,
} from '../../src/index.js';
import { createAuthFixture, type AuthFixture } from './auth-fixture.js';

let fx: AuthFixture | undefined;
afterEach(async () => {
  await fx?.dispose();
  fx = undefined;
});

/** Plays the user's browser: consent page → redirect to the loopback callback (never the real web). */
async function browse(url: string, tamper?: (callback: URL) => void): Promise<Response> {
  const consent = await fetch(url, { redirect: 'manual' });
  const callback = new URL(String(consent.headers.get('location')));
  tamper?.(callback);
  return fetch(callback, { redirect: 'manual' });
}

describe('loginWithGoogle', () => {
  it('browser flow: loopback redirect, state checked, credentials cached as gemini-cli caches them', async () => {
    fx = await createAuthFixture({ auth: { email: 'ada@example.com' } });
    const shown: string[] = [];
    let landing: Response | undefined;
    const result = await loginWithGoogle({
      mode: 'browser',
      show: (m) => shown.push(m),
      openBrowser: async (url) => {
        const auth = new URL(url);
        expect(auth.origin).toBe(fx?.auth.baseUrl);
        expect(auth.searchParams.get('client_id')).toMatch(/^681255809395-/);
        expect(auth.searchParams.get('access_type')).toBe('offline');
        expect(auth.searchParams.get('redirect_uri')).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+\/oauth2callback$/,
        );
        // Answer asynchronously, as a real browser would.
        void browse(url).then((r) => (landing = r));
      },
    });
    expect(result.email).toBe('ada@example.com');
    expect(result.credentialsFile).toBe(join(fx.geminiDir, 'oauth_creds.json'));
    const saved = JSON.parse(readFileSync(result.credentialsFile, 'utf8')) as Record<
      string,
      string
    >;
    expect(saved['refresh_token']).toMatch(/^1\/\/fake-refresh-/);
    expect(statSync(result.credentialsFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(fx.geminiDir, 'google_accounts.json'), 'utf8'))).toEqual({
      active: 'ada@example.com',
      old: [],
    });
    const exchange = fx.auth.requests.find((r) => r.path === '/token');
    expect(exchange?.form).toMatchObject({
      grant_type: 'authorization_code',
      code: 'fake-auth-code',
    });
    await expect.poll(() => landing?.status).toBe(301);
    expect(landing?.headers.get('location')).toBe(
      'https://developers.google.com/gemini-code-assist/auth_success_gemini',
    );
    expect(shown.join('')).toContain('Waiting for authentication...');
    expect(shown.join('')).not.toContain(saved['refresh_token']);
  });

  it('browser flow: a callback with the wrong state is refused (CSRF), and stray requests are ignored', async () => {
    fx = await createAuthFixture();
    const attempt = loginWithGoogle({
      mode: 'browser',
      show: () => undefined,
      openBrowser: (url) => {
        const redirect = new URL(String(new URL(url).searchParams.get('redirect_uri')));
        void fetch(new URL('/favicon.ico', redirect)).then(() =>
          browse(url, (cb) => cb.searchParams.set('state', 'forged')),
        );
      },
    });
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('OAuth state mismatch');
    expect(existsSync(join(fx.geminiDir, 'oauth_creds.json'))).toBe(false);
  });

  it('browser flow: a denied consent reports the OAuth error', async () => {
    fx = await createAuthFixture();
    const error = await loginWithGoogle({
      mode: 'browser',
      show: () => undefined,
      openBrowser: (url) => {
        void browse(url, (cb) => {
          cb.searchParams.delete('code');
          cb.searchParams.set('error', 'access_denied');
        });
      },
    }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Google OAuth error: access_denied. No additional details provided',
    );
  });

  it('user-code flow (no browser): PKCE, the codeassist redirect, the pasted code', async () => {
    fx = await createAuthFixture();
    const shown: string[] = [];
    const result = await loginWithGoogle({
      mode: 'user-code',
      show: (m) => shown.push(m),
      readCode: async (prompt) => {
        expect(prompt).toBe('Enter the authorization code: ');
        return '  fake-auth-code \n';
      },
    });
    const url = new URL(/https?:\/\/\S+/.exec(shown.join(''))?.[0] ?? '');
    expect(url.searchParams.get('redirect_uri')).toBe('https://codeassist.google.com/authcode');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const exchange = fx.auth.requests.find((r) => r.path === '/token')?.form;
    expect(exchange?.['code_verifier']).toMatch(/^[\w.~-]{43,128}$/);
    expect(exchange?.['redirect_uri']).toBe('https://codeassist.google.com/authcode');
    expect(existsSync(result.credentialsFile)).toBe(true);
  });

  it('user-code flow: a wrong code is a clear error; aborting cancels', async () => {
    fx = await createAuthFixture();
    const wrong = await loginWithGoogle({
      mode: 'user-code',
      show: () => undefined,
      readCode: async () => 'nope',
    }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AuthenticationError);
    expect((wrong as Error).message).toContain(
      'Failed to authenticate with authorization code: invalid_grant',
    );
    const controller = new AbortController();
    const pending = loginWithGoogle({
      mode: 'user-code',
      show: () => controller.abort(),
      readCode: () => new Promise(() => undefined),
      signal: controller.signal,
    });
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('logout revokes and deletes the cached credentials', async () => {
    fx = await createAuthFixture();
    await loginWithGoogle({
      mode: 'user-code',
      show: () => undefined,
      readCode: async () => 'fake-auth-code',
    });
    expect(await logoutFromGoogle()).toBe(true);
    expect(existsSync(join(fx.geminiDir, 'oauth_creds.json'))).toBe(false);
    expect(fx.auth.requests.some((r) => r.path.startsWith('/revoke'))).toBe(true);
    expect(await logoutFromGoogle()).toBe(false);
  });
});
