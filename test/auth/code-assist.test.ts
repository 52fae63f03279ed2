import { readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  GeminiCliAgent,
  tool,
  z,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, textTurn } from '../../src/testing/index.js';
import { createAuthFixture, expiredCredentials, type AuthFixture } from './auth-fixture.js';

let fx: AuthFixture | undefined;
afterEach(async () => {
  await fx?.dispose();
  fx = undefined;
});

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const text = (events: ServerGeminiStreamEvent[]) =>
  events
    .filter((e) => e.type === 'content')
    .map((e) => e.value)
    .join('');

interface WrappedRequest {
  model: string;
  project?: string;
  user_prompt_id?: string;
  request: {
    contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
    systemInstruction?: { parts: Array<{ text?: string }> };
    tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
    generationConfig?: Record<string, unknown>;
    session_id?: string;
  };
}

describe('Login with Google: cached gemini-cli credentials and the Code Assist API', () => {
  it('settings select oauth-personal; the expired token is refreshed and written back; requests are wrapped', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: ['1//test-refresh-token-0123456789'] },
      codeAssist: { turns: [textTurn('Hello from Code Assist')] },
    });
    fx.writeSettings({ security: { auth: { selectedType: 'oauth-personal' } } });
    const credsFile = fx.writeCredentials(expiredCredentials());
    const agent = new GeminiCliAgent({
      builtinTools: false,
      instructions: 'Be brief.',
      retry: false,
    });
    const session = agent.session();
    const events = await drain(session.sendStream('Say hi.'));
    expect(text(events)).toBe('Hello from Code Assist');

    // Refresh at the token endpoint with gemini-cli's client, then the revocation check.
    const tokenCalls = fx.auth.requests.filter((r) => r.path === '/token');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]?.form).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: '1//test-refresh-token-0123456789',
      client_id: '681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com',
    });
    expect(fx.auth.requests.some((r) => r.path === '/tokeninfo')).toBe(true);

    // Setup, then the wrapped stream request.
    const load = fx.codeAssist.requestsOf('loadCodeAssist')[0]?.body;
    expect(load).toEqual({
      metadata: {
        ideType: 'IDE_UNSPECIFIED',
        platform: 'PLATFORM_UNSPECIFIED',
        pluginType: 'GEMINI',
      },
    });
    const stream = fx.codeAssist.requestsOf('streamGenerateContent')[0];
    expect(stream?.path).toMatch(/^\/v1internal:streamGenerateContent\?alt=sse$/);
    expect(String(stream?.headers['user-agent'])).toMatch(
      /^GeminiCLI-gemini-agent-sdk\/[^/]+\/gemini-2\.5-pro \(/,
    );
    const body = stream?.body as WrappedRequest;
    expect(body.model).toBe('gemini-2.5-pro');
    expect(body.project).toBe('fake-project');
    expect(body.user_prompt_id).toBe(session.id);
    expect(body.request.session_id).toBe(session.id);
    expect(body.request.systemInstruction?.parts[0]?.text).toContain('Be brief.');
    expect(body.request.contents.at(-1)?.parts.some((p) => p['text'] === 'Say hi.')).toBe(true);

    // The refreshed token is cached for gemini-cli too; the refresh token is kept; the file stays private.
    const saved = JSON.parse(readFileSync(credsFile, 'utf8')) as Record<string, unknown>;
    expect(saved['access_token']).toMatch(/^ya29\.fake-access-/);
    expect(saved['refresh_token']).toBe('1//test-refresh-token-0123456789');
    expect(saved['expiry_date']).toBeGreaterThan(Date.now());
    expect(statSync(credsFile).mode & 0o777).toBe(0o600);
    expect(fx.auth.isAuthorized(`Bearer ${String(saved['access_token'])}`)).toBe(true);
  });

  it('tool calls round-trip; a second session reuses the sign-in and the setup', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: ['1//test-refresh-token-0123456789'] },
      codeAssist: {
        turns: [
          callTurn({ name: 'add', args: { a: 2, b: 3 }, id: 'c1' }),
          textTurn('5'),
          textTurn('again'),
        ],
      },
    });
    fx.writeCredentials(expiredCredentials());
    const agent = new GeminiCliAgent({
      builtinTools: false,
      authType: 'oauth-personal',
      retry: false,
      tools: [
        tool(
          {
            name: 'add',
            description: 'Adds',
            inputSchema: z.object({ a: z.number(), b: z.number() }),
          },
          ({ a, b }) => a + b,
        ),
      ],
    });
    expect(text(await drain(agent.session().sendStream('2+3?')))).toBe('5');
    const second = fx.codeAssist.requestsOf('streamGenerateContent')[1]?.body as WrappedRequest;
    const response = second.request.contents.at(-1)?.parts[0];
    expect(response).toEqual({
      functionResponse: { id: 'c1', name: 'add', response: { output: '5' } },
    });
    expect(second.request.tools?.[0]?.functionDeclarations?.map((d) => d.name)).toEqual(['add']);

    expect(text(await drain(agent.session().sendStream('again')))).toBe('again');
    expect(fx.codeAssist.requestsOf('loadCodeAssist')).toHaveLength(1);
    expect(fx.auth.requests.filter((r) => r.path === '/token')).toHaveLength(1);
  });

  it('GOOGLE_CLOUD_PROJECT is sent to setup and requests; the paid tier wins', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: ['1//test-refresh-token-0123456789'] },
      codeAssist: {
        loadCodeAssist: {
          currentTier: { id: 'standard-tier', name: 'Standard' },
          paidTier: { id: 'g1-pro-tier', name: 'Google AI Pro' },
        },
        turns: [textTurn('ok')],
      },
    });
    fx.writeCredentials(expiredCredentials());
    fx.setEnv({ GOOGLE_GENAI_USE_GCA: 'true', GOOGLE_CLOUD_PROJECT: 'my-project-123' });
    const { createContentGenerator } = await import('../../src/model/index.js');
    const routed = await createContentGenerator({ retry: false });
    expect(routed.userTier).toBe('g1-pro-tier');
    const generator = (routed as unknown as { primary: Record<string, unknown> }).primary;
    expect(generator['projectId']).toBe('my-project-123');
    expect(generator['userTier']).toBe('g1-pro-tier');
    expect(generator['userTierName']).toBe('Google AI Pro');
    expect(fx.codeAssist.requestsOf('loadCodeAssist')[0]?.body).toMatchObject({
      cloudaicompanionProject: 'my-project-123',
      metadata: { duetProject: 'my-project-123' },
    });
  });

  it('a revoked refresh token: AuthenticationError naming the method and why, without any token', async () => {
    fx = await createAuthFixture();
    fx.writeCredentials(expiredCredentials('1//revoked-refresh-token-987654321'));
    fx.setEnv({ GOOGLE_GENAI_USE_GCA: 'true' });
    const agent = new GeminiCliAgent({ builtinTools: false, retry: false });
    const error = await drain(agent.session().sendStream('hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const err = error as AuthenticationError;
    expect(err.code).toBe('AUTH_LOGIN_REQUIRED');
    expect(err.authType).toBe('oauth-personal');
    expect(err.message).toContain('GOOGLE_GENAI_USE_GCA=true');
    expect(err.message).toContain('invalid_grant');
    expect(err.message).toContain('gemini-agent login');
    expect(err.message).not.toContain('revoked-refresh-token');
    expect(err.message).not.toContain('expired-access-token');
    expect(err.cause).toBeUndefined();
  });

  it('no cached credentials at all: tells to run gemini-agent login', async () => {
    fx = await createAuthFixture();
    const agent = new GeminiCliAgent({ builtinTools: false, authType: 'oauth-personal' });
    const error = await drain(agent.session().sendStream('hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(
      /No cached credentials were found.*gemini-agent login/,
    );
  });

  it('GOOGLE_CLOUD_ACCESS_TOKEN is used as is', async () => {
    fx = await createAuthFixture({ codeAssist: { turns: [textTurn('token ok')] } });
    const token = fx.auth.issueAccessToken();
    fx.setEnv({ GOOGLE_GENAI_USE_GCA: 'true', GOOGLE_CLOUD_ACCESS_TOKEN: token });
    const agent = new GeminiCliAgent({ builtinTools: false, retry: false });
    expect(text(await drain(agent.session().sendStream('hi')))).toBe('token ok');
    expect(fx.codeAssist.requestsOf('streamGenerateContent')[0]?.headers['authorization']).toBe(
      `Bearer ${token}`,
    );
    expect(fx.auth.requests.filter((r) => r.path === '/token')).toHaveLength(0);
  });

  it('a 401 from the API refreshes the token once and retries; a 429 goes through the retry policy', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: ['1//test-refresh-token-0123456789'] },
      codeAssist: {
        turns: [{ status: 429, headers: { 'retry-after': '0' } }, textTurn('after retry')],
      },
    });
    fx.writeCredentials(expiredCredentials());
    const agent = new GeminiCliAgent({
      builtinTools: false,
      authType: 'oauth-personal',
      retry: { initialDelayMs: 1, maxDelayMs: 1 },
    });
    const session = agent.session();
    await session.initialize();
    // Revoke the access tokens issued so far: the next request gets a 401 and must refresh.
    fx.auth.validAccessTokens.clear();
    const events = await drain(session.sendStream('hi'));
    expect(text(events)).toBe('after retry');
    expect(events.some((e) => e.type === 'retry')).toBe(true);
    const streams = fx.codeAssist.requestsOf('streamGenerateContent');
    expect(streams.map((r) => r.headers['authorization'] !== undefined)).toEqual([
      true,
      true,
      true,
    ]);
    expect(fx.auth.requests.filter((r) => r.path === '/token')).toHaveLength(2);
  });

  it('the Code Assist endpoint and version come from CODE_ASSIST_ENDPOINT / CODE_ASSIST_API_VERSION', async () => {
    const { codeAssistBaseUrl } = await import('../../src/model/code-assist/code-assist-http.js');
    expect(codeAssistBaseUrl({})).toBe('https://cloudcode-pa.googleapis.com/v1internal');
    expect(
      codeAssistBaseUrl({
        CODE_ASSIST_ENDPOINT: 'http://127.0.0.1:9',
        CODE_ASSIST_API_VERSION: 'v9',
      }),
    ).toBe('http://127.0.0.1:9/v9');
  });
});
