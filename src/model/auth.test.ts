import { describe, expect, it } from 'vitest';
import { ConfigurationError, MissingCredentialsError } from '../errors.js';
import { NO_CREDENTIALS_MESSAGE, resolveGeminiAuth } from './auth.js';
import { DEFAULT_MODEL, resolveModel } from './models.js';

describe('resolveGeminiAuth', () => {
  it('uses GEMINI_API_KEY first, then GOOGLE_API_KEY', () => {
    expect(resolveGeminiAuth({ env: { GEMINI_API_KEY: 'g', GOOGLE_API_KEY: 'o' } })).toMatchObject({
      kind: 'gemini-api-key',
      apiKey: 'g',
      vertexai: false,
    });
    expect(resolveGeminiAuth({ env: { GOOGLE_API_KEY: 'o' } }).apiKey).toBe('o');
  });

  it('reads GOOGLE_GEMINI_BASE_URL; explicit options beat env', () => {
    const env = { GEMINI_API_KEY: 'env', GOOGLE_GEMINI_BASE_URL: 'http://env.example' };
    expect(resolveGeminiAuth({ env }).baseUrl).toBe('http://env.example');
    expect(
      resolveGeminiAuth({ env, apiKey: 'mine', baseUrl: 'https://mine.example' }),
    ).toMatchObject({
      apiKey: 'mine',
      baseUrl: 'https://mine.example',
    });
  });

  it('Vertex AI with project and location (ADC) or with GOOGLE_API_KEY', () => {
    expect(
      resolveGeminiAuth({
        env: {
          GOOGLE_GENAI_USE_VERTEXAI: 'true',
          GOOGLE_CLOUD_PROJECT: 'p',
          GOOGLE_CLOUD_LOCATION: 'us-central1',
          GOOGLE_VERTEX_BASE_URL: 'https://vertex.example',
          GOOGLE_GEMINI_BASE_URL: 'https://not-used.example',
        },
      }),
    ).toMatchObject({
      kind: 'vertex-ai',
      vertexai: true,
      project: 'p',
      location: 'us-central1',
      apiKey: undefined,
      baseUrl: 'https://vertex.example',
    });
    expect(
      resolveGeminiAuth({ env: { GOOGLE_GENAI_USE_VERTEXAI: 'TRUE', GOOGLE_API_KEY: 'vk' } }),
    ).toMatchObject({
      kind: 'vertex-ai',
      apiKey: 'vk',
    });
    expect(
      resolveGeminiAuth({ vertexai: true, project: 'p', location: 'l', env: {} }).project,
    ).toBe('p');
  });

  it('Vertex AI without project/location or key fails with what to set', () => {
    const err = (() => {
      try {
        resolveGeminiAuth({
          env: { GOOGLE_GENAI_USE_VERTEXAI: 'true', GOOGLE_CLOUD_PROJECT: 'p' },
        });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(MissingCredentialsError);
    expect((err as Error).message).toContain('GOOGLE_CLOUD_LOCATION');
  });

  it('nothing configured → MissingCredentialsError with code MISSING_CREDENTIALS', () => {
    try {
      resolveGeminiAuth({ env: { GEMINI_API_KEY: '  ' } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(MissingCredentialsError);
      expect((e as MissingCredentialsError).code).toBe('MISSING_CREDENTIALS');
      expect((e as Error).message).toBe(NO_CREDENTIALS_MESSAGE);
    }
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => resolveGeminiAuth({ apiKey: 'k', baseUrl: 'localhost:8080', env: {} })).toThrow(
      ConfigurationError,
    );
  });
});

describe('resolveModel', () => {
  it('resolves gemini-cli 0.61 aliases as it does for API-key users, the rest as given', () => {
    expect(DEFAULT_MODEL).toBe('gemini-2.5-pro');
    expect(resolveModel(undefined)).toBe(DEFAULT_MODEL);
    expect(resolveModel('  ')).toBe(DEFAULT_MODEL);
    const expected: Record<string, string> = {
      auto: 'gemini-3.1-pro-preview',
      pro: 'gemini-3.1-pro-preview',
      'auto-gemini-3': 'gemini-3.1-pro-preview',
      'gemini-3-pro-preview': 'gemini-3.1-pro-preview',
      'auto-gemini-2.5': 'gemini-2.5-pro',
      flash: 'gemini-3.8-flash',
      'flash-lite': 'gemini-3.5-flash-lite',
    };
    for (const [alias, model] of Object.entries(expected)) expect(resolveModel(alias)).toBe(model);
    for (const name of [
      'gemini-2.0-flash',
      'gemini-2.5-flash',
      'gemini-3.1-pro-preview',
      'my-tuned-model',
    ]) {
      expect(resolveModel(name)).toBe(name);
    }
    expect(resolveModel('toString')).toBe('toString');
  });
});
