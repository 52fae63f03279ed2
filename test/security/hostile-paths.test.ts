/**
 * Hostile paths: each form must be refused for reading and for writing (and mkdir / rm / rename / copy),
 * and nothing outside the root may be read or changed — the canaries decide.
 */
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CANARY, createArena, type Arena } from './helpers/sandbox.js';

// Built at load time: the table below names its directories.
const arena: Arena = createArena((ws, outside) => {
  mkdirSync(path.join(ws, 'sub'));
  writeFileSync(path.join(ws, 'a.txt'), 'alpha');
  mkdirSync(path.join(ws, '.git'));
  writeFileSync(path.join(ws, '.git', 'config'), '[core]');
  symlinkSync(outside, path.join(ws, 'out-dir'));
  symlinkSync(path.join(outside, 'secret'), path.join(ws, 'out-file'));
  symlinkSync(path.join(outside, 'new-file'), path.join(ws, 'dangling-out'));
  symlinkSync('../../outside/secret', path.join(ws, 'sub', 'rel-out'));
  symlinkSync('..', path.join(ws, 'up'));
  symlinkSync('/', path.join(ws, 'root-link'));
  symlinkSync('/dev/zero', path.join(ws, 'zero'));
  symlinkSync('/dev/urandom', path.join(ws, 'urandom'));
  symlinkSync('/proc/self/environ', path.join(ws, 'environ'));
  symlinkSync('/proc/self/root', path.join(ws, 'proc-root'));
  symlinkSync('/proc/self/cwd', path.join(ws, 'proc-cwd'));
  symlinkSync('.git', path.join(ws, 'git-link'));
  symlinkSync(path.dirname(ws), path.join(ws, 'base-link'));
  // A chain longer than the kernel's 40 hops, ending outside.
  for (let i = 0; i < 45; i += 1) symlinkSync(`c${i + 1}`, path.join(ws, `c${i}`));
  symlinkSync(path.join(outside, 'secret'), path.join(ws, 'c45'));
  // A symlink that points at the sibling directory whose name starts like the root's.
  mkdirSync(`${ws}-evil`);
  writeFileSync(path.join(`${ws}-evil`, 'x'), CANARY);
  symlinkSync(`${ws}-evil/x`, path.join(ws, 'prefix-sibling'));
  linkSync(path.join(outside, 'secret'), path.join(ws, 'hard'));
});

afterAll(() => {
  arena.assertOutsideUntouched();
  arena.cleanup();
});

const hostile = (): Array<[string, string]> => {
  const { ws, outside } = arena;
  return [
    ['parent escape', '../outside/secret'],
    ['deep parent escape', '../../../../../../../../etc/passwd'],
    ['escape through a subdirectory', 'sub/../../outside/secret'],
    ['absolute path outside', path.join(outside, 'secret')],
    ['absolute /etc/passwd', '/etc/passwd'],
    ['sibling with the root as name prefix', `${ws}-evil/x`],
    ['symlink to a sibling with the root as name prefix', 'prefix-sibling'],
    ['symlinked directory pointing out', 'out-dir/secret'],
    ['symlinked directory pointing out, nested', 'out-dir/sub/deeper/keep'],
    ['symlinked file pointing out', 'out-file'],
    ['dangling symlink pointing out', 'dangling-out'],
    ['relative symlink pointing out', 'sub/rel-out'],
    ['symlink to the parent of the root', 'up/outside/secret'],
    ['symlink to the parent, twice', 'up/ws/up/outside/secret'],
    ['symlink to /', 'root-link/etc/passwd'],
    ['symlink to the base directory', 'base-link/outside/secret'],
    ['symlink chain longer than 40 hops', 'c0'],
    ['symlink to /dev/zero', 'zero'],
    ['symlink to /dev/urandom', 'urandom'],
    ['symlink to /proc/self/environ', 'environ'],
    ['symlink to /proc/self/root', 'proc-root/etc/passwd'],
    ['symlink to /proc/self/cwd', 'proc-cwd/a.txt'],
    ['/proc/self/root', '/proc/self/root/etc/passwd'],
    ['/proc/self/fd', '/proc/self/fd/0'],
    ['/sys', '/sys/kernel/notes'],
    ['/dev/zero', '/dev/zero'],
    ['file URL', 'file:///etc/passwd'],
    ['percent-encoded file URL escape', `file://${ws}/%2e%2e/outside/secret`],
    ['~ home', '~/.bashrc'],
    ['~user', '~root/.ssh/id_rsa'],
    ['null byte', 'a.txt\0../../outside/secret'],
    ['newline', 'a.txt\n../outside/secret'],
    ['empty', ''],
    ['over-long', `${'a/'.repeat(3000)}x`],
    ['.git internals', '.git/config'],
    ['.git via symlink', 'git-link/config'],
    ['.GIT with a trailing dot', '.GIT./config'],
    ['hard link to an outside file', 'hard'],
  ];
};

describe('hostile paths', () => {
  it('covers at least 30 forms', () => {
    expect(hostile().length).toBeGreaterThanOrEqual(30);
  });

  it.each(hostile())('never reads: %s', async (_label, p) => {
    const fs = arena.ctx.fs;
    const read = await fs.readFile(p).catch(() => null);
    expect(read).toBeNull();
    expect(await fs.readFileBytes(p).catch(() => null)).toBeNull();
    // A hard link is a name inside the workspace: it resolves, but its content is refused.
    if (p !== 'hard') await expect(fs.resolvePath(p, 'read')).rejects.toThrow();
    await expect(fs.copyFile(p, 'copied')).rejects.toThrow();
    expect(await fs.readFile('copied')).toBeNull();
    const result = await arena.tool('read_file', { file_path: p });
    expect(JSON.stringify(result)).not.toContain(CANARY);
  });

  it.each(hostile())('never writes: %s', async (_label, p) => {
    const fs = arena.ctx.fs;
    await expect(fs.writeFile(p, 'pwned')).rejects.toThrow();
    await expect(fs.mkdir(`${p}/made`)).rejects.toThrow();
    await expect(fs.copyFile('a.txt', p)).rejects.toThrow();
    // Removing a hard link only removes its inside name; anything else must be refused.
    if (p === 'hard') await fs.rm(p);
    else await expect(fs.rm(p, { recursive: true })).rejects.toThrow();
    // rename replaces a symlink itself (it never follows one), so it may succeed on an inside link.
    await fs.writeFile('to-move', 'moved');
    await fs.rename('to-move', p).catch(() => undefined);
    await arena.tool('write_file', { file_path: p, content: 'pwned' });
    await arena.tool('replace', {
      file_path: p,
      instruction: 'x',
      old_string: 'CANARY',
      new_string: 'EDITED',
    });
    expect(await fs.readFile('a.txt')).toBe('alpha');
    arena.assertOutsideUntouched();
  });
});
