/**
 * ExtensionManager and the folder helpers through the public API: templates that load, validation errors,
 * consent text hygiene, the security settings, links and uninstalls, and agent.extensions().
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadExtensionDir } from '../../src/extensions/extension-dir.js';
import {
  createExtensionFolder,
  EXTENSION_TEMPLATES,
  extension,
  extensionDir,
  ExtensionManager,
  GeminiCliAgent,
  loadSettings,
  validateExtensionFolder,
} from '../../src/index.js';

let base: string;
let home: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function manager(settings: object = {}): ExtensionManager {
  write(join(home, '.gemini', 'settings.json'), settings);
  return new ExtensionManager({ cwd, settings: loadSettings({ cwd, env }), env });
}

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ext-manager-')));
  home = join(base, 'home');
  cwd = join(base, 'proj');
  mkdirSync(cwd, { recursive: true });
  env = { GEMINI_CLI_HOME: home, HOME: home, PATH: process.env['PATH'] };
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('extension folders', () => {
  it('every template validates and loads with its part', async () => {
    for (const template of EXTENSION_TEMPLATES) {
      const dir = join(base, `t-${template}`);
      await createExtensionFolder(dir, template);
      expect(validateExtensionFolder(dir, cwd), template).toEqual({
        name: `t-${template}`,
        warnings: [],
        errors: [],
      });
      const ext = loadExtensionDir(dir, {
        workspaceDir: cwd,
        trusted: true,
        extensionsDir: join(home, 'x'),
      });
      const part = {
        context: ext.contextFiles.length,
        'exclude-tools': ext.excludeTools.length,
        hooks: ext.commandHooks.length,
        'mcp-server': Object.keys(ext.mcpServers).length,
        policies: ext.policy.reduce((n, p) => n + p.rules.length, 0),
        skills: ext.skills ? 1 : 0,
      }[template];
      expect(part, template).toBe(1);
      expect(ext.warnings, template).toEqual([]);
    }
    await expect(createExtensionFolder(join(base, 't-context'))).rejects.toThrow(
      'Path already exists:',
    );
    await expect(createExtensionFolder(join(base, 'x'), 'nope')).rejects.toThrow(
      'Unknown template "nope"',
    );
  });

  it('validate reports bad and missing context files and a version that is not semver', () => {
    const dir = join(base, 'v');
    write(join(dir, 'gemini-extension.json'), {
      name: 'v',
      version: 'one',
      contextFileName: ['../up.md', 'gone.md'],
    });
    expect(validateExtensionFolder(dir, cwd)).toEqual({
      name: 'v',
      warnings: ["Warning: Version 'one' does not appear to be standard semver (e.g., 1.0.0)."],
      errors: [
        'Invalid context file path: "../up.md". Relative parent directory references ("..") are not allowed.',
        'The following context files referenced in gemini-extension.json are missing: gone.md',
      ],
    });
  });
});

describe('ExtensionManager', () => {
  it('shows the consent text without terminal control characters, and refuses without consent', async () => {
    const src = join(base, 'src');
    write(join(src, 'gemini-extension.json'), {
      name: 'shady',
      version: '1.0.0',
      mcpServers: { s: { command: 'node\u001b[2J', args: ['x\u0007'] } },
    });
    let shown = '';
    await expect(
      manager().install(src, {
        consent: (text) => {
          shown = text;
          return false;
        },
      }),
    ).rejects.toThrow('Installation cancelled for "shady".');
    expect(shown).toContain('  * s (local): node[2J x');
    expect([...shown].filter((c) => [0x07, 0x1b, 0x7f].includes(c.charCodeAt(0)))).toEqual([]);
    await expect(manager().install(src)).rejects.toThrow('Installation cancelled for "shady".');
    expect(existsSync(join(home, '.gemini', 'extensions', 'shady'))).toBe(false);
  });

  it('honours security.allowedExtensions and blockGitExtensions', async () => {
    const src = join(base, 'src');
    write(join(src, 'gemini-extension.json'), { name: 'ok', version: '1.0.0' });
    await expect(
      manager({ security: { allowedExtensions: ['^/nowhere/'] } }).install(src, {
        consent: () => true,
      }),
    ).rejects.toThrow(
      `Installing extension from source "${src}" is not allowed by the "allowedExtensions" security setting.`,
    );
    await expect(
      manager({ security: { blockGitExtensions: true } }).install('https://example.com/x.git', {
        consent: () => true,
      }),
    ).rejects.toThrow(
      'Installing extensions from remote sources is disallowed by your current settings.',
    );
    // As gemini-cli: the URL is matched in its path.resolve() form, so ^https:// never matches…
    await expect(
      manager({ security: { allowedExtensions: ['^https://github\\.com/'] } }).install(
        'https://github.com/org/x',
        { consent: () => true },
      ),
    ).rejects.toThrow(
      'Installing extension from source "https://github.com/org/x" is not allowed by the "allowedExtensions" security setting.',
    );
    // …and a local source is matched by its real path; allowedExtensions set skips blockGitExtensions.
    const allowedLocal = await manager({
      security: { allowedExtensions: ['/src$'], blockGitExtensions: true },
    }).install(src, { consent: () => true });
    expect(allowedLocal.name).toBe('ok');
    await expect(
      manager({ security: { allowedExtensions: ['['] } }).install(src, { consent: () => true }),
    ).rejects.toThrow('Invalid regex pattern in allowedExtensions setting: "[. Error: ');
    await expect(
      manager({ security: { blockGitExtensions: true } }).install('github:org/x', {
        consent: () => true,
      }),
    ).rejects.toThrow('Installing extensions from remote sources is disallowed');
    await expect(manager().install(join(base, 'missing'), { consent: () => true })).rejects.toThrow(
      'Install source not found.',
    );
  });

  it('a link loads live from its folder; uninstalling it keeps the folder', async () => {
    const src = join(base, 'live');
    write(join(src, 'gemini-extension.json'), { name: 'live', version: '1.0.0' });
    const linked = await manager().link(src, { consent: () => true });
    expect(linked).toMatchObject({
      name: 'live',
      path: src,
      installMetadata: { source: src, type: 'link' },
    });
    write(join(src, 'gemini-extension.json'), {
      name: 'live',
      version: '1.1.0',
      excludeTools: ['glob'],
    });
    expect((await manager().list())[0]).toMatchObject({ version: '1.1.0', excludeTools: ['glob'] });
    expect(await manager().uninstall(src.toUpperCase())).toBe('live');
    expect(existsSync(join(src, 'gemini-extension.json'))).toBe(true);
    expect(await manager().list()).toEqual([]);
    await expect(manager().uninstall('live')).rejects.toThrow('Extension not found.');
    expect(() => manager().enable('live')).toThrow('Extension with name live does not exist.');
  });
});

describe('agent.extensions()', () => {
  it('lists code and folder extensions, active or not, with the skipped ones', () => {
    const dir = join(base, 'folder');
    write(join(dir, 'gemini-extension.json'), {
      name: 'folder',
      version: '1.0.0',
      mcpServers: { m: { command: 'x' } },
    });
    write(join(base, 'broken', 'gemini-extension.json'), '{');
    const agent = new GeminiCliAgent({
      settings: false,
      cwd,
      extensions: [
        extension({ name: 'inline', excludeTools: ['glob'] }),
        extensionDir(dir),
        extensionDir(join(base, 'broken')),
      ],
      enabledExtensions: ['inline'],
    });
    const listing = agent.extensions();
    expect(listing.extensions).toEqual([
      expect.objectContaining({
        name: 'inline',
        origin: 'code',
        active: true,
        excludeTools: ['glob'],
      }),
      expect.objectContaining({
        name: 'folder',
        origin: 'folder',
        active: false,
        mcpServers: ['m'],
      }),
    ]);
    expect(listing.warnings[0]).toMatch(
      /^Skipping extension in .*broken: Failed to load extension config/,
    );
  });
});
