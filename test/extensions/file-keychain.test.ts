/**
 * gemini-cli 0.61's file keychain (`~/.gemini/gemini-credentials.json`, packages/core/src/services/fileKeychain.ts)
 * as the store of extensions' sensitive settings. A file gemini writes opens only on the host and user that wrote
 * it, so these tests write it the way gemini does (`gemini(…)` below follows fileKeychain.ts step by step) instead
 * of keeping a recorded one. Checked against the real gemini 0.61 on this machine: `GEMINI_FORCE_FILE_STORAGE=true
 * gemini extensions link` (answers typed through `script`) wrote
 * `{"Gemini CLI Extensions kc-ext <sha256 of the link source>": {"__secret__KC_TOKEN": "secret-1"},
 * "gemini-cli-extension-integrity": {…}}`, which the SDK read, and gemini's `extensions list` showed a workspace
 * secret the SDK wrote as `Token: *** (Workspace - Keychain)`.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadExtensionDir, type ExtensionLoadContext } from '../../src/extensions/extension-dir.js';
import {
  KeychainFileError,
  readKeychainFile,
  setKeychainPassword,
} from '../../src/extensions/file-keychain.js';

let base: string;
let cwd: string;
let extensionsDir: string;
let file: string;

const key = () =>
  scryptSync('gemini-cli-oauth', `${hostname()}-${userInfo().username}-gemini-cli`, 32);

/** fileKeychain.ts's saveData: pretty JSON, AES-256-GCM, `iv:tag:cipher` in hex, mode 0600. */
function gemini(data: Record<string, Record<string, string>>, ivLength = 12): void {
  const iv = randomBytes(ivLength);
  const cipher = createCipheriv('aes-256-gcm', key(), iv, { authTagLength: 16 });
  let encrypted = cipher.update(JSON.stringify(data, null, 2), 'utf8', 'hex');
  encrypted += cipher.final('hex');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${encrypted}`, {
    mode: 0o600,
  });
}

/** fileKeychain.ts's loadData. */
function geminiRead(): unknown {
  const [iv, tag, encrypted] = readFileSync(file, 'utf8').split(':') as [string, string, string];
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'hex'), {
    authTagLength: 16,
  });
  decipher.setAuthTag(Buffer.from(tag, 'hex'));
  return JSON.parse(decipher.update(encrypted, 'hex', 'utf8') + decipher.final('utf8'));
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function context(extra: Partial<ExtensionLoadContext> = {}): ExtensionLoadContext {
  return { workspaceDir: cwd, trusted: true, extensionsDir, env: {}, ...extra };
}

/** An installed extension (id: sha256 of its name, as it has no install metadata). */
function writeExtension(): string {
  const dir = join(extensionsDir, 'kc-ext');
  write(join(dir, 'gemini-extension.json'), {
    name: 'kc-ext',
    version: '1.0.0',
    mcpServers: { api: { command: 'node', args: ['server.js'] } },
    settings: [
      { name: 'Token', description: 'A token', envVar: 'KC_TOKEN', sensitive: true },
      { name: 'Secret', description: 'Another', envVar: 'KC_SECRET', sensitive: true },
      { name: 'Region', description: 'The region', envVar: 'KC_REGION' },
    ],
  });
  return dir;
}

const service = `Gemini CLI Extensions kc-ext ${sha256('kc-ext')}`;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'file-keychain-')));
  cwd = join(base, 'proj');
  extensionsDir = join(base, 'home', '.gemini', 'extensions');
  file = join(base, 'home', '.gemini', 'gemini-credentials.json');
  mkdirSync(cwd, { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('sensitive settings from the file keychain', () => {
  it('reads the user and workspace services: keychain over .env in a scope, workspace over user', () => {
    const dir = writeExtension();
    write(join(dir, '.env'), 'KC_REGION=eu\nKC_SECRET=from-env-file\nKC_TOKEN=also-file\n');
    gemini({
      [service]: { __secret__KC_TOKEN: 'user-token', __secret__KC_SECRET: 'user-secret' },
      [`${service} ${cwd}`]: { __secret__KC_TOKEN: 'ws-token' },
      'gemini-cli-extension-integrity': { 'secret-key': 'x' },
    });
    const ext = loadExtensionDir(dir, context({ env: { KC_TOKEN: 'env' } }));
    expect(ext.resolvedSettings.map((s) => [s.envVar, s.value, s.scope, s.source])).toEqual([
      ['KC_TOKEN', 'ws-token', 'workspace', 'Keychain'],
      ['KC_SECRET', 'user-secret', 'user', 'Keychain'],
      ['KC_REGION', 'eu', 'user', join(dir, '.env')],
    ]);
    expect(ext.mcpServers['api']?.env).toEqual({
      KC_TOKEN: 'ws-token',
      KC_SECRET: 'user-secret',
      KC_REGION: 'eu',
    });
    expect(ext.warnings).toEqual([]);

    // An untrusted folder: the workspace service is not read, as the workspace .env is not.
    const untrusted = loadExtensionDir(dir, context({ trusted: false }));
    expect(untrusted.resolvedSettings[0]).toMatchObject({ value: 'user-token', scope: 'user' });
  });

  it('a 16-byte iv is read; an empty secret or one of a non-sensitive setting is not used', () => {
    const dir = writeExtension();
    gemini(
      {
        [service]: { __secret__KC_TOKEN: '', __secret__KC_REGION: 'no', __secret__KC_SECRET: 's' },
      },
      16,
    );
    const ext = loadExtensionDir(dir, context({ env: { KC_TOKEN: 'env' } }));
    expect(ext.resolvedSettings.map((s) => [s.envVar, s.value, s.source])).toEqual([
      ['KC_TOKEN', 'env', 'environment'],
      ['KC_SECRET', 's', 'Keychain'],
      ['KC_REGION', undefined, undefined],
    ]);
  });

  it('the id of a linked extension is the sha256 of its source', () => {
    const src = join(base, 'src');
    write(join(src, 'gemini-extension.json'), {
      name: 'kc-ext',
      version: '1.0.0',
      settings: [{ name: 'Token', description: 't', envVar: 'KC_TOKEN', sensitive: true }],
    });
    write(join(extensionsDir, 'kc-ext', '.gemini-extension-install.json'), {
      source: src,
      type: 'link',
    });
    gemini({
      [service]: { __secret__KC_TOKEN: 'by-name' },
      [`Gemini CLI Extensions kc-ext ${sha256(src)}`]: { __secret__KC_TOKEN: 'by-source' },
    });
    const ext = loadExtensionDir(join(extensionsDir, 'kc-ext'), context());
    expect(ext.resolvedSettings[0]?.value).toBe('by-source');
  });

  it.each([
    ['not encrypted', () => writeFileSync(file, '{"a":1}')],
    [
      'a changed cipher text',
      () => {
        gemini({ [service]: { __secret__KC_TOKEN: 't' } });
        const [iv, tag, text] = readFileSync(file, 'utf8').split(':') as [string, string, string];
        writeFileSync(
          file,
          `${iv}:${tag}:${text.slice(0, -2)}${text.endsWith('00') ? '11' : '00'}`,
        );
      },
    ],
    [
      'another host or user (another key)',
      () => {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', randomBytes(32), iv, { authTagLength: 16 });
        const text = cipher.update('{}', 'utf8', 'hex') + cipher.final('hex');
        writeFileSync(file, `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${text}`);
      },
    ],
    ['a 10-byte iv', () => gemini({ [service]: {} }, 10)],
  ])(
    'a file that cannot be read (%s) is a warning with gemini-cli text; the extension loads',
    (_, make) => {
      const dir = writeExtension();
      mkdirSync(dirname(file), { recursive: true });
      make();
      const ext = loadExtensionDir(dir, context({ env: { KC_TOKEN: 'env' } }));
      expect(ext.name).toBe('kc-ext');
      expect(ext.resolvedSettings[0]).toMatchObject({ value: 'env', source: 'environment' });
      expect(ext.warnings[0]).toBe(
        `Extension "kc-ext": its sensitive settings were not read from gemini-cli's keychain file. ` +
          `Corrupted credentials file detected at: ${file}\nPlease delete or rename this file to resolve the issue.`,
      );
      expect(() => readKeychainFile(file)).toThrow(KeychainFileError);
      try {
        readKeychainFile(file);
      } catch (error) {
        expect((error as KeychainFileError).code).toBe('KEYCHAIN_FILE_CORRUPT');
      }
    },
  );
});

describe('writing the file', () => {
  it('sets and deletes a password as gemini-cli does, keeping the other services; gemini reads it', () => {
    gemini({ 'gemini-cli-extension-integrity': { 'secret-key': 'k' } });
    setKeychainPassword(file, service, '__secret__KC_TOKEN', 'v1');
    setKeychainPassword(file, service, '__secret__KC_SECRET', 'v2');
    expect(geminiRead()).toEqual({
      'gemini-cli-extension-integrity': { 'secret-key': 'k' },
      [service]: { __secret__KC_TOKEN: 'v1', __secret__KC_SECRET: 'v2' },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{24}:[0-9a-f]{32}:[0-9a-f]+$/);

    setKeychainPassword(file, service, '__secret__KC_TOKEN', undefined);
    setKeychainPassword(file, service, '__secret__KC_SECRET', undefined);
    expect(geminiRead()).toEqual({ 'gemini-cli-extension-integrity': { 'secret-key': 'k' } });
    setKeychainPassword(file, 'gemini-cli-extension-integrity', 'secret-key', undefined);
    // The last secret gone: gemini-cli removes the file.
    expect(existsSync(file)).toBe(false);
  });

  it('a file that cannot be read is left as it is and the write fails with KeychainFileError', () => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'garbage');
    expect(() => setKeychainPassword(file, service, '__secret__KC_TOKEN', 'v')).toThrow(
      KeychainFileError,
    );
    expect(readFileSync(file, 'utf8')).toBe('garbage');
  });
});
