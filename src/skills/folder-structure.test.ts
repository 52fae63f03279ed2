import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getFolderStructure } from './folder-structure.js';

let tmp: string;
beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'skills-tree-')));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function touch(...parts: string[]): Promise<void> {
  const file = join(tmp, ...parts);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, '');
}

describe('getFolderStructure (gemini-cli format)', () => {
  it('lists files before folders, alphabetically, with box-drawing connectors', async () => {
    await touch('SKILL.md');
    await touch('README.md');
    await touch('scripts', 'run.sh');
    await touch('scripts', 'lib', 'util.py');
    await touch('templates', 'a.txt');
    await symlink('/etc', join(tmp, 'link-to-etc'));
    expect(await getFolderStructure(tmp)).toBe(
      [
        'Showing up to 200 items (files + folders).',
        '',
        `${tmp}${sep}`,
        '├───README.md',
        '├───SKILL.md',
        `├───scripts${sep}`,
        '│   ├───run.sh',
        `│   └───lib${sep}`,
        '│       └───util.py',
        `└───templates${sep}`,
        '    └───a.txt',
      ].join('\n'),
    );
  });

  it('shows ignored folders as name/... and adds the truncation note', async () => {
    await touch('a.txt');
    await touch('node_modules', 'x', 'y.js');
    expect(await getFolderStructure(tmp)).toBe(
      [
        'Showing up to 200 items (files + folders). Folders or files indicated with ... contain more items not shown, were ignored, or the display limit (200 items) was reached.',
        '',
        `${tmp}${sep}`,
        '├───a.txt',
        `└───node_modules${sep}...`,
      ].join('\n'),
    );
  });

  it('stops at maxItems breadth-first and marks what was cut', async () => {
    await touch('a.txt');
    await touch('b.txt');
    await touch('c.txt');
    await touch('d', 'e.txt');
    const text = await getFolderStructure(tmp, { maxItems: 2 });
    expect(text.split('\n').slice(2)).toEqual([
      `${tmp}${sep}`,
      '├───a.txt',
      '├───b.txt',
      '├───...',
      '└───...',
    ]);
    expect(text).toContain('display limit (2 items) was reached.');
  });

  it('returns gemini-cli error text for a missing directory', async () => {
    expect(await getFolderStructure(join(tmp, 'missing'))).toBe(
      `Error: Could not read directory "${join(tmp, 'missing')}". Check path and permissions.`,
    );
  });
});
