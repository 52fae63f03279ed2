import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, PolicyDeniedError } from '../errors.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import { createWorkspace, type Workspace } from './workspace.js';

// Created at load time: the hostile-path table below names these directories.
const base = mkdtempSync(path.join(os.tmpdir(), 'ws-sandbox-'));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');
let workspace: Workspace;
const SECRET = 'top secret';

beforeAll(async () => {
  await mkdir(path.join(ws, 'sub'), { recursive: true });
  await mkdir(path.join(ws, '.git'), { recursive: true });
  await mkdir(path.join(ws, 'node_modules', 'x'), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), SECRET);
  await writeFile(path.join(ws, 'a.txt'), 'alpha');
  await writeFile(path.join(ws, 'sub', 'b.txt'), 'beta');
  await writeFile(path.join(ws, '.git', 'config'), '[core]');
  await writeFile(path.join(ws, '.env'), 'KEY=1');
  await writeFile(path.join(ws, '.env.local'), 'KEY=2');
  await writeFile(path.join(ws, '.envrc'), 'use nix');
  await writeFile(path.join(ws, 'node_modules', 'x', 'index.js'), 'x');
  await writeFile(path.join(ws, 'gha-creds-123.json'), '{}');
  await symlink(outside, path.join(ws, 'out-dir'));
  await symlink(path.join(outside, 'secret.txt'), path.join(ws, 'out-file'));
  await symlink(path.join(outside, 'new.txt'), path.join(ws, 'dangling-out'));
  await symlink(path.join(ws, 'loop2'), path.join(ws, 'loop1'));
  await symlink(path.join(ws, 'loop1'), path.join(ws, 'loop2'));
  await symlink('self-loop', path.join(ws, 'self-loop'));
  await symlink('..', path.join(ws, 'sub', 'up'));
  await symlink('.git', path.join(ws, 'link-to-git'));
  await symlink('/', path.join(ws, 'link-to-root'));
  await symlink('a.txt', path.join(ws, 'alias.txt'));
  await symlink('chain2', path.join(ws, 'chain1'));
  await symlink('out-dir', path.join(ws, 'chain2'));
  await symlink('../../outside', path.join(ws, 'sub', 'rel-out'));
  workspace = createWorkspace({ cwd: ws });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const hostile = (): Array<[string, string]> => [
  ['parent escape', '../outside/secret.txt'],
  ['deep parent escape', '../../../../../../etc/passwd'],
  ['escape through a subdirectory', 'sub/../../outside/secret.txt'],
  ['chain of symlinks leading out', 'chain1/secret.txt'],
  ['relative symlink in a subdirectory pointing out', 'sub/rel-out/secret.txt'],
  ['absolute path outside', path.join(outside, 'secret.txt')],
  ['absolute /etc/passwd', '/etc/passwd'],
  ['absolute /etc/shadow', '/etc/shadow'],
  ['symlinked directory pointing out', 'out-dir/secret.txt'],
  ['symlinked file pointing out', 'out-file'],
  ['dangling symlink pointing out', 'dangling-out'],
  ['symlink loop', 'loop1'],
  ['self-referencing symlink', 'self-loop/x'],
  ['symlink to filesystem root', 'link-to-root/etc/passwd'],
  ['null byte', 'a.txt\0.png'],
  ['lone null byte', '\0'],
  ['newline', 'a.txt\nb'],
  ['empty path', ''],
  ['over-long path', 'x'.repeat(5000)],
  ['/proc/self/environ', '/proc/self/environ'],
  ['/proc/self/cwd', '/proc/self/cwd/a.txt'],
  ['home directory', '~'],
  ['file in home', '~/.bashrc'],
  ['~user form', '~root/.ssh/id_rsa'],
  ['file URL outside', 'file:///etc/passwd'],
  ['.git/config', '.git/config'],
  ['.git directory', '.git'],
  ['.git with trailing dot', '.git./config'],
  ['.GIT upper case', 'sub/.GIT/hooks/pre-commit'],
  ['symlink to .git', 'link-to-git/config'],
  ['.env', '.env'],
  ['.env.local', '.env.local'],
  ['.env via absolute path', path.join(ws, '.env')],
  ['.env via an outside detour', path.join(outside, '..', 'ws', '.env')],
  ['node_modules', 'node_modules/x/index.js'],
  ['gha-creds credentials', 'gha-creds-123.json'],
];

describe('hostile paths', () => {
  it('lists at least 25 hostile paths', () => {
    expect(hostile().length).toBeGreaterThanOrEqual(25);
  });

  it.each(hostile())('refuses to read: %s', async (_label, hostilePath) => {
    expect(await workspace.fs.readFile(hostilePath)).toBeNull();
    expect(await workspace.fs.readFileBytes(hostilePath)).toBeNull();
    expect(await workspace.fs.stat(hostilePath)).toBeNull();
    expect(await workspace.fs.exists(hostilePath)).toBe(false);
    await expect(workspace.fs.resolvePath(hostilePath, 'read')).rejects.toBeInstanceOf(
      WorkspaceAccessError,
    );
  });

  it.each(hostile())('refuses to write: %s', async (_label, hostilePath) => {
    const error = await workspace.fs.writeFile(hostilePath, 'pwned').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkspaceAccessError);
    expect(error).toBeInstanceOf(PolicyDeniedError);
    await expect(workspace.fs.mkdir(hostilePath)).rejects.toBeInstanceOf(WorkspaceAccessError);
    await expect(workspace.fs.rm(hostilePath, { force: true })).rejects.toBeInstanceOf(
      WorkspaceAccessError,
    );
    // Nothing outside changed, nothing was created next to the secret.
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(path.join(ws, '.env'), 'utf8')).toBe('KEY=1');
    expect(readFileSync(path.join(ws, '.git', 'config'), 'utf8')).toBe('[core]');
  });

  it('names the path and the reason in the error', async () => {
    const error = (await workspace.fs
      .writeFile('../outside/secret.txt', 'x')
      .catch((e: unknown) => e)) as WorkspaceAccessError;
    expect(error.reason).toBe('PATH_NOT_IN_WORKSPACE');
    expect(error.code).toBe('PATH_NOT_IN_WORKSPACE');
    expect(error.path).toBe('../outside/secret.txt');
    expect(error.message).toContain(
      'Path not in workspace: Attempted path "../outside/secret.txt"',
    );
    expect(error.message).toContain(ws);
    const blocked = (await workspace.fs
      .writeFile('.env', 'x')
      .catch((e: unknown) => e)) as WorkspaceAccessError;
    expect(blocked.reason).toBe('PATH_BLOCKED');
    const loop = (await workspace.fs
      .resolvePath('loop1')
      .catch((e: unknown) => e)) as WorkspaceAccessError;
    expect(loop.reason).toBe('SYMLINK_LOOP');
    const nul = (await workspace.fs
      .resolvePath('a\0b')
      .catch((e: unknown) => e)) as WorkspaceAccessError;
    expect(nul.reason).toBe('INVALID_PATH');
  });
});

describe('normal workspace paths', () => {
  it('reads relative, ./, absolute, nested and inside-symlink paths', async () => {
    expect(await workspace.fs.readFile('a.txt')).toBe('alpha');
    expect(await workspace.fs.readFile('./a.txt')).toBe('alpha');
    expect(await workspace.fs.readFile(path.join(ws, 'a.txt'))).toBe('alpha');
    expect(await workspace.fs.readFile('sub/b.txt')).toBe('beta');
    expect(await workspace.fs.readFile('sub/up/a.txt')).toBe('alpha');
    expect(await workspace.fs.readFile('alias.txt')).toBe('alpha');
    expect(await workspace.fs.readFile(`file://${path.join(ws, 'a.txt')}`)).toBe('alpha');
    expect(await workspace.fs.readFile('.envrc')).toBe('use nix');
    expect(await workspace.fs.readFile('missing.txt')).toBeNull();
    expect(await workspace.fs.readFile('sub')).toBeNull();
  });

  it('writes new files (creating parents), overwrites, and writes through an inside symlink', async () => {
    await workspace.fs.writeFile('new/deep/file.txt', 'fresh');
    expect(readFileSync(path.join(ws, 'new', 'deep', 'file.txt'), 'utf8')).toBe('fresh');
    await workspace.fs.writeFile('new/deep/file.txt', 'again');
    expect(await workspace.fs.readFile('new/deep/file.txt')).toBe('again');
    await workspace.fs.writeFile('sub/up/via-link.txt', 'linked');
    expect(readFileSync(path.join(ws, 'via-link.txt'), 'utf8')).toBe('linked');
  });

  it('stats, lists (hiding blocked entries), globs, makes and removes directories', async () => {
    const info = await workspace.fs.stat('a.txt');
    expect(info).toMatchObject({ kind: 'file', size: 5, path: path.join(workspace.cwd, 'a.txt') });
    expect((await workspace.fs.stat('sub'))?.kind).toBe('directory');
    const names = (await workspace.fs.readDir('.'))?.map((e) => e.name) ?? [];
    expect(names).toContain('a.txt');
    expect(names).toContain('out-dir');
    expect(names).not.toContain('.git');
    expect(names).not.toContain('.env');
    expect(names).not.toContain('node_modules');
    expect(names).not.toContain('gha-creds-123.json');
    expect(await workspace.fs.readDir('../outside')).toBeNull();

    const texts = await workspace.fs.glob('**/*.txt');
    expect(texts).toContain(path.join(workspace.cwd, 'a.txt'));
    expect(texts).toContain(path.join(workspace.cwd, 'sub', 'b.txt'));
    expect(texts.some((p) => p.includes('secret'))).toBe(false);
    expect(texts).not.toContain(path.join(workspace.cwd, 'out-file'));
    expect(await workspace.fs.glob('**/config')).toEqual([]);
    expect(await workspace.fs.glob('../outside/*')).toEqual([]);
    expect(await workspace.fs.glob('*.TXT')).toContain(path.join(workspace.cwd, 'a.txt'));
    expect(await workspace.fs.glob('*.TXT', { caseSensitive: true })).toEqual([]);

    await workspace.fs.mkdir('made/here');
    expect((await workspace.fs.stat('made/here'))?.kind).toBe('directory');
    await expect(workspace.fs.rm('made')).rejects.toThrow();
    await workspace.fs.rm('made', { recursive: true });
    expect(await workspace.fs.exists('made')).toBe(false);
    await workspace.fs.rm('made', { force: true });
    await expect(workspace.fs.rm('.', { recursive: true })).rejects.toBeInstanceOf(
      WorkspaceAccessError,
    );
  });
});

describe('roots', () => {
  it('adds writable include directories and read-only roots (skill folders)', async () => {
    const extra = path.join(base, 'extra');
    const skill = path.join(base, 'skill');
    await mkdir(extra, { recursive: true });
    await mkdir(skill, { recursive: true });
    await writeFile(path.join(skill, 'SKILL.md'), '# skill');
    const w = createWorkspace({ cwd: ws, includeDirectories: [extra] });
    await w.fs.writeFile(path.join(extra, 'x.txt'), 'extra');
    expect(readFileSync(path.join(extra, 'x.txt'), 'utf8')).toBe('extra');
    expect(await w.fs.readFile(path.join(skill, 'SKILL.md'))).toBeNull();
    w.addReadOnlyRoot(skill);
    expect(await w.fs.readFile(path.join(skill, 'SKILL.md'))).toBe('# skill');
    const error = (await w.fs
      .writeFile(path.join(skill, 'SKILL.md'), 'x')
      .catch((e: unknown) => e)) as WorkspaceAccessError;
    expect(error.reason).toBe('PATH_READ_ONLY');
    expect(readFileSync(path.join(skill, 'SKILL.md'), 'utf8')).toBe('# skill');
    expect(w.roots.map((r) => [r.path, r.readOnly])).toEqual([
      [w.cwd, false],
      [extra, false],
      [skill, true],
    ]);
    expect(w.fs.workspaceDirectories()).toEqual([w.cwd, extra]);
    // The other workspace is unaffected.
    expect(await workspace.fs.readFile(path.join(extra, 'x.txt'))).toBeNull();
  });

  it('refuses a missing cwd or include directory with a ConfigurationError', () => {
    expect(() => createWorkspace({ cwd: path.join(base, 'nope') })).toThrow(ConfigurationError);
    expect(() => createWorkspace({ cwd: ws, includeDirectories: ['../nope'] })).toThrow(
      ConfigurationError,
    );
    expect(() => workspace.addReadOnlyRoot(path.join(base, 'nope'))).toThrow(ConfigurationError);
    expect(existsSync(path.join(base, 'nope'))).toBe(false);
  });
});
