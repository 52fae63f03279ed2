import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  GeminiCliAgent,
  MissingCredentialsError,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { FakeGeminiServer, textTurn } from '../../src/testing/index.js';
import { createAuthFixture, type AuthFixture } from './auth-fixture.js';

let fx: AuthFixture | undefined;
const servers: FakeGeminiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await fx?.dispose();
  fx = undefined;
});

async function reply(agent: GeminiCliAgent, prompt = 'hi'): Promise<string> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of agent.session().sendStream(prompt)) events.push(e);
  return events
    .filter((e) => e.type === 'content')
    .map((e) => e.value)
    .join('');
}

describe('Application Default Credentials', () => {
  it('compute-default-credentials: a token from the metadata server (GCE_METADATA_HOST) reaches Code Assist', async () => {
    fx = await createAuthFixture({ codeAssist: { turns: [textTurn('from the VM')] } });
    fx.setEnv({ GEMINI_CLI_USE_COMPUTE_ADC: 'true', GCE_METADATA_HOST: fx.auth.metadataHost });
    const agent = new GeminiCliAgent({ builtinTools: false, retry: false });
    expect(await reply(agent)).toBe('from the VM');
    const tokenCall = fx.auth.requests.find((r) =>
      r.path.includes('service-accounts/default/token'),
    );
    expect(tokenCall?.headers['metadata-flavor']).toBe('Google');
    const auth = String(
      fx.codeAssist.requestsOf('streamGenerateContent')[0]?.headers['authorization'],
    );
    expect(fx.auth.isAuthorized(auth)).toBe(true);
  });

  it('nothing configured: the SDK falls back to ADC (as gemini-cli), found through GCE_METADATA_HOST', async () => {
    fx = await createAuthFixture({ codeAssist: { turns: [textTurn('fallback')] } });
    fx.setEnv({ GCE_METADATA_HOST: fx.auth.metadataHost });
    expect(await reply(new GeminiCliAgent({ builtinTools: false, retry: false }))).toBe('fallback');
  });

  it('nothing configured and not on Google Cloud: MissingCredentialsError listing every way to sign in', async () => {
    fx = await createAuthFixture();
    const error = await reply(new GeminiCliAgent({ builtinTools: false })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect((error as Error).message).toMatch(
      /GEMINI_API_KEY.*gemini-agent login.*GOOGLE_APPLICATION_CREDENTIALS/,
    );
    expect(fx.auth.requests).toHaveLength(0);
  });

  it('Cloud Shell (CLOUD_SHELL=true) signs in through its metadata server', async () => {
    fx = await createAuthFixture({
      codeAssist: {
        turns: [textTurn('shell')],
        loadCodeAssist: { currentTier: { id: 'free-tier' } },
      },
    });
    fx.setEnv({ CLOUD_SHELL: 'true', GCE_METADATA_HOST: fx.auth.metadataHost });
    expect(await reply(new GeminiCliAgent({ builtinTools: false, retry: false }))).toBe('shell');
    expect(fx.codeAssist.requestsOf('loadCodeAssist')[0]?.body).toMatchObject({
      cloudaicompanionProject: 'cloudshell-gca',
    });
  });

  it('the metadata server is down: AuthenticationError saying what was tried and what to set', async () => {
    fx = await createAuthFixture();
    fx.auth.metadataAvailable = false;
    fx.setEnv({ GEMINI_CLI_USE_COMPUTE_ADC: 'true', GCE_METADATA_HOST: fx.auth.metadataHost });
    const error = await reply(new GeminiCliAgent({ builtinTools: false })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain(
      'Could not authenticate using metadata server application default credentials (auth type compute-default-credentials, chosen because GEMINI_CLI_USE_COMPUTE_ADC=true)',
    );
    expect((error as Error).message).toContain('GOOGLE_APPLICATION_CREDENTIALS');
  });

  it('an authorized_user file at GOOGLE_APPLICATION_CREDENTIALS refreshes with its own OAuth client', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: ['1//gcloud-adc-refresh-token-xyz'] },
      codeAssist: { turns: [textTurn('adc file')] },
    });
    const file = join(fx.home, 'adc.json');
    writeFileSync(
      file,
      JSON.stringify({
        type: 'authorized_user',
        client_id: 'gcloud-client.apps.googleusercontent.com',
        client_secret: 'gcloud-secret',
        refresh_token: '1//gcloud-adc-refresh-token-xyz',
      }),
    );
    fx.setEnv({ GEMINI_CLI_USE_COMPUTE_ADC: 'true', GOOGLE_APPLICATION_CREDENTIALS: file });
    expect(await reply(new GeminiCliAgent({ builtinTools: false, retry: false }))).toBe('adc file');
    const refresh = fx.auth.requests.find((r) => r.path === '/token');
    expect(refresh?.form['client_id']).toBe('gcloud-client.apps.googleusercontent.com');
  });

  it('vertex-ai without an API key: the @google/genai client gets its ADC token from the metadata server', async () => {
    fx = await createAuthFixture();
    const gemini = new FakeGeminiServer({ turns: [textTurn('vertex via ADC')] });
    servers.push(gemini);
    fx.setEnv({
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_CLOUD_PROJECT: 'vertex-project',
      GOOGLE_CLOUD_LOCATION: 'us-central1',
      GOOGLE_VERTEX_BASE_URL: await gemini.start(),
      GCE_METADATA_HOST: fx.auth.metadataHost,
      METADATA_SERVER_DETECTION: 'assume-present',
    });
    expect(await reply(new GeminiCliAgent({ builtinTools: false, retry: false }))).toBe(
      'vertex via ADC',
    );
    const request = gemini.requests[0];
    expect(request?.path).toContain('/projects/vertex-project/locations/us-central1/');
    expect(fx.auth.isAuthorized(request?.headers['authorization'])).toBe(true);
  });
});
