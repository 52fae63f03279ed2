import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Part } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionContext } from '../../core/session-context.js';
import { createTestSessionContext } from '../../testing/test-session-context.js';
import { createWorkspace } from '../../workspace/workspace.js';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { createBuiltinTools } from './create-builtin-tools.js';

let base: string;
let ctx: SessionContext;
let cwd: string;
const tools = new Map(createBuiltinTools('all').map((t) => [t.name, t]));
const call = { callId: 'call-1', signal: new AbortController().signal };

function tool(name: string): AgentTool {
  const found = tools.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}
const run = (name: string, args: Record<string, unknown>): Promise<ToolResult> =>
  tool(name).execute(args, ctx, call);
const text = (result: ToolResult): string =>
  typeof result.llmContent === 'string'
    ? result.llmContent
    : result.llmContent.map((p: Part) => p.text ?? '').join('\n');

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-read-tools-'));
  const ws = path.join(base, 'ws');
  await mkdir(path.join(ws, 'src', 'deep'), { recursive: true });
  await mkdir(path.join(ws, 'docs'), { recursive: true });
  await mkdir(path.join(ws, 'dist'), { recursive: true });
  await mkdir(path.join(ws, '.git'), { recursive: true });
  await mkdir(path.join(base, 'outside'), { recursive: true });
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret');
  await writeFile(path.join(ws, 'README.md'), '# Demo\nA demo project.\n');
  await writeFile(
    path.join(ws, 'src', 'main.ts'),
    'export function main() {\n  return helper();\n}\n',
  );
  await writeFile(
    path.join(ws, 'src', 'helper.ts'),
    'export function helper() {\n  return 42;\n}\n',
  );
  await writeFile(path.join(ws, 'src', 'deep', 'util.ts'), '// TODO: more\nexport const x = 1;\n');
  await writeFile(path.join(ws, 'dist', 'main.js'), 'function main() {}\n');
  await writeFile(path.join(ws, 'ignored.log'), 'function main() in a log\n');
  await writeFile(path.join(ws, '.gitignore'), '*.log\n');
  await writeFile(path.join(ws, '.git', 'config'), 'function main');
  await writeFile(path.join(ws, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  await writeFile(path.join(ws, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 0]));
  await writeFile(
    path.join(ws, 'long.txt'),
    Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'),
  );
  await writeFile(path.join(ws, 'wide.txt'), `${'x'.repeat(2100)}\nshort\n`);
  await symlink(path.join(base, 'outside', 'secret.txt'), path.join(ws, 'leak.txt'));
  const old = new Date('2020-01-01T00:00:00Z');
  for (const f of ['README.md', 'src/helper.ts', 'src/deep/util.ts', 'long.txt', 'wide.txt']) {
    await utimes(path.join(ws, f), old, old);
  }
  const workspace = createWorkspace({ cwd: ws });
  cwd = workspace.cwd;
  ctx = createTestSessionContext(workspace);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('read_file', () => {
  it('returns the text of a file', async () => {
    const result = await run('read_file', { file_path: 'README.md' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe('# Demo\nA demo project.\n');
    expect(tool('read_file').kind).toBe('read');
  });

  it("reads a line range with gemini-cli's truncation header", async () => {
    const result = await run('read_file', { file_path: 'src/main.ts', start_line: 2, end_line: 2 });
    expect(result.llmContent).toBe(
      "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 2-2 of 4 total lines.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call.\n\n--- FILE CONTENT (truncated) ---\n  return helper();",
    );
    expect(result.returnDisplay).toBe('Read lines 2-2 of 4 from src/main.ts');
  });

  it('caps a long file at 2000 lines and shortens long lines', async () => {
    const long = text(await run('read_file', { file_path: 'long.txt' }));
    expect(long).toContain('Status: Showing lines 1-2000 of 2500 total lines.');
    expect(long.endsWith('line 2000')).toBe(true);
    const wide = await run('read_file', { file_path: 'wide.txt' });
    expect(text(wide)).toContain(`${'x'.repeat(2000)}... [truncated]\nshort`);
    expect(wide.returnDisplay).toBe('Read all 3 lines from wide.txt (some lines were shortened)');
  });

  it('returns images as inline data and skips binary files', async () => {
    const image = await run('read_file', { file_path: 'image.png' });
    expect(image.llmContent).toEqual([
      {
        inlineData: {
          data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString('base64'),
          mimeType: 'image/png',
        },
      },
    ]);
    const blob = await run('read_file', { file_path: 'blob.bin' });
    expect(blob.llmContent).toBe('Cannot display content of binary file: blob.bin');
  });

  it('returns { error } results for missing files, directories, refused paths and bad ranges', async () => {
    const missing = await run('read_file', { file_path: 'nope.txt' });
    expect(missing.error).toEqual({
      message: `File not found: ${path.join(cwd, 'nope.txt')}`,
      type: 'file_not_found',
    });
    const dir = await run('read_file', { file_path: 'src' });
    expect(dir.error?.type).toBe('target_is_directory');
    const outside = await run('read_file', { file_path: '../outside/secret.txt' });
    expect(outside.error?.type).toBe('path_not_in_workspace');
    expect(outside.error?.message).toContain(
      'Path not in workspace: Attempted path "../outside/secret.txt"',
    );
    expect(outside.returnDisplay).toBe('Path not in workspace.');
    expect((await run('read_file', { file_path: 'leak.txt' })).error?.type).toBe(
      'path_not_in_workspace',
    );
    expect((await run('read_file', { file_path: '.git/config' })).error?.type).toBe(
      'path_not_in_workspace',
    );
    expect(tool('read_file').validate({ file_path: 'a', start_line: 0 })).toEqual({
      ok: false,
      error: 'start_line must be at least 1',
    });
    expect(tool('read_file').validate({ file_path: 'a', start_line: 5, end_line: 2 })).toEqual({
      ok: false,
      error: 'start_line cannot be greater than end_line',
    });
    expect(tool('read_file').validate({})).toMatchObject({ ok: false });
    expect((await run('read_file', { file_path: 42 })).error?.type).toBe('invalid_tool_params');
  });

  it('drops a leading @ copied from a user reference', async () => {
    expect((await run('read_file', { file_path: '@README.md' })).llmContent).toBe(
      '# Demo\nA demo project.\n',
    );
  });
});

describe('list_directory', () => {
  it('lists directories first, then files with sizes, counting git-ignored entries', async () => {
    const result = await run('list_directory', { dir_path: '.' });
    expect(tool('list_directory').kind).toBe('search');
    expect(text(result)).toBe(
      `Directory listing for ${cwd}:\n[DIR] dist\n[DIR] docs\n[DIR] src\n.gitignore (6 bytes)\nblob.bin (6 bytes)\nimage.png (8 bytes)\nleak.txt (0 bytes)\nlong.txt (${(await ctx.fs.stat('long.txt'))?.size} bytes)\nREADME.md (23 bytes)\nwide.txt (2107 bytes)\n\n(1 ignored)`,
    );
    expect(result.returnDisplay).toBe('Listed 10 item(s). (1 ignored)');
  });

  it('applies ignore patterns, reports empty and missing directories, refuses outside paths', async () => {
    const filtered = text(await run('list_directory', { dir_path: 'src', ignore: ['*.ts'] }));
    expect(filtered).toBe(`Directory listing for ${path.join(cwd, 'src')}:\n[DIR] deep`);
    expect(text(await run('list_directory', { dir_path: 'docs' }))).toBe(
      `Directory ${path.join(cwd, 'docs')} is empty.`,
    );
    const missing = await run('list_directory', { dir_path: 'nowhere' });
    expect(missing.error?.message).toBe(
      `Error: Directory not found or inaccessible: ${path.join(cwd, 'nowhere')}`,
    );
    expect((await run('list_directory', { dir_path: 'README.md' })).error?.type).toBe(
      'path_is_not_a_directory',
    );
    expect((await run('list_directory', { dir_path: '..' })).error?.type).toBe(
      'path_not_in_workspace',
    );
  });
});

describe('glob', () => {
  it('finds files, newest first then alphabetical, as absolute paths', async () => {
    const result = await run('glob', { pattern: '**/*.ts' });
    expect(tool('glob').kind).toBe('search');
    expect(text(result)).toBe(
      `Found 3 file(s) matching "**/*.ts" within ${cwd}, sorted by modification time (newest first):\n` +
        [
          path.join(cwd, 'src/main.ts'),
          path.join(cwd, 'src/deep/util.ts'),
          path.join(cwd, 'src/helper.ts'),
        ].join('\n'),
    );
    expect(result.returnDisplay).toBe('Found 3 matching file(s)');
  });

  it('is case-insensitive by default, counts ignored files, and says when nothing matched', async () => {
    expect(text(await run('glob', { pattern: 'readme.MD' }))).toContain(
      path.join(cwd, 'README.md'),
    );
    expect(text(await run('glob', { pattern: 'readme.MD', case_sensitive: true }))).toBe(
      `No files found matching pattern "readme.MD" within ${cwd}`,
    );
    expect(text(await run('glob', { pattern: '*.log' }))).toBe(
      `No files found matching pattern "*.log" within ${cwd} (1 files were ignored)`,
    );
    expect(text(await run('glob', { pattern: '*.log', respect_git_ignore: false }))).toContain(
      path.join(cwd, 'ignored.log'),
    );
    expect(text(await run('glob', { pattern: '**/config' }))).toContain('No files found');
    expect(text(await run('glob', { pattern: '*.ts', dir_path: 'src' }))).toContain(
      `Found 2 file(s) matching "*.ts" within ${path.join(cwd, 'src')}`,
    );
    expect((await run('glob', { pattern: '*', dir_path: '../outside' })).error?.type).toBe(
      'path_not_in_workspace',
    );
    expect(tool('glob').validate({ pattern: '  ' })).toEqual({
      ok: false,
      error: "The 'pattern' parameter cannot be empty.",
    });
  });
});

describe('grep_search', () => {
  it("formats matches per file with gemini-cli's layout (auto context for few matches)", async () => {
    const result = await run('grep_search', { pattern: 'return 42' });
    expect(tool('grep_search').kind).toBe('search');
    expect(text(result)).toBe(
      'Found 1 match for pattern "return 42" in the workspace directory:\n---\nFile: src/helper.ts\nL1- export function helper() {\nL2:   return 42;\nL3- }\nL4- \n---',
    );
    expect(result.returnDisplay).toBe('Found 1 match');
  });

  it('searches case-insensitively, skips ignored, blocked and binary files, honours filters', async () => {
    const many = text(await run('grep_search', { pattern: 'FUNCTION', total_max_matches: 100 }));
    expect(many).toContain('Found 3 matches for pattern "FUNCTION" in the workspace directory:');
    expect(many).toContain(
      'File: src/main.ts\nL1: export function main() {\nL2-   return helper();',
    );
    expect(many).toContain('File: dist/main.js');
    expect(many).not.toContain('ignored.log');
    expect(many).not.toContain('.git');
    const filtered = text(
      await run('grep_search', { pattern: 'function', include_pattern: '*.ts', names_only: true }),
    );
    expect(filtered).toBe(
      'Found 2 files with matches for pattern "function" in the workspace directory:\nsrc/helper.ts\nsrc/main.ts',
    );
    const excluded = text(
      await run('grep_search', {
        pattern: 'export',
        exclude_pattern: 'helper|main',
        dir_path: 'src',
      }),
    );
    expect(excluded).toContain('Found 1 match for pattern "export" in path "src":');
    expect(excluded).toContain('File: deep/util.ts');
    const limited = text(await run('grep_search', { pattern: 'line', total_max_matches: 5 }));
    expect(limited).toContain('(results limited to 5 matches for performance)');
    expect(text(await run('grep_search', { pattern: 'zzz-nothing' }))).toBe(
      'No matches found for pattern "zzz-nothing" in the workspace directory.',
    );
  });

  it('rejects bad regexes and outside directories', async () => {
    expect(tool('grep_search').validate({ pattern: '(' })).toMatchObject({ ok: false });
    expect((tool('grep_search').validate({ pattern: '(' }) as { error: string }).error).toContain(
      'Invalid regular expression pattern provided: (.',
    );
    expect((await run('grep_search', { pattern: 'x', dir_path: '/etc' })).error?.type).toBe(
      'path_not_in_workspace',
    );
  });
});

describe('read_many_files', () => {
  it('concatenates files with separators and the end marker', async () => {
    const result = await run('read_many_files', { include: ['src/**/*.ts'] });
    expect(tool('read_many_files').kind).toBe('read');
    expect(result.llmContent).toEqual([
      {
        text: `--- ${path.join(cwd, 'src/deep/util.ts')} ---\n\n// TODO: more\nexport const x = 1;\n\n\n`,
      },
      {
        text: `--- ${path.join(cwd, 'src/helper.ts')} ---\n\nexport function helper() {\n  return 42;\n}\n\n\n`,
      },
      {
        text: `--- ${path.join(cwd, 'src/main.ts')} ---\n\nexport function main() {\n  return helper();\n}\n\n\n`,
      },
      { text: '\n--- End of content ---' },
    ]);
    expect(result.returnDisplay).toContain(
      'Successfully read and concatenated content from **3 file(s)**.',
    );
  });

  it('applies default excludes, skips unrequested images, includes requested ones', async () => {
    const all = await run('read_many_files', { include: ['**/*'] });
    const joined = text(all);
    expect(joined).not.toContain('dist/main.js');
    expect(joined).not.toContain('ignored.log');
    expect(joined).not.toContain('secret');
    expect(all.returnDisplay).toContain('asset file (image/pdf) was not explicitly requested');
    const image = await run('read_many_files', { include: ['*.png'] });
    expect(image.llmContent).toEqual([
      {
        inlineData: {
          data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString('base64'),
          mimeType: 'image/png',
        },
      },
      { text: '\n--- End of content ---' },
    ]);
    const none = await run('read_many_files', { include: ['nothing/*.xyz'] });
    expect(none.llmContent).toEqual([
      { text: 'No files matching the criteria were found or all were skipped.' },
    ]);
    const dir = text(await run('read_many_files', { include: ['src/deep'] }));
    expect(dir).toContain('export const x = 1;');
  });
});
