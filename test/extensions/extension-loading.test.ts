/**
 * Loading gemini-cli extension folders (src/extensions/): the manifest's rules and gemini-cli's error texts,
 * variable substitution, `.env` settings, link installs, enablement overrides, `-e`, admin switch-off, policies.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadExtensionDir, type ExtensionLoadContext } from '../../src/extensions/extension-dir.js';
import { ExtensionEnablement } from '../../src/extensions/extension-enablement.js';
import { resolveExtensions } from '../../src/extensions/extension-set.js';
import { hydrateValue, parseDotEnv } from '../../src/extensions/extension-variables.js';
import { extension, extensionDir } from '../../src/index.js';

let root: string;
let extensionsDir: string;
let workspace: string;

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function context(extra: Partial<ExtensionLoadContext> = {}): ExtensionLoadContext {
  return { workspaceDir: workspace, trusted: true, extensionsDir, env: {}, ...extra };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ext-load-'));
  extensionsDir = join(root, 'home', '.gemini', 'extensions');
  workspace = join(root, 'proj');
  mkdirSync(workspace, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('gemini-extension.json', () => {
  it('substitutes ${extensionPath}, ${workspacePath}, ${/}, then $VAR from .env files and the environment', () => {
    const dir = join(extensionsDir, 'vars');
    write(join(dir, 'gemini-extension.json'), {
      name: 'vars',
      version: '1.0.0',
      mcpServers: {
        s: {
          command: 'node',
          args: [
            '${extensionPath}${/}server.js',
            '${workspacePath}',
            '$TOKEN',
            '${MISSING:-fallback}',
            '${unknown}',
          ],
          env: { KEY: '${API_KEY}' },
          trust: true,
        },
      },
      settings: [{ name: 'API key', description: 'key', envVar: 'API_KEY' }],
    });
    write(join(dir, '.env'), 'API_KEY=user-key\nTOKEN="tok en"\n');
    write(join(workspace, '.env'), 'API_KEY=workspace-key\n');
    const ext = loadExtensionDir(dir, context({ env: { TOKEN: 'from-env', HOME: '/h' } }));
    expect(ext.mcpServers['s']).toEqual({
      command: 'node',
      args: [`${dir}${sep}server.js`, workspace, 'tok en', 'fallback', '${unknown}'],
      env: { API_KEY: 'workspace-key', KEY: 'workspace-key' },
    });
    expect(ext.resolvedSettings).toEqual([
      {
        name: 'API key',
        envVar: 'API_KEY',
        value: 'workspace-key',
        sensitive: false,
        scope: 'workspace',
        source: join(workspace, '.env'),
      },
    ]);
    // An untrusted workspace's .env is not read.
    const untrusted = loadExtensionDir(dir, context({ trusted: false }));
    expect(untrusted.resolvedSettings[0]?.value).toBe('user-key');
    expect(untrusted.mcpServers['s']?.env).toEqual({ API_KEY: 'user-key', KEY: 'user-key' });
  });

  it('refuses a missing manifest, bad JSON, a bad name and a missing version with gemini-cli texts', () => {
    const cases: Array<[string, string | object, string]> = [
      ['bad-json', '{ "name": ', 'Failed to load extension config from'],
      [
        'bad-name',
        { name: 'bad name', version: '1' },
        'Invalid extension name: "bad name". Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed.',
      ],
      ['no-version', { name: 'no-version' }, 'missing "version"'],
      ['no-name', { version: '1' }, 'missing "name"'],
      ['array', '[1]', 'expected a JSON object'],
      ['number-version', { name: 'n', version: 3 }, '"version" must be a string'],
    ];
    for (const [name, manifest, text] of cases) {
      write(join(extensionsDir, name, 'gemini-extension.json'), manifest);
      expect(() => loadExtensionDir(join(extensionsDir, name), context())).toThrow(text);
    }
    mkdirSync(join(extensionsDir, 'empty'), { recursive: true });
    expect(() => loadExtensionDir(join(extensionsDir, 'empty'), context())).toThrow(
      'Configuration file not found at',
    );
  });

  it('keeps context files inside the folder: absolute, .. and encoded .. are refused, the extension still loads', () => {
    const dir = join(extensionsDir, 'ctx');
    write(join(dir, 'gemini-extension.json'), {
      name: 'ctx',
      version: '1',
      contextFileName: [
        'A.md',
        '/etc/hostname',
        '../x.md',
        '%2e%2e/y.md',
        'missing.md',
        'sub/B.md',
      ],
    });
    write(join(dir, 'A.md'), 'a');
    write(join(dir, 'sub', 'B.md'), 'b');
    const ext = loadExtensionDir(dir, context());
    expect(ext.contextFiles).toEqual([join(dir, 'A.md'), join(dir, 'sub', 'B.md')]);
    expect(ext.warnings).toEqual([
      '[ExtensionManager] Invalid contextFileName: "/etc/hostname" in extension "ctx". Absolute paths are not allowed.',
      '[ExtensionManager] Invalid contextFileName: "../x.md" in extension "ctx". Relative parent directory references ("..") are not allowed.',
      '[ExtensionManager] Invalid contextFileName: "%2e%2e/y.md" in extension "ctx". Relative parent directory references ("..") are not allowed.',
    ]);
  });

  it('a link install loads the linked folder; hooks.json of the wrong shape is a warning', () => {
    const source = join(root, 'src-ext');
    write(join(source, 'gemini-extension.json'), { name: 'linked', version: '2.0.0' });
    write(join(source, 'GEMINI.md'), 'linked context');
    write(join(source, 'hooks', 'hooks.json'), { hooks: [] });
    write(join(extensionsDir, 'linked', '.gemini-extension-install.json'), {
      source,
      type: 'link',
    });
    const ext = loadExtensionDir(join(extensionsDir, 'linked'), context());
    expect(ext.path).toBe(source);
    expect(ext.contextFiles).toEqual([join(source, 'GEMINI.md')]);
    expect(ext.warnings).toEqual([
      `Invalid hooks configuration in ${join(source, 'hooks', 'hooks.json')}: "hooks" property must be an object`,
    ]);
  });

  it('hooks are hydrated, tagged extensions, and get the settings values in their environment', () => {
    const dir = join(extensionsDir, 'hooked');
    write(join(dir, 'gemini-extension.json'), {
      name: 'hooked',
      version: '1',
      settings: [{ name: 'Level', description: 'd', envVar: 'LEVEL' }],
    });
    write(join(dir, '.env'), 'LEVEL=3\n');
    write(join(dir, 'hooks', 'hooks.json'), {
      hooks: {
        BeforeTool: [
          {
            matcher: 'write_file',
            hooks: [
              {
                type: 'command',
                command: 'node ${extensionPath}${/}h.js ${LEVEL}',
                env: { A: 'b' },
              },
            ],
          },
        ],
        NotAnEvent: [],
      },
    });
    const ext = loadExtensionDir(dir, context());
    expect(ext.commandHooks).toHaveLength(1);
    expect(ext.commandHooks[0]).toMatchObject({
      event: 'BeforeTool',
      source: 'extensions',
      matcher: 'write_file',
      implementation: {
        type: 'command',
        config: { command: `node ${dir}${sep}h.js 3`, env: { A: 'b', LEVEL: '3' } },
      },
    });
    expect(ext.warnings).toEqual([
      'Invalid hook event name: "NotAnEvent" from extensions config. Skipping.',
    ]);
    expect(loadExtensionDir(dir, context({ hooksEnabled: false })).commandHooks).toEqual([]);
  });

  it('policies: extension tier, allow and yolo rules dropped with gemini-cli warnings, a broken file reported', () => {
    const dir = join(extensionsDir, 'pol');
    write(join(dir, 'gemini-extension.json'), { name: 'pol', version: '1' });
    write(
      join(dir, 'policies', 'a.toml'),
      '[[rule]]\ntoolName = "run_shell_command"\ndecision = "deny"\npriority = 10\n\n[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 10\n\n[[rule]]\ntoolName = "read_file"\ndecision = "ask_user"\nmodes = ["yolo"]\npriority = 10\n',
    );
    write(join(dir, 'policies', 'b.toml'), '[[rule]]\ntoolName = 3\n');
    const ext = loadExtensionDir(dir, context());
    expect(ext.policy).toHaveLength(1);
    expect(ext.policy[0]?.origin).toMatchObject({
      tier: 'extension',
      source: `Extension (pol): ${join(dir, 'policies', 'a.toml')}`,
    });
    expect(ext.policy[0]?.rules).toEqual([
      expect.objectContaining({ toolName: 'run_shell_command', decision: 'deny' }),
    ]);
    expect(ext.warnings[0]).toBe(
      '[PolicyConfig] Extension "pol" attempted to contribute an ALLOW rule for tool "glob". Ignoring this rule for security.',
    );
    expect(ext.warnings[1]).toBe(
      '[PolicyConfig] Extension "pol" attempted to contribute a rule for YOLO mode. Ignoring this rule for security.',
    );
    expect(ext.warnings[2]).toContain('[ExtensionManager] Error loading policies from pol:');
  });
});

describe('which extensions run', () => {
  function install(name: string): void {
    write(join(extensionsDir, name, 'gemini-extension.json'), { name, version: '1.0.0' });
  }
  const resolve = (extra: Partial<Parameters<typeof resolveExtensions>[0]> = {}) =>
    resolveExtensions({ references: [], discover: true, ...context(), ...extra });
  const active = (extra = {}) => resolve(extra).active.map((e) => e.name);

  it('skips broken folders with the skipping warning and loads the others; a duplicate name is skipped', () => {
    install('good');
    write(join(extensionsDir, 'broken', 'gemini-extension.json'), '{');
    write(join(root, 'copy', 'gemini-extension.json'), { name: 'good', version: '9' });
    writeFileSync(join(extensionsDir, 'a-file'), 'not a folder');
    const result = resolve({ references: [extensionDir(join(root, 'copy'))] });
    expect(result.active.map((e) => e.version)).toEqual(['1.0.0']);
    expect(result.warnings[0]).toMatch(
      /^Skipping extension in .*broken: Failed to load extension config from /,
    );
    expect(result.warnings[1]).toBe(
      `Skipping extension in ${join(root, 'copy')}: Extension with name good already was loaded.`,
    );
  });

  it('enablement overrides: the last matching rule wins; enable/disable write gemini-cli rules', () => {
    install('alpha');
    const enablement = new ExtensionEnablement(extensionsDir);
    enablement.disable('alpha', root);
    expect(active()).toEqual([]);
    enablement.enable('alpha', workspace);
    expect(active()).toEqual(['alpha']);
    expect(JSON.parse(readFileSync(enablement.file, 'utf8'))).toEqual({
      alpha: { overrides: [`!${root}/*`, `${workspace}/*`] },
    });
    // Disabling the parent again replaces the covered child rule.
    enablement.disable('alpha', root);
    expect(JSON.parse(readFileSync(enablement.file, 'utf8'))).toEqual({
      alpha: { overrides: [`!${root}/*`] },
    });
    expect(active()).toEqual([]);
    enablement.remove('alpha');
    expect(active()).toEqual(['alpha']);
  });

  it('-e picks names case-insensitively, none disables all, unknown names are reported; admin switch-off', () => {
    install('alpha');
    install('beta');
    expect(active({ only: ['BETA'] })).toEqual(['beta']);
    expect(active({ only: ['none'] })).toEqual([]);
    expect(resolve({ only: ['gamma', 'alpha'] }).warnings).toEqual(['Extension not found: gamma']);
    expect(resolve({ adminDisabled: true }).all).toEqual([]);
    // Code extensions always run.
    expect(active({ only: ['none'], references: [extension({ name: 'inline' })] })).toEqual([
      'inline',
    ]);
  });

  it('a malformed enablement file is reported and read as no rules; writing refuses to overwrite it', () => {
    install('alpha');
    write(join(extensionsDir, 'extension-enablement.json'), '{"alpha": {"overrides": "x"}}');
    expect(resolve().warnings).toContain('Failed to read extension enablement config.');
    expect(active()).toEqual(['alpha']);
    expect(() => new ExtensionEnablement(extensionsDir).disable('alpha', root)).toThrow(
      expect.objectContaining({ code: 'EXTENSION_INVALID' }),
    );
  });

  it('security.allowedExtensions and blockGitExtensions are checked before a folder loads, with gemini-cli texts', () => {
    const meta = (name: string, metadata: object) =>
      write(join(extensionsDir, name, '.gemini-extension-install.json'), metadata);
    install('from-org');
    meta('from-org', { source: 'https://github.com/my-org/tools', type: 'git' });
    install('from-else');
    meta('from-else', { source: 'https://gitlab.com/else/tools', type: 'git' });
    install('local-one');
    meta('local-one', { source: join(root, 'src', 'local-one'), type: 'local' });
    install('no-meta');
    const dir = (name: string) => join(extensionsDir, name);

    // gemini-cli matches the resolved form of the source: a remote URL becomes <cwd>/https:/github.com/...
    const anchored = resolve({ security: { allowedExtensions: ['^https://github\\.com/'] } });
    expect(anchored.active).toEqual([]);
    const allowed = resolve({
      security: { allowedExtensions: ['github\\.com/my-org/', 'local-'] },
    });
    expect(allowed.active.map((e) => e.name)).toEqual(['from-org', 'local-one']);
    expect(allowed.warnings).toEqual([
      `Failed to load extension ${dir('from-else')}. This extension is not allowed by the "allowedExtensions" security setting.`,
      `Failed to load extension ${dir('no-meta')}. The .gemini-extension-install.json file is missing or misconfigured.`,
    ]);
    // An extensionDir() folder without metadata is matched by its own path.
    write(join(root, 'mine', 'gemini-extension.json'), { name: 'mine', version: '1.0.0' });
    const withRef = resolve({
      discover: false,
      references: [extensionDir(join(root, 'mine'))],
      security: { allowedExtensions: [`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/mine$`] },
    });
    expect(withRef.active.map((e) => e.name)).toEqual(['mine']);

    const blocked = resolve({ security: { blockGitExtensions: true } });
    expect(blocked.active.map((e) => e.name)).toEqual(['local-one', 'no-meta']);
    expect(blocked.warnings).toEqual([
      `Failed to load extension ${dir('from-else')}. Extensions from remote sources is disallowed by your current settings.`,
      `Failed to load extension ${dir('from-org')}. Extensions from remote sources is disallowed by your current settings.`,
    ]);
    // allowedExtensions set: blockGitExtensions is not consulted (gemini-cli's else-branch).
    expect(
      resolve({ security: { allowedExtensions: ['my-org'], blockGitExtensions: true } }).active.map(
        (e) => e.name,
      ),
    ).toEqual(['from-org']);
    const bad = resolve({ security: { allowedExtensions: ['('] } });
    expect(bad.active).toEqual([]);
    expect(bad.warnings[0]).toMatch(
      /^Invalid regex pattern in allowedExtensions setting: "\(\. Error: Invalid regular expression/,
    );
  });

  it('rejects option entries that are not extensions', () => {
    expect(() => resolve({ references: [{ name: 'x' }] as never })).toThrow(
      'extensions[0] is not an extension: make it with extension({ name, ... }) or extensionDir(path).',
    );
  });
});

describe('extension()', () => {
  it('checks the name and each part', () => {
    expect(() => extension({ name: 'has space' })).toThrow('Invalid extension name: "has space"');
    expect(() => extension({ name: 'ok', tools: 'x' as never })).toThrow(
      'Extension "ok": tools must be an array.',
    );
    expect(() => extension({ name: 'ok', hooks: [{}] as never })).toThrow(
      'hooks must be an array of hooks made with hook()',
    );
    expect(() => extension({ name: 'ok', excludeTools: [1] as never })).toThrow(
      'excludeTools must be an array of strings',
    );
    expect(extension({ name: 'ok' })).toMatchObject({
      type: 'extension',
      name: 'ok',
      version: '0.0.0',
    });
    expect(() => extensionDir('')).toThrow('extensionDir() takes the path of an extension folder.');
  });
});

describe('variables and .env', () => {
  it('parses .env as dotenv does', () => {
    expect(
      parseDotEnv(
        '# c\nA=1\nexport B = two words \nC="x\\ny"\nD=\'q # not comment\'\nE=v # comment\n__proto__=p\nA=again\n',
      ),
    ).toEqual({ A: 'again', B: 'two words', C: 'x\ny', D: 'q # not comment', E: 'v' });
  });

  it('drops __proto__, constructor and prototype keys while hydrating', () => {
    const value = JSON.parse(
      '{"a":"${x}","__proto__":{"polluted":true},"nested":{"constructor":1,"b":"${y}"}}',
    );
    const out = hydrateValue(value, { x: 'X' }) as Record<string, unknown>;
    expect(out).toEqual({ a: 'X', nested: { b: '${y}' } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
