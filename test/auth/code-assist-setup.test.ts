import { OAuth2Client } from 'google-auth-library';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError } from '../../src/index.js';
import { CodeAssistHttp } from '../../src/model/code-assist/code-assist-http.js';
import { setupCodeAssistUser } from '../../src/model/code-assist/code-assist-setup.js';
import {
  FakeCodeAssistServer,
  type FakeCodeAssistServerOptions,
} from '../../src/testing/fake-code-assist-server.js';

const servers: FakeCodeAssistServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(options: FakeCodeAssistServerOptions, env: Record<string, string> = {}) {
  const server = new FakeCodeAssistServer(options);
  servers.push(server);
  await server.start();
  const client = new OAuth2Client();
  client.setCredentials({ access_token: 'ya29.setup-test-token' });
  const http = new CodeAssistHttp(client, {
    env: { CODE_ASSIST_ENDPOINT: server.baseUrl, ...env },
  });
  const run = () =>
    setupCodeAssistUser(http, {
      env: { CODE_ASSIST_ENDPOINT: server.baseUrl, ...env },
      pollIntervalMs: 1,
    });
  return { server, run };
}

async function failure(promise: Promise<unknown>): Promise<AuthenticationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthenticationError);
  return error as AuthenticationError;
}

describe("Code Assist setup (gemini-cli's setupUser)", () => {
  it('onboards a new free-tier user without a project, polling the operation until done', async () => {
    const { server, run } = await setup({
      loadCodeAssist: {
        allowedTiers: [
          { id: 'standard-tier', name: 'Standard' },
          { id: 'free-tier', name: 'Gemini Code Assist for individuals', isDefault: true },
        ],
      },
      onboarding: [
        { name: 'operations/onboard-1', done: false },
        { name: 'operations/onboard-1', done: false },
        {
          name: 'operations/onboard-1',
          done: true,
          response: { cloudaicompanionProject: { id: 'managed-42' } },
        },
      ],
    });
    expect(await run()).toEqual({
      projectId: 'managed-42',
      userTier: 'free-tier',
      userTierName: 'Gemini Code Assist for individuals',
      paidTier: undefined,
      hasOnboardedPreviously: false,
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1internal:loadCodeAssist',
      'POST /v1internal:onboardUser',
      'GET /v1internal/operations/onboard-1',
      'GET /v1internal/operations/onboard-1',
    ]);
    // The free tier uses a managed project: none is sent.
    expect(server.requestsOf('onboardUser')[0]?.body).toEqual({
      tierId: 'free-tier',
      metadata: {
        ideType: 'IDE_UNSPECIFIED',
        platform: 'PLATFORM_UNSPECIFIED',
        pluginType: 'GEMINI',
      },
    });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer ya29.setup-test-token');
  });

  it('onboards a standard-tier user into the configured project', async () => {
    const { server, run } = await setup(
      {
        loadCodeAssist: { allowedTiers: [{ id: 'standard-tier', isDefault: true }] },
        onboarding: [{ done: true }],
      },
      { GOOGLE_CLOUD_PROJECT: 'team-project' },
    );
    expect(await run()).toMatchObject({ projectId: 'team-project', userTier: 'standard-tier' });
    expect(server.requestsOf('onboardUser')[0]?.body).toMatchObject({
      tierId: 'standard-tier',
      cloudaicompanionProject: 'team-project',
      metadata: { duetProject: 'team-project' },
    });
  });

  it('a user without a project needs GOOGLE_CLOUD_PROJECT', async () => {
    const { run } = await setup({ loadCodeAssist: { currentTier: { id: 'standard-tier' } } });
    const err = await failure(run());
    expect(err.code).toBe('AUTH_PROJECT_REQUIRED');
    expect(err.message).toContain('GOOGLE_CLOUD_PROJECT');
  });

  it('ineligible tiers are reported with the server reasons', async () => {
    const { run } = await setup({
      loadCodeAssist: {
        ineligibleTiers: [
          { reasonCode: 'RESTRICTED_AGE', reasonMessage: 'You must be 18 or older' },
        ],
        allowedTiers: [{ id: 'free-tier', isDefault: true }],
      },
      onboarding: [{ done: true }],
    });
    const err = await failure(run());
    expect(err.code).toBe('AUTH_INELIGIBLE_TIER');
    expect(err.message).toContain('You must be 18 or older');
  });

  it('an account needing validation gets the validation URL', async () => {
    const { run } = await setup({
      loadCodeAssist: {
        ineligibleTiers: [
          {
            reasonCode: 'VALIDATION_REQUIRED',
            reasonMessage: 'Verify your account',
            validationUrl: 'https://accounts.example/verify',
          },
        ],
      },
    });
    const err = await failure(run());
    expect(err.code).toBe('AUTH_VALIDATION_REQUIRED');
    expect(err.message).toContain('https://accounts.example/verify');
  });

  it('a numeric project number is refused before any call', async () => {
    const { server, run } = await setup({}, { GOOGLE_CLOUD_PROJECT: '123456789012' });
    const err = await failure(run());
    expect(err.code).toBe('AUTH_PROJECT_ID_INVALID');
    expect(server.requests).toHaveLength(0);
  });

  it("Cloud Shell uses gemini-cli's cloudshell-gca project, with its own message when it is denied", async () => {
    const ok = await setup(
      { loadCodeAssist: { currentTier: { id: 'free-tier' } } },
      { CLOUD_SHELL: 'true', GOOGLE_CLOUD_PROJECT: 'gcloud-config-project' },
    );
    expect((await ok.run()).projectId).toBe('cloudshell-gca');
    const denied = await setup({ loadCodeAssistError: { status: 403 } }, { CLOUD_SHELL: 'true' });
    const err = await failure(denied.run());
    expect(err.code).toBe('AUTH_PROJECT_DENIED');
    expect(err.message).toContain('gcloud config set project');
  });

  it('a VPC Service Controls violation means a standard-tier user (as gemini-cli)', async () => {
    const { run } = await setup(
      {
        loadCodeAssistError: {
          status: 403,
          body: {
            error: {
              code: 403,
              message: 'denied',
              details: [{ reason: 'SECURITY_POLICY_VIOLATED' }],
            },
          },
        },
      },
      { GOOGLE_CLOUD_PROJECT: 'vpc-project' },
    );
    expect(await run()).toMatchObject({ projectId: 'vpc-project', userTier: 'standard-tier' });
  });
});
