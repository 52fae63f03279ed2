import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../errors.js';
import { selectAuthType } from './auth-selection.js';
import { getAuthTypeFromEnv } from './auth-type.js';

describe("getAuthTypeFromEnv (gemini-cli 0.61's order, exact 'true')", () => {
  it('first match wins', () => {
    const all = {
      GOOGLE_GENAI_USE_GCA: 'true',
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      GOOGLE_GEMINI_BASE_URL: 'http://gw',
      GEMINI_API_KEY: 'k',
      CLOUD_SHELL: 'true',
    };
    expect(getAuthTypeFromEnv(all)).toBe('oauth-personal');
    expect(getAuthTypeFromEnv({ ...all, GOOGLE_GENAI_USE_GCA: undefined })).toBe('vertex-ai');
    expect(
      getAuthTypeFromEnv({
        ...all,
        GOOGLE_GENAI_USE_GCA: undefined,
        GOOGLE_GENAI_USE_VERTEXAI: '1',
      }),
    ).toBe('gateway');
    expect(getAuthTypeFromEnv({ GEMINI_API_KEY: 'k', CLOUD_SHELL: 'true' })).toBe('gemini-api-key');
    expect(getAuthTypeFromEnv({ CLOUD_SHELL: 'true' })).toBe('compute-default-credentials');
    expect(getAuthTypeFromEnv({ GEMINI_CLI_USE_COMPUTE_ADC: 'true' })).toBe(
      'compute-default-credentials',
    );
    expect(
      getAuthTypeFromEnv({ GOOGLE_GENAI_USE_GCA: 'TRUE', GOOGLE_API_KEY: 'k' }),
    ).toBeUndefined();
    expect(getAuthTypeFromEnv({})).toBeUndefined();
  });
});

describe('selectAuthType', () => {
  it('explicit options beat settings, settings beat the environment', () => {
    const env = { GEMINI_API_KEY: 'k' };
    const settings = { selectedType: 'oauth-personal', source: '/h/.gemini/settings.json' };
    expect(selectAuthType({ authType: 'vertex-ai', settings, env })).toMatchObject({
      type: 'vertex-ai',
      source: 'option',
    });
    expect(selectAuthType({ apiKey: 'mine', settings, env })).toMatchObject({
      type: 'gemini-api-key',
      reason: 'the apiKey option',
    });
    expect(selectAuthType({ vertexai: true, apiKey: 'mine', env })).toMatchObject({
      type: 'vertex-ai',
    });
    expect(selectAuthType({ settings, env })).toEqual({
      type: 'oauth-personal',
      source: 'settings',
      reason: 'security.auth.selectedType in /h/.gemini/settings.json',
    });
    expect(selectAuthType({ env })).toEqual({
      type: 'gemini-api-key',
      source: 'environment',
      reason: 'GEMINI_API_KEY is set',
    });
  });

  it('GOOGLE_API_KEY alone means an API key; nothing at all means ADC, as the reference SDK', () => {
    expect(selectAuthType({ env: { GOOGLE_API_KEY: 'k' } }).type).toBe('gemini-api-key');
    expect(selectAuthType({ env: {} })).toMatchObject({
      type: 'compute-default-credentials',
      source: 'default',
    });
  });

  it("the legacy 'cloud-shell' type means compute-default-credentials", () => {
    expect(selectAuthType({ settings: { selectedType: 'cloud-shell' }, env: {} }).type).toBe(
      'compute-default-credentials',
    );
  });

  it('an unknown type is a clear configuration error listing the valid ones', () => {
    const call = () =>
      selectAuthType({ settings: { selectedType: 'oauth', source: 'settings.json' }, env: {} });
    expect(call).toThrow(ConfigurationError);
    expect(call).toThrow(
      /Invalid auth type "oauth" in security.auth.selectedType in settings.json: use one of oauth-personal, gemini-api-key/,
    );
    expect(() => selectAuthType({ authType: 'nope', env: {} })).toThrow(/the authType option/);
  });

  it('security.auth.enforcedType refuses any other method', () => {
    const settings = { enforcedType: 'oauth-personal', source: '/etc/gemini-cli/settings.json' };
    expect(selectAuthType({ settings, env: { GOOGLE_GENAI_USE_GCA: 'true' } }).type).toBe(
      'oauth-personal',
    );
    try {
      selectAuthType({ settings, env: { GEMINI_API_KEY: 'k' } });
      expect.unreachable();
    } catch (e) {
      expect((e as ConfigurationError).code).toBe('AUTH_TYPE_NOT_ALLOWED');
      expect((e as Error).message).toContain(
        "The enforced authentication type is 'oauth-personal' (security.auth.enforcedType in /etc/gemini-cli/settings.json), but the current type is 'gemini-api-key' (GEMINI_API_KEY is set).",
      );
    }
  });
});
