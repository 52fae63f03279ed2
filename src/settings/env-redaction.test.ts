import { describe, expect, it } from 'vitest';
import { isSecretName, sanitizeEnvironment } from './env-redaction.js';

const host = {
  PATH: '/bin',
  HOME: '/home/u',
  HARMLESS: 'ok',
  MY_API_KEY: 'k',
  DATABASE_URL: 'postgres://db',
  LOOKS_FINE: 'AKIAABCDEFGHIJKLMNOP',
  GEMINI_CLI_HOME: '/g',
  GIT_CONFIG_COUNT: '1',
};

describe('sanitizeEnvironment (gemini-cli)', () => {
  it('is a plain copy while redaction is off and not on GitHub Actions', () => {
    const copy = sanitizeEnvironment(host);
    expect(copy).toEqual(host);
    expect(copy).not.toBe(host);
  });

  it('drops secret-looking names and values when enabled; allow and block lists win over the patterns', () => {
    expect(sanitizeEnvironment(host, { enabled: true })).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      HARMLESS: 'ok',
      GEMINI_CLI_HOME: '/g',
      GIT_CONFIG_COUNT: '1',
    });
    const listed = sanitizeEnvironment(host, {
      enabled: true,
      allowed: ['my_api_key'],
      blocked: ['harmless'],
    });
    expect(listed['MY_API_KEY']).toBe('k');
    expect(listed['HARMLESS']).toBeUndefined();
  });

  it('keeps only the known-safe variables on GitHub Actions, even with redaction off', () => {
    expect(sanitizeEnvironment({ ...host, GITHUB_SHA: 'abc' })).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      GEMINI_CLI_HOME: '/g',
      GIT_CONFIG_COUNT: '1',
    });
  });

  it('names secrets by list and by pattern, in any case', () => {
    expect(isSecretName('database_url')).toBe(true);
    expect(isSecretName('github_token')).toBe(true);
    expect(isSecretName('HOME')).toBe(false);
  });
});
