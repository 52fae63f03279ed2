import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextFileNames, loadMemory, renderContextFiles } from './context-files.js';
import { expandImports, MAX_IMPORT_DEPTH } from './memory-imports.js';

let root: string;
const write = (path: string, text: string): string => {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'memory-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('expandImports (gemini-cli @path imports)', () => {
  it('inlines imports, marks repeats on the chain, leaves code spans and e-mail addresses alone', async () => {
    write('.git/HEAD', 'x');
    const top = write('GEMINI.md', 'Top @./a.md `@./a.md` mail me@example.com\n');
    write('a.md', 'A then @b.md');
    write('b.md', 'B back to @./a.md');
    const out = await expandImports('Top @./a.md `@./a.md` mail me@example.com\n', top);
    expect(out).toBe(
      'Top <!-- Imported from: ./a.md -->\nA then <!-- Imported from: b.md -->\n' +
        'B back to <!-- File already processed: ./a.md -->\n<!-- End of import from: b.md -->\n' +
        '<!-- End of import from: ./a.md --> `@./a.md` mail me@example.com\n',
    );
  });

  it('refuses paths outside the project root and URLs, and reports missing files', async () => {
    write('proj/.git/HEAD', 'x');
    write('secret.md', 'SECRET');
    const file = write('proj/GEMINI.md', '');
    const out = await expandImports('@../secret.md @https://x.test/a.md @./nope.md', file);
    expect(out).not.toContain('SECRET');
    expect(out).toContain('<!-- Import failed: ../secret.md - Path traversal attempt -->');
    expect(out).toContain('<!-- Import failed: https://x.test/a.md - Path traversal attempt -->');
    expect(out).toMatch(/<!-- Import failed: \.\/nope\.md - ENOENT: no such file or directory/);
  });

  it('a symlink pointing out of the project is refused too', async () => {
    write('proj/.git/HEAD', 'x');
    write('outside.md', 'OUTSIDE');
    symlinkSync(join(root, 'outside.md'), join(root, 'proj', 'link.md'));
    const out = await expandImports('@./link.md', write('proj/GEMINI.md', ''));
    expect(out).not.toContain('OUTSIDE');
  });

  it(`stops at ${MAX_IMPORT_DEPTH} levels`, async () => {
    for (let i = 0; i < 8; i++) write(`f${i}.md`, `L${i} @./f${i + 1}.md`);
    const out = await expandImports('@./f0.md', write('GEMINI.md', ''));
    expect(out).toContain('L4 @./f5.md');
    expect(out).not.toContain('L5');
  });

  it('flat format lists each file once', async () => {
    const file = write('GEMINI.md', 'Top @./a.md');
    write('a.md', 'A @./GEMINI.md');
    const out = await expandImports('Top @./a.md', file, { format: 'flat' });
    expect(out).toBe(
      `--- File: ${file} ---\nTop @./a.md\n--- End of File: ${file} ---\n\n` +
        `--- File: ${join(root, 'a.md')} ---\nA @./GEMINI.md\n--- End of File: ${join(root, 'a.md')} ---`,
    );
  });
});

describe('loadMemory (gemini-cli 0.61 discovery)', () => {
  const home = () => join(root, 'home');

  it('global files, then project files from the git root down to each workspace folder, sorted', async () => {
    write('home/.gemini/GEMINI.md', 'global');
    write('repo/.git/HEAD', 'x');
    write('GEMINI.md', 'above the git root');
    write('repo/GEMINI.md', 'root');
    write('repo/pkg/GEMINI.md', 'pkg');
    write('repo/pkg/sub/GEMINI.md', 'below cwd: loaded later by gemini-cli, not up front');
    write('lib/GEMINI.md', 'an included folder without a git root');
    const memory = await loadMemory({
      home: home(),
      workspaceDirs: [join(root, 'repo', 'pkg'), join(root, 'lib')],
      trusted: true,
    });
    expect(memory.global.map((f) => f.content)).toEqual(['global']);
    expect(memory.project.map((f) => f.path)).toEqual(
      [
        join(root, 'lib', 'GEMINI.md'),
        join(root, 'repo', 'GEMINI.md'),
        join(root, 'repo', 'pkg', 'GEMINI.md'),
      ].sort(),
    );
    const untrusted = await loadMemory({
      home: home(),
      workspaceDirs: [join(root, 'repo', 'pkg')],
      trusted: false,
    });
    expect(untrusted.project).toEqual([]);
    expect(untrusted.global).toHaveLength(1);
  });

  it('context.fileName lists names in order; markers decide the project root', async () => {
    write('ws/AGENTS.md', 'agents');
    write('ws/GEMINI.md', 'gemini');
    write('ws/.hg/x', 'x');
    write('ws/deep/AGENTS.md', 'deep');
    const memory = await loadMemory({
      home: home(),
      workspaceDirs: [join(root, 'ws', 'deep')],
      trusted: true,
      fileNames: ['AGENTS.md', ' GEMINI.md ', 'AGENTS.md'],
      boundaryMarkers: ['.hg'],
    });
    expect(memory.project.map((f) => f.content)).toEqual(['agents', 'gemini', 'deep']);
    expect(contextFileNames(undefined)).toEqual(['GEMINI.md']);
    expect(contextFileNames('')).toEqual(['GEMINI.md']);
  });

  it('private project memory: MEMORY.md first, else the context file names', async () => {
    write('mem/GEMINI.md', 'legacy');
    let memory = await loadMemory({
      home: home(),
      workspaceDirs: [],
      trusted: true,
      projectMemoryDir: join(root, 'mem'),
    });
    expect(memory.userProject.map((f) => f.content)).toEqual(['legacy']);
    write('mem/MEMORY.md', 'index');
    memory = await loadMemory({
      home: home(),
      workspaceDirs: [],
      trusted: true,
      projectMemoryDir: join(root, 'mem'),
    });
    expect(memory.userProject.map((f) => f.content)).toEqual(['index']);
  });

  it('renders files as gemini-cli does, leaving empty ones out', () => {
    expect(
      renderContextFiles([
        { path: '/a/GEMINI.md', content: '  one\n' },
        { path: '/b/GEMINI.md', content: ' \n' },
        { path: '/c/GEMINI.md', content: 'two' },
      ]),
    ).toBe(
      '--- Context from: /a/GEMINI.md ---\none\n--- End of Context from: /a/GEMINI.md ---\n\n' +
        '--- Context from: /c/GEMINI.md ---\ntwo\n--- End of Context from: /c/GEMINI.md ---',
    );
  });
});
