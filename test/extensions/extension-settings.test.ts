/**
 * Extension settings (`settings` in gemini-extension.json) as gemini-cli 0.61 resolves them: `.env` values (the
 * workspace's over the extension's), an empty value counting as set, sensitive values (gemini-cli's keychain file: see
 * file-keychain.test.ts; else the environment, else reported), the values in MCP servers and command hooks, and the missing-settings
 * warning after an install or update (gemini 0.61's text, recorded from `gemini extensions install --skip-settings`).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadExtensionDir, type ExtensionLoadContext } from '../../src/extensions/extension-dir.js';
import { ExtensionManager } from '../../src/extensions/extension-manager.js';
import { loadSettings } from '../../src/settings/load-settings.js';

let base: string;
let home: string;
let cwd: string;
let extensionsDir: string;

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function context(extra: Partial<ExtensionLoadContext> = {}): ExtensionLoadContext {
  return { workspaceDir: cwd, trusted: true, extensionsDir, env: {}, ...extra };
}

const SETTINGS = [
  { name: 'API key', description: 'Your key', envVar: 'NK_API_KEY' },
  { name: 'Token', description: 'A token', envVar: 'NK_TOKEN', sensitive: true },
];

/** A folder with both settings, an MCP server and a command hook that use them. */
function writeExtension(dir: string, name = 'needs-key'): void {
  write(join(dir, 'gemini-extension.json'), {
    name,
    version: '1.0.0',
    mcpServers: { api: { command: 'node', args: ['server.js'], env: { EXTRA: '1' } } },
    settings: SETTINGS,
  });
  write(join(dir, 'hooks', 'hooks.json'), {
    hooks: {
      BeforeTool: [{ hooks: [{ type: 'command', command: 'echo ${NK_TOKEN} ${NK_API_KEY}' }] }],
    },
  });
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ext-settings-')));
  home = join(base, 'home');
  cwd = join(base, 'proj');
  extensionsDir = join(home, '.gemini', 'extensions');
  mkdirSync(cwd, { recursive: true });
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('settings values', () => {
  it('a sensitive value in a .env file is used as gemini-cli reads it; an empty value counts as set', () => {
    const dir = join(extensionsDir, 'needs-key');
    writeExtension(dir);
    write(join(dir, '.env'), 'NK_API_KEY=\nNK_TOKEN=from-file\n');
    const ext = loadExtensionDir(dir, context());
    expect(ext.resolvedSettings.map((s) => [s.envVar, s.value, s.scope])).toEqual([
      ['NK_API_KEY', '', 'user'],
      ['NK_TOKEN', 'from-file', 'user'],
    ]);
    expect(ext.mcpServers['api']?.env).toEqual({
      NK_API_KEY: '',
      NK_TOKEN: 'from-file',
      EXTRA: '1',
    });
    expect(ext.warnings).toEqual([]);
  });

  it('a sensitive value found in no .env file is taken from the environment, into servers, hooks and ${VAR}', () => {
    const dir = join(extensionsDir, 'needs-key');
    writeExtension(dir);
    write(join(dir, '.env'), 'NK_API_KEY=k1\n');
    // A non-sensitive setting is never read from the environment (gemini-cli reads only its .env files).
    const ext = loadExtensionDir(
      dir,
      context({ env: { NK_TOKEN: 'from-env', NK_API_KEY: 'env-key' } }),
    );
    expect(ext.resolvedSettings[0]).toMatchObject({ value: 'k1', scope: 'user' });
    expect(ext.resolvedSettings[1]).toEqual({
      name: 'Token',
      envVar: 'NK_TOKEN',
      value: 'from-env',
      sensitive: true,
      scope: undefined,
      source: 'environment',
    });
    // In the server's own env, so the redaction of secret-looking host variables does not drop it.
    expect(ext.mcpServers['api']?.env).toEqual({
      NK_API_KEY: 'k1',
      NK_TOKEN: 'from-env',
      EXTRA: '1',
    });
    expect(ext.commandHooks[0]?.implementation).toEqual({
      type: 'command',
      config: expect.objectContaining({
        command: 'echo from-env k1',
        env: { NK_API_KEY: 'k1', NK_TOKEN: 'from-env' },
      }) as unknown,
    });
    expect(ext.warnings).toEqual([]);
  });

  it('a sensitive value found nowhere is reported, and the extension still loads', () => {
    const dir = join(extensionsDir, 'needs-key');
    writeExtension(dir);
    write(join(dir, '.env'), 'NK_API_KEY=k1\n');
    const ext = loadExtensionDir(dir, context());
    expect(ext.resolvedSettings[1]?.value).toBeUndefined();
    expect(ext.mcpServers['api']?.env).toEqual({ NK_API_KEY: 'k1', EXTRA: '1' });
    expect(ext.commandHooks[0]?.implementation).toMatchObject({
      config: { command: 'echo ${NK_TOKEN} k1' },
    });
    expect(ext.warnings).toEqual([
      'Extension "needs-key": the sensitive setting "Token" (NK_TOKEN) has no value. gemini-agent-sdk reads ' +
        `sensitive values from gemini-cli's keychain file (${join(home, '.gemini', 'gemini-credentials.json')}), ` +
        'not from the OS keychain: store it there with "gemini-agent extensions config needs-key NK_TOKEN", ' +
        'or set NK_TOKEN in the environment.',
    ]);
    // experimental.extensionConfig: false reads no settings at all, so there is nothing to report.
    expect(loadExtensionDir(dir, context({ settingsEnabled: false })).warnings).toEqual([]);
  });
});

describe('missing settings after install and update', () => {
  const manager = (env: NodeJS.ProcessEnv = {}) => {
    const full = { GEMINI_CLI_HOME: home, HOME: home, PATH: process.env['PATH'], ...env };
    return new ExtensionManager({ cwd, settings: loadSettings({ cwd, env: full }), env: full });
  };

  it('install and link report the settings without a value with gemini-cli 0.61 text', async () => {
    const src = join(base, 'src');
    writeExtension(src);
    const warnings: string[] = [];
    await manager().install(src, { consent: () => true, onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual([
      'Extension "needs-key" has missing settings: API key, Token. Please run "gemini extensions config ' +
        'needs-key [setting-name]" to configure them.',
    ]);
    await manager().uninstall('needs-key');

    // The workspace's .env (trusted folder) and a sensitive value in the environment satisfy both.
    write(join(cwd, '.env'), 'NK_API_KEY=ws\n');
    warnings.length = 0;
    await manager({ NK_TOKEN: 't' }).link(src, {
      consent: () => true,
      onWarning: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([]);
  });

  it('update reports a setting the new version added', async () => {
    const src = join(base, 'src');
    write(join(src, 'gemini-extension.json'), {
      name: 'grows',
      version: '1.0.0',
      settings: [SETTINGS[0]],
    });
    await manager().install(src, { consent: () => true });
    write(join(extensionsDir, 'grows', '.env'), 'NK_API_KEY=kept\n');
    write(join(src, 'gemini-extension.json'), {
      name: 'grows',
      version: '1.1.0',
      settings: [SETTINGS[0], { name: 'Region', description: 'r', envVar: 'NK_REGION' }],
    });
    const warnings: string[] = [];
    const info = await manager().update('grows', {
      consent: () => true,
      onWarning: (m) => warnings.push(m),
    });
    expect(info.updatedVersion).toBe('1.1.0');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Extension "grows" has missing settings: Region\. /);
  });

  it('update asks only for the settings the new version adds or changes, and drops removed ones', async () => {
    const src = join(base, 'src');
    write(join(src, 'gemini-extension.json'), {
      name: 'grows',
      version: '1.0.0',
      settings: [SETTINGS[0], { name: 'Old', description: 'o', envVar: 'NK_OLD' }],
    });
    const asked: string[] = [];
    const answer = (value: string) => (setting: { envVar: string }) => {
      asked.push(setting.envVar);
      return value;
    };
    await manager().install(src, { consent: () => true, requestSetting: answer('v1') });
    expect(asked).toEqual(['NK_API_KEY', 'NK_OLD']);
    const envFile = join(extensionsDir, 'grows', '.env');
    expect(readFileSync(envFile, 'utf8')).toBe('NK_API_KEY=v1\nNK_OLD=v1\n');

    // 1.1.0: NK_OLD removed, NK_TOKEN added (sensitive), NK_API_KEY kept.
    write(join(src, 'gemini-extension.json'), {
      name: 'grows',
      version: '1.1.0',
      settings: [SETTINGS[0], SETTINGS[1]],
    });
    asked.length = 0;
    const warnings: string[] = [];
    await manager().update('grows', {
      consent: () => true,
      requestSetting: answer('tok'),
      onWarning: (m) => warnings.push(m),
    });
    expect(asked).toEqual(['NK_TOKEN']);
    expect(readFileSync(envFile, 'utf8')).toBe('NK_API_KEY=v1\n');
    const ext = new ExtensionManager({
      cwd,
      settings: loadSettings({ cwd, env: { GEMINI_CLI_HOME: home } }),
      env: { GEMINI_CLI_HOME: home },
    })
      .loadInstalled()
      .extensions.find((e) => e.name === 'grows');
    expect(ext?.resolvedSettings.map((s) => [s.envVar, s.value, s.source])).toEqual([
      ['NK_API_KEY', 'v1', envFile],
      ['NK_TOKEN', 'tok', 'Keychain'],
    ]);
    expect(warnings).toEqual([]);
  });
});
