import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeCodeAssistServer } from '../../src/testing/fake-code-assist-server.js';
import { FakeGoogleAuthServer } from '../../src/testing/fake-google-auth-server.js';
import { textTurn } from '../../src/testing/index.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

let project: TempProject;
let auth: FakeGoogleAuthServer;
let codeAssist: FakeCodeAssistServer;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  auth = new FakeGoogleAuthServer({ email: 'cli@example.com' });
  await auth.start();
  codeAssist = new FakeCodeAssistServer({
    authorize: (h) => auth.isAuthorized(h),
    loadCodeAssist: {
      currentTier: { id: 'free-tier', name: 'Gemini Code Assist for individuals' },
      cloudaicompanionProject: 'managed-7',
    },
  });
  await codeAssist.start();
});
afterEach(async () => {
  await Promise.all([auth.close(), codeAssist.close()]);
  await project.cleanup();
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return cleanEnv(project, {
    GEMINI_AGENT_OAUTH_ENDPOINT: auth.baseUrl,
    CODE_ASSIST_ENDPOINT: codeAssist.baseUrl,
    METADATA_SERVER_DETECTION: 'none',
    ...extra,
  });
}

/** A `$BROWSER` that does what the user's browser does: follow the consent page back to the loopback server. */
function fakeBrowser(): string {
  const file = join(project.home, 'browser.mjs');
  writeFileSync(
    file,
    `#!${process.execPath}
const consent = await fetch(process.argv[2], { redirect: 'manual' });
await fetch(consent.headers.get('location'), { redirect: 'manual' });
`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe('gemini-agent login', () => {
  it('the browser flow signs in through the loopback redirect, checks Code Assist, and the next prompt uses it', async () => {
    const result = await runCli(['login', '--browser'], {
      cwd: project.cwd,
      env: env({ BROWSER: fakeBrowser() }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Otherwise navigate to:');
    expect(result.stdout).toContain('Authentication succeeded: signed in as cli@example.com.');
    expect(result.stdout).toContain(
      'Gemini Code Assist: Gemini Code Assist for individuals (free-tier).',
    );
    const credentials = join(project.home, '.gemini', 'oauth_creds.json');
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(credentials, 'utf8')) as Record<string, string>;
    expect(result.stdout).not.toContain(saved['refresh_token']);
    expect(result.stdout).not.toContain(saved['access_token']);

    codeAssist.enqueue(textTurn('Signed-in answer'));
    const prompt = await runCli(['-p', 'hello'], {
      cwd: project.cwd,
      env: env({ GOOGLE_GENAI_USE_GCA: 'true' }),
    });
    expect(prompt.stderr).toBe('');
    expect(prompt.stdout).toBe('Signed-in answer\n');
  });

  it('--no-browser prints the URL and reads the pasted code', async () => {
    const result = await runCli(['login', '--no-browser', '--skip-setup'], {
      cwd: project.cwd,
      env: env(),
      input: 'fake-auth-code\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Please visit the following URL to authorize the application:');
    expect(result.stdout).toContain('Enter the authorization code: ');
    expect(result.stdout).toContain('signed in as cli@example.com');
    expect(codeAssist.requests).toHaveLength(0);
    expect(auth.requests.find((r) => r.path === '/token')?.form['redirect_uri']).toBe(
      'https://codeassist.google.com/authcode',
    );
  });

  it('a wrong code exits with the auth exit code (41); logout deletes the credentials', async () => {
    const wrong = await runCli(['login', '--no-browser'], {
      cwd: project.cwd,
      env: env(),
      input: 'bogus\n',
    });
    expect(wrong.code).toBe(41);
    expect(wrong.stderr).toContain('Failed to authenticate with authorization code: invalid_grant');
    await runCli(['login', '--no-browser', '--skip-setup'], {
      cwd: project.cwd,
      env: env(),
      input: 'fake-auth-code\n',
    });
    const out = await runCli(['logout'], { cwd: project.cwd, env: env() });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Signed out');
    const usage = await runCli(['login', '--browser', '--no-browser'], {
      cwd: project.cwd,
      env: env(),
    });
    expect(usage.code).toBe(42);
  });
});
