import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveFolderTrust } from './folder-trust.js';
import { loadSettings, type LoadSettingsOptions } from './load-settings.js';
import { SettingsFileError } from './settings-errors.js';

let root: string;
let home: string;
let cwd: string;
let env: Record<string, string>;

const write = (path: string, content: string | object): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
};
const userFile = (): string => join(home, '.gemini', 'settings.json');
const workspaceFile = (): string => join(cwd, '.gemini', 'settings.json');
// The temp folders sit under the world-writable temp dir, where gemini-cli's system-file check skips every file.
const load = (extra: Partial<LoadSettingsOptions> = {}) =>
  loadSettings({ cwd, home, env, checkSystemFiles: false, ...extra });

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'settings-')));
  home = join(root, 'home');
  cwd = join(root, 'proj');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home, { recursive: true });
  env = {
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'etc', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'etc', 'system-defaults.json'),
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const trust = (): void =>
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });

describe('loadSettings', () => {
  it('gives gemini-cli defaults when no file exists', () => {
    const loaded = load();
    expect(loaded.merged.model?.maxSessionTurns).toBe(-1);
    expect(loaded.merged.context?.discoveryMaxDirs).toBe(200);
    expect(loaded.merged.security?.folderTrust?.enabled).toBe(true);
    expect(loaded.files.map((f) => [f.scope, f.exists])).toEqual([
      ['systemDefaults', false],
      ['user', false],
      ['workspace', false],
      ['system', false],
    ]);
    expect(loaded.trust).toMatchObject({ trusted: false, source: 'none' });
  });

  it('merges system defaults < user < workspace (trusted) < system', () => {
    trust();
    write(env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] as string, {
      model: { name: 'from-defaults', maxSessionTurns: 7 },
      tools: { exclude: ['a'] },
    });
    write(userFile(), { model: { name: 'from-user' }, tools: { exclude: ['b'] } });
    write(workspaceFile(), {
      model: { name: 'from-workspace' },
      tools: { exclude: ['c'] },
      context: { fileName: ['AGENTS.md', 'GEMINI.md'] },
    });
    let merged = load().merged;
    expect(merged.model).toMatchObject({ name: 'from-workspace', maxSessionTurns: 7 });
    expect(merged.tools?.exclude).toEqual(['a', 'b', 'c']);
    expect(merged.context?.fileName).toEqual(['AGENTS.md', 'GEMINI.md']);
    write(env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'] as string, { model: { name: 'from-system' } });
    merged = load().merged;
    expect(merged.model?.name).toBe('from-system');
  });

  it.skipIf(process.platform === 'win32')(
    "skips system files in a folder others can write to, with gemini-cli 0.61's warning",
    () => {
      const systemFile = env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'] as string;
      const defaultsFile = env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] as string;
      write(systemFile, { model: { name: 'from-system' } });
      write(defaultsFile, { model: { name: 'from-defaults' } });
      write(userFile(), { model: { name: 'from-user' } });
      const etc = dirname(systemFile);
      chmodSync(etc, 0o777);
      const logged: string[] = [];
      const loaded = load({
        checkSystemFiles: true,
        logger: { debug() {}, info() {}, warn: (m) => logged.push(m), error() {} },
      });
      expect(loaded.merged.model?.name).toBe('from-user');
      expect(loaded.files.map((f) => [f.scope, f.skipped])).toEqual([
        ['systemDefaults', 'insecure'],
        ['user', undefined],
        ['workspace', 'untrusted'],
        ['system', 'insecure'],
      ]);
      const uid = process.getuid?.() ?? -1;
      const reason =
        `Parent directory '${etc}' is insecure: ` +
        (uid === 0
          ? `Directory '${etc}' is writable by group or others (mode: 40777). To fix this, run: sudo chmod g-w,o-w "${etc}"`
          : `Directory '${etc}' is not owned by root (uid 0). Current uid: ${uid}. To fix this, run: sudo chown root:root "${etc}"`);
      const expected = [
        `Security Warning: Skipping system defaults file '${defaultsFile}': ${reason}`,
        `Security Warning: Skipping system settings file '${systemFile}': ${reason}`,
      ];
      expect(loaded.warnings.map((w) => w.message)).toEqual(expected);
      expect(logged).toEqual(expected);
      // Without the check (and in a folder only root controls) the same files apply.
      expect(load().merged.model?.name).toBe('from-system');
    },
  );

  it('ignores workspace settings in an untrusted folder, and trusts when folder trust is off', () => {
    write(userFile(), { model: { name: 'user' } });
    write(workspaceFile(), { model: { name: 'workspace' } });
    const untrusted = load();
    expect(untrusted.merged.model?.name).toBe('user');
    expect(untrusted.files[2]).toMatchObject({ scope: 'workspace', skipped: 'untrusted' });

    expect(load({ trustWorkspace: true }).merged.model?.name).toBe('workspace');
    expect(load({ env: { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' } }).trust.source).toBe('env');

    write(userFile(), { model: { name: 'user' }, security: { folderTrust: { enabled: false } } });
    const disabled = load();
    expect(disabled.trust).toEqual({ trusted: true, source: 'disabled' });
    expect(disabled.merged.model?.name).toBe('workspace');
  });

  it('a workspace cannot switch folder trust off for itself', () => {
    write(workspaceFile(), {
      security: { folderTrust: { enabled: false } },
      model: { name: 'evil' },
    });
    const loaded = load();
    expect(loaded.trust.trusted).toBe(false);
    expect(loaded.merged.model?.name).toBeUndefined();
  });

  it('expands environment variables in values', () => {
    write(userFile(), { model: { name: '${MY_MODEL:-fallback}' }, context: { fileName: '$CTX' } });
    const loaded = load({ env: { ...env, CTX: 'AGENTS.md' } });
    expect(loaded.merged.model?.name).toBe('fallback');
    expect(loaded.merged.context?.fileName).toBe('AGENTS.md');
  });

  it('warns about unknown keys and wrong types with file and line, and keeps the rest', () => {
    write(
      userFile(),
      '{\n  "model": {\n    "name": "m",\n    "nmae": "typo",\n    "maxSessionTurns": "lots"\n  },\n' +
        '  "tools": { "exclude": ["a", 3] },\n  "general": { "vimMode": true },\n  "totallyNew": 1,\n' +
        '  "mcpServers": { "s": { "command": "x", "anything": 1 } },\n  "security": { "folderTrust": { "enabled": "false" } }\n}\n',
    );
    const logged: string[] = [];
    const loaded = load({
      logger: { debug() {}, info() {}, warn: (m) => logged.push(m), error() {} },
    });
    const file = userFile();
    expect(loaded.warnings.map((w) => w.message)).toEqual([
      `${file}:4: "model.nmae" is not a gemini-cli setting; it is ignored.`,
      `${file}:9: "totallyNew" is not a gemini-cli setting; it is ignored.`,
      `${file}:5: "model.maxSessionTurns" must be a number; the value is ignored.`,
      `${file}:7: "tools.exclude[1]" must be a string; the value is ignored.`,
    ]);
    expect(logged).toHaveLength(4);
    expect(loaded.merged.model).toMatchObject({ name: 'm', maxSessionTurns: -1 });
    expect(loaded.merged.tools?.exclude).toEqual(['a']);
    expect(loaded.merged.mcpServers?.['s']).toMatchObject({ command: 'x', anything: 1 });
    expect(loaded.merged.security?.folderTrust?.enabled).toBe(false);
  });

  it('fails on malformed JSON naming the file and line', () => {
    write(userFile(), '{\n  "model": { "name": "m" },\n}\n');
    expect(() => load()).toThrow(SettingsFileError);
    expect(() => load()).toThrow(`${userFile()} at line 3, column 1: trailing comma`);
    write(userFile(), '[1, 2]');
    expect(() => load()).toThrow('Settings file is not a valid JSON object');
    expect(load({ sources: ['system', 'workspace'] }).files[1]).toMatchObject({
      skipped: 'source-off',
    });
  });

  it('reads only the requested sources', () => {
    trust();
    write(userFile(), { model: { name: 'user' } });
    write(workspaceFile(), { context: { fileName: 'W.md' } });
    const loaded = load({ sources: ['workspace'] });
    expect(loaded.merged.model?.name).toBeUndefined();
    expect(loaded.merged.context?.fileName).toBe('W.md');
    expect(load({ sources: [] }).files.every((f) => f.skipped === 'source-off')).toBe(true);
  });

  it('does not read the user file twice when cwd is the home folder', () => {
    write(userFile(), { tools: { exclude: ['a'] } });
    const loaded = loadSettings({ cwd: home, home, env, trustWorkspace: true });
    expect(loaded.merged.tools?.exclude).toEqual(['a']);
    expect(loaded.files[2]).toMatchObject({ skipped: 'home-workspace' });
  });

  it('ignores admin settings in files (they come from remote admin controls only)', () => {
    write(userFile(), { admin: { secureModeEnabled: true } });
    expect(load().merged.admin?.secureModeEnabled).toBe(false);
  });
});

describe('resolveFolderTrust (gemini-cli 0.61)', () => {
  const rules = (value: object | string): void =>
    write(
      join(home, '.gemini', 'trustedFolders.json'),
      typeof value === 'string' ? value : JSON.stringify(value),
    );
  const trusted = (folder: string, extra: Record<string, string> = {}): boolean =>
    resolveFolderTrust({ folder, home, env: { ...env, ...extra } }).trusted;

  it('applies TRUST_FOLDER, TRUST_PARENT and DO_NOT_TRUST with the longest match winning', () => {
    mkdirSync(join(cwd, 'sub', 'deep'), { recursive: true });
    expect(trusted(cwd)).toBe(false);
    rules({ [cwd]: 'TRUST_FOLDER' });
    expect(trusted(join(cwd, 'sub'))).toBe(true);
    expect(trusted(root)).toBe(false);
    rules({ [join(root, 'sibling')]: 'TRUST_PARENT' });
    expect(trusted(cwd)).toBe(true);
    rules({ [cwd]: 'TRUST_FOLDER', [join(cwd, 'sub')]: 'DO_NOT_TRUST' });
    expect(trusted(join(cwd, 'sub', 'deep'))).toBe(false);
    expect(trusted(cwd)).toBe(true);
  });

  it('honours GEMINI_CLI_TRUST_WORKSPACE, GEMINI_RESTRICTED_MODE, the override and a custom file path', () => {
    rules({ [cwd]: 'TRUST_FOLDER' });
    expect(trusted(cwd, { GEMINI_CLI_TRUST_WORKSPACE: 'false' })).toBe(false);
    expect(trusted(cwd, { GEMINI_RESTRICTED_MODE: 'true' })).toBe(false);
    expect(trusted(root, { GEMINI_CLI_TRUST_WORKSPACE: 'true' })).toBe(true);
    expect(resolveFolderTrust({ folder: cwd, home, env, override: false })).toEqual({
      trusted: false,
      source: 'option',
    });
    const custom = join(root, 'custom.json');
    write(custom, `{\n  // mine\n  "${root}": "TRUST_FOLDER"\n}`);
    expect(trusted(root, { GEMINI_CLI_TRUSTED_FOLDERS_PATH: custom })).toBe(true);
  });

  it('fails on a malformed file or an unknown trust level, naming the file', () => {
    rules({ [cwd]: 'TRUST_EVERYTHING' });
    expect(() => trusted(cwd)).toThrow(/Invalid trust level "TRUST_EVERYTHING".*TRUST_FOLDER/);
    rules('not json');
    expect(() => trusted(cwd)).toThrow(/trustedFolders\.json at line 1/);
    // Folder trust off: the file is not even read.
    expect(resolveFolderTrust({ folder: cwd, home, env, enabled: false }).trusted).toBe(true);
  });
});
