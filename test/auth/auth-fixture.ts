import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FakeCodeAssistServer,
  type FakeCodeAssistServerOptions,
} from '../../src/testing/fake-code-assist-server.js';
import {
  FakeGoogleAuthServer,
  type FakeGoogleAuthServerOptions,
} from '../../src/testing/fake-google-auth-server.js';

/** Environment variables that decide auth; every test starts with all of them unset. */
export const AUTH_ENV_VARS = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GEMINI_BASE_URL',
  'GOOGLE_VERTEX_BASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_PROJECT_ID',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_CLOUD_ACCESS_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUD_SHELL',
  'GEMINI_CLI_USE_COMPUTE_ADC',
  'GCE_METADATA_HOST',
  'GCE_METADATA_IP',
  'METADATA_SERVER_DETECTION',
  'CODE_ASSIST_ENDPOINT',
  'CODE_ASSIST_API_VERSION',
  'GEMINI_AGENT_OAUTH_ENDPOINT',
  'GEMINI_FORCE_ENCRYPTED_FILE_STORAGE',
  'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
  'GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
  'GEMINI_CLI_CUSTOM_HEADERS',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'HOME',
  'GEMINI_CLI_HOME',
];

/**
 * Loopback fakes for Google sign-in (OAuth + metadata server) and the Code Assist API, a temp home, and
 * `process.env` set to point at them (google-auth-library and gcp-metadata read `process.env` directly).
 * `dispose()` restores the environment and stops the servers.
 */
export interface AuthFixture {
  auth: FakeGoogleAuthServer;
  codeAssist: FakeCodeAssistServer;
  /** The temp `GEMINI_CLI_HOME` (and `HOME`). */
  home: string;
  /** `<home>/.gemini`. */
  geminiDir: string;
  /** Writes `~/.gemini/oauth_creds.json` (mode 0600). */
  writeCredentials(credentials: Record<string, unknown>): string;
  /** Writes `~/.gemini/settings.json`. */
  writeSettings(settings: Record<string, unknown>): void;
  /** Sets more environment variables (restored by dispose). */
  setEnv(vars: Record<string, string | undefined>): void;
  dispose(): Promise<void>;
}

export async function createAuthFixture(
  options: { auth?: FakeGoogleAuthServerOptions; codeAssist?: FakeCodeAssistServerOptions } = {},
): Promise<AuthFixture> {
  const saved = new Map<string, string | undefined>();
  const setEnv = (vars: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(vars)) {
      if (!saved.has(k)) saved.set(k, process.env[k]);
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  setEnv(Object.fromEntries(AUTH_ENV_VARS.map((k) => [k, undefined])));
  const home = mkdtempSync(join(tmpdir(), 'gemini-auth-test-'));
  const geminiDir = join(home, '.gemini');
  mkdirSync(geminiDir, { recursive: true });
  const auth = new FakeGoogleAuthServer(options.auth);
  await auth.start();
  const codeAssist = new FakeCodeAssistServer({
    authorize: (header) => auth.isAuthorized(header),
    ...options.codeAssist,
  });
  await codeAssist.start();
  setEnv({
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_AGENT_OAUTH_ENDPOINT: auth.baseUrl,
    CODE_ASSIST_ENDPOINT: codeAssist.baseUrl,
    // No machine in CI is a GCE VM, but never let gcp-metadata probe the real link-local address.
    METADATA_SERVER_DETECTION: 'none',
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(home, 'system-settings.json'),
  });
  return {
    auth,
    codeAssist,
    home,
    geminiDir,
    writeCredentials(credentials) {
      const file = join(geminiDir, 'oauth_creds.json');
      writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
      return file;
    },
    writeSettings(settings) {
      writeFileSync(join(geminiDir, 'settings.json'), JSON.stringify(settings, null, 2));
    },
    setEnv,
    async dispose() {
      await Promise.all([auth.close(), codeAssist.close()]);
      for (const [k, v] of saved) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Expired "Login with Google" credentials whose refresh token the fake accepts. */
export function expiredCredentials(
  refreshToken = '1//test-refresh-token-0123456789',
): Record<string, unknown> {
  return {
    access_token: 'ya29.expired-access-token-abcdef',
    refresh_token: refreshToken,
    expiry_date: Date.now() - 60_000,
    token_type: 'Bearer',
    scope: 'https://www.googleapis.com/auth/cloud-platform',
  };
}
