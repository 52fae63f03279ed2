/**
 * ExtensionManager.checkForUpdate / update / updateAll: local sources (version compare), git sources served by
 * `git http-backend` on loopback (commit compare, refs), consent only when what runs changed, renames that keep
 * enablement, the user's .env kept, and the previous folder restored when an update fails.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGitHttpServer, type GitHttpServer } from '../../scripts/git-http-server.mjs';
import { ExtensionManager, loadSettings } from '../../src/index.js';

const run = promisify(execFile);
let base: string;
let home: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let gitRoot: string;
let server: GitHttpServer;

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function manager(): ExtensionManager {
  return new ExtensionManager({ cwd, settings: loadSettings({ cwd, env }), env });
}

const yes = () => true;

beforeAll(async () => {
  gitRoot = realpathSync(mkdtempSync(join(tmpdir(), 'ext-update-git-')));
  server = await startGitHttpServer(gitRoot);
});
afterAll(async () => {
  await server.close();
  rmSync(gitRoot, { recursive: true, force: true });
});
beforeEach(() => {
  // Spaces and quotes in every path: the update must not depend on plain folder names.
  base = realpathSync(mkdtempSync(join(tmpdir(), "ext update 'q' ")));
  home = join(base, 'home');
  cwd = join(base, 'proj');
  mkdirSync(cwd, { recursive: true });
  env = { GEMINI_CLI_HOME: home, HOME: home, PATH: process.env['PATH'] };
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('updates from a local folder', () => {
  it('compares versions, updates, keeps the .env, and says when it is up to date', async () => {
    const src = join(base, 'src', 'demo');
    write(join(src, 'gemini-extension.json'), { name: 'demo', version: '1.0.0' });
    write(join(src, 'GEMINI.md'), 'one');
    const m = manager();
    await m.install(src, { consent: yes });
    write(join(m.extensionsDir, 'demo', '.env'), 'KEY=kept\n');
    expect(await m.checkForUpdate('demo')).toEqual({ state: 'up to date' });
    expect(await m.update('demo', { consent: yes })).toEqual({
      name: 'demo',
      originalVersion: '1.0.0',
      updatedVersion: '1.0.0',
    });
    write(join(src, 'gemini-extension.json'), { name: 'demo', version: '1.1.0' });
    write(join(src, 'GEMINI.md'), 'two');
    expect(await m.checkForUpdate('demo')).toEqual({ state: 'update available' });
    // Nothing that runs changed: no question.
    const asked: string[] = [];
    const info = await m.update('demo', {
      consent: (t) => {
        asked.push(t);
        return true;
      },
    });
    expect(info).toEqual({ name: 'demo', originalVersion: '1.0.0', updatedVersion: '1.1.0' });
    expect(asked).toEqual([]);
    const dir = join(m.extensionsDir, 'demo');
    expect(readFileSync(join(dir, 'GEMINI.md'), 'utf8')).toBe('two');
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('KEY=kept\n');
    expect(JSON.parse(readFileSync(join(dir, '.gemini-extension-install.json'), 'utf8'))).toEqual({
      source: src,
      type: 'local',
    });
    expect((await m.list()).map((e) => [e.name, e.version])).toEqual([['demo', '1.1.0']]);
    // No leftovers next to the extensions folder.
    expect(
      (await import('node:fs'))
        .readdirSync(join(home, '.gemini'))
        .filter((n) => n.startsWith('extension-update')),
    ).toEqual([]);
  });

  it('asks when what runs changed; a "no" leaves the installed folder as it was', async () => {
    const src = join(base, 'src', 'demo');
    write(join(src, 'gemini-extension.json'), { name: 'demo', version: '1.0.0' });
    const m = manager();
    await m.install(src, { consent: yes });
    write(join(src, 'gemini-extension.json'), {
      name: 'demo',
      version: '2.0.0',
      mcpServers: { srv: { command: 'node', args: ['server.js'] } },
    });
    const asked: string[] = [];
    await expect(
      m.update('demo', {
        consent: (t) => {
          asked.push(t);
          return false;
        },
      }),
    ).rejects.toThrow('Installation cancelled for "demo".');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Installing extension "demo".');
    expect(asked[0]).toContain('  * srv (local): node server.js');
    expect((await m.list()).map((e) => e.version)).toEqual(['1.0.0']);
    // Without a consent callback the answer is no.
    await expect(m.update('demo')).rejects.toThrow('Installation cancelled');
    await m.update('demo', { consent: yes });
    expect((await m.list()).map((e) => [e.version, e.mcpServers])).toEqual([['2.0.0', ['srv']]]);
  });

  it('a broken new version is reported and the previous folder is put back', async () => {
    const src = join(base, 'src', 'demo');
    write(join(src, 'gemini-extension.json'), { name: 'demo', version: '1.0.0' });
    const m = manager();
    await m.install(src, { consent: yes });
    write(join(m.extensionsDir, 'demo', '.env'), 'KEY=kept\n');
    write(join(src, 'gemini-extension.json'), { name: 'bad name!', version: '2.0.0' });
    // A version that cannot be read is "not updatable", with why.
    expect((await m.checkForUpdate('demo')).state).toBe('not updatable');
    await expect(m.update('demo', { consent: yes })).rejects.toThrow(/Invalid extension name/);
    write(join(src, 'gemini-extension.json'), '{ not json');
    await expect(m.update('demo', { consent: yes })).rejects.toThrow(
      /Failed to load extension config/,
    );
    rmSync(src, { recursive: true });
    await expect(m.update('demo', { consent: yes })).rejects.toThrow(
      /Could not load extension from source path/,
    );
    expect((await m.list()).map((e) => e.version)).toEqual(['1.0.0']);
    expect(readFileSync(join(m.extensionsDir, 'demo', '.env'), 'utf8')).toBe('KEY=kept\n');
  });

  it('a renamed extension moves its folder and keeps where it was enabled and disabled', async () => {
    const src = join(base, 'src', 'demo');
    write(join(src, 'gemini-extension.json'), { name: 'demo', version: '1.0.0' });
    const m = manager();
    await m.install(src, { consent: yes });
    m.disable('demo', 'workspace');
    write(join(src, 'gemini-extension.json'), { name: 'demo-two', version: '3.0.0' });
    const asked: string[] = [];
    const info = await m.update('demo', {
      consent: (t) => {
        asked.push(t);
        return true;
      },
    });
    expect(info).toEqual({ name: 'demo', originalVersion: '1.0.0', updatedVersion: '3.0.0' });
    expect(asked[0]).toMatch(/^Renaming extension "demo" to "demo-two" and installing updates\./);
    expect(existsSync(join(m.extensionsDir, 'demo'))).toBe(false);
    const [ext] = await m.list();
    expect([ext?.name, ext?.enabledUser, ext?.enabledWorkspace]).toEqual(['demo-two', true, false]);
  });

  it('refuses links, unknown names, and a rename onto an installed extension', async () => {
    const a = join(base, 'src', 'a');
    const b = join(base, 'src', 'b');
    write(join(a, 'gemini-extension.json'), { name: 'a', version: '1.0.0' });
    write(join(b, 'gemini-extension.json'), { name: 'b', version: '1.0.0' });
    const m = manager();
    await m.install(a, { consent: yes });
    await m.link(b, { consent: yes });
    await expect(m.update('b', { consent: yes })).rejects.toThrow(
      'Extension is linked so does not need to be updated',
    );
    expect(await m.checkForUpdate('b')).toEqual({ state: 'not updatable' });
    await expect(m.update('nope')).rejects.toThrow('Extension with name nope does not exist.');
    write(join(a, 'gemini-extension.json'), { name: 'b', version: '2.0.0' });
    await expect(m.update('a', { consent: yes })).rejects.toThrow(
      'Cannot update to "b" because an extension with that name is already installed.',
    );
    expect((await m.list()).map((e) => [e.name, e.version])).toEqual([
      ['a', '1.0.0'],
      ['b', '1.0.0'],
    ]);
  });
});

describe('updates from git', () => {
  async function repo(name: string, files: Record<string, string | object>): Promise<string> {
    const work = join(gitRoot, `${name}-work`);
    for (const [path, content] of Object.entries(files)) write(join(work, path), content);
    const git = (...args: string[]) =>
      run('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: work });
    if (!existsSync(join(work, '.git'))) {
      await git('init', '-q', '-b', 'main');
      await git('add', '-A');
      await git('commit', '-qm', 'first');
      await run('git', ['clone', '-q', '--bare', work, join(gitRoot, `${name}.git`)]);
      await git('remote', 'add', 'origin', join(gitRoot, `${name}.git`));
    } else {
      await git('add', '-A');
      await git('commit', '-qm', 'next');
      await git('push', '-q', 'origin', 'HEAD:main');
    }
    return `${server.url}/${name}.git`;
  }

  it('compares the remote commit with the checkout, updates, and follows a ref', async () => {
    const url = await repo('tools', {
      'gemini-extension.json': { name: 'tools', version: '1.0.0' },
      'GEMINI.md': 'v1',
    });
    const m = manager();
    await m.install(url, { consent: yes });
    expect(await m.checkForUpdate('tools')).toEqual({ state: 'up to date' });
    // A commit that keeps the version is still an update (git compares commits).
    await repo('tools', { 'GEMINI.md': 'v1 fixed' });
    expect(await m.checkForUpdate('tools')).toEqual({ state: 'update available' });
    expect(await m.update('tools', { consent: yes })).toEqual({
      name: 'tools',
      originalVersion: '1.0.0',
      updatedVersion: '1.0.0',
    });
    expect(readFileSync(join(m.extensionsDir, 'tools', 'GEMINI.md'), 'utf8')).toBe('v1 fixed');
    expect(await m.checkForUpdate('tools')).toEqual({ state: 'up to date' });
    await repo('tools', { 'gemini-extension.json': { name: 'tools', version: '2.0.0' } });
    const all = await m.updateAll({ consent: yes });
    expect(all).toEqual({
      updated: [{ name: 'tools', originalVersion: '1.0.0', updatedVersion: '2.0.0' }],
      failed: [],
    });
    expect(await m.updateAll({ consent: yes })).toEqual({ updated: [], failed: [] });
  });

  it('a missing ref or an unreachable remote is an error with the reason; nothing changes', async () => {
    const url = await repo('pinned', {
      'gemini-extension.json': { name: 'pinned', version: '1.0.0' },
    });
    const m = manager();
    await m.install(url, { consent: yes, ref: 'main' });
    const meta = join(m.extensionsDir, 'pinned', '.gemini-extension-install.json');
    write(meta, { source: url, type: 'git', ref: 'no-such-branch' });
    expect(await m.checkForUpdate('pinned')).toEqual({
      state: 'error',
      reason: 'Git ref no-such-branch not found.',
    });
    await expect(m.update('pinned', { consent: yes })).rejects.toThrow(
      'Git ref no-such-branch not found.',
    );
    await run('git', ['remote', 'set-url', 'origin', `${server.url}/gone.git`], {
      cwd: join(m.extensionsDir, 'pinned'),
    });
    const check = await m.checkForUpdate('pinned');
    expect(check.state).toBe('error');
    expect(check.reason).toContain(`Failed to check for updates for extension "${url}"`);
    const result = await m.updateAll({ consent: yes });
    expect(result).toEqual({ updated: [], failed: [] });
    expect((await m.list()).map((e) => e.version)).toEqual(['1.0.0']);
  });
});
