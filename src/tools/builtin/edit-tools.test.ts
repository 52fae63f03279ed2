import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionContext } from '../../core/session-context.js';
import { createTestSessionContext } from '../../testing/test-session-context.js';
import { createWorkspace } from '../../workspace/workspace.js';
import type { ToolResult } from '../../core/agent-tool.js';
import { createReplaceTool } from './replace.js';
import { diffContextSnippet } from './text-edits.js';
import { createWriteFileTool } from './write-file.js';

let base: string;
let cwd: string;
let ctx: SessionContext;
const call = { callId: 'call-1', signal: new AbortController().signal };
const writeTool = createWriteFileTool();
const replaceTool = createReplaceTool();
const write = (args: Record<string, unknown>): Promise<ToolResult> =>
  writeTool.execute(args, ctx, call);
const replace = (args: Record<string, unknown>): Promise<ToolResult> =>
  replaceTool.execute({ instruction: 'edit', ...args }, ctx, call);
const disk = (relative: string): string => readFileSync(path.join(cwd, relative), 'utf8');

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-edit-tools-'));
  await mkdir(path.join(base, 'ws'), { recursive: true });
  await mkdir(path.join(base, 'outside'), { recursive: true });
  const workspace = createWorkspace({ cwd: path.join(base, 'ws') });
  cwd = workspace.cwd;
  ctx = createTestSessionContext(workspace);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('write_file', () => {
  it('is an edit tool that creates a new file with its parents', async () => {
    expect(writeTool.kind).toBe('edit');
    const result = await write({ file_path: 'pkg/new.txt', content: 'one\ntwo\n' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `Successfully created and wrote to new file: ${path.join(cwd, 'pkg/new.txt')}. Here is the updated code:\none\ntwo\n`,
    );
    expect(disk('pkg/new.txt')).toBe('one\ntwo\n');
  });

  it('overwrites, answering with the changed region and context', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    await writeFile(path.join(cwd, 'big.txt'), lines.join('\n'));
    const changed = [...lines];
    changed[9] = 'CHANGED';
    const result = await write({ file_path: 'big.txt', content: changed.join('\n') });
    expect(result.llmContent).toBe(
      `Successfully overwrote file: ${path.join(cwd, 'big.txt')}. Here is the updated code:\n...\nl5\nl6\nl7\nl8\nl9\nCHANGED\nl11\nl12\nl13\nl14\nl15\n...`,
    );
  });

  it('keeps CRLF line endings of an existing file', async () => {
    await writeFile(path.join(cwd, 'crlf.txt'), 'a\r\nb\r\n');
    await write({ file_path: 'crlf.txt', content: 'a\nc\n' });
    expect(disk('crlf.txt')).toBe('a\r\nc\r\n');
  });

  it('refuses omission placeholders, directories and paths outside the workspace', async () => {
    expect(
      writeTool.validate({ file_path: 'x.ts', content: 'class A {\n  // rest of methods ...\n}' }),
    ).toEqual({
      ok: false,
      error:
        "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
    });
    expect((await write({ file_path: 'pkg', content: 'x' })).error?.type).toBe(
      'target_is_directory',
    );
    const outside = await write({ file_path: '../outside/evil.txt', content: 'x' });
    expect(outside.error?.type).toBe('path_not_in_workspace');
    expect(outside.returnDisplay).toBe('Error: Path not in workspace.');
    expect(await readdir(path.join(base, 'outside'))).toEqual([]);
    expect((await write({ file_path: '.env', content: 'x' })).error?.type).toBe(
      'path_not_in_workspace',
    );
  });
});

describe('replace', () => {
  it('is an edit tool replacing exactly one occurrence', async () => {
    expect(replaceTool.kind).toBe('edit');
    await writeFile(path.join(cwd, 'code.ts'), 'const a = 1;\nconst b = 2;\n');
    const result = await replace({
      file_path: 'code.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
    });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `Successfully modified file: ${path.join(cwd, 'code.ts')} (1 replacements). Here is the updated code:\nconst a = 1;\nconst b = 3;\n`,
    );
    expect(disk('code.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it('needs allow_multiple for several occurrences', async () => {
    await writeFile(path.join(cwd, 'multi.txt'), 'x\nx\ny\n');
    const refused = await replace({ file_path: 'multi.txt', old_string: 'x', new_string: 'z' });
    expect(refused.error).toEqual({
      message: `Failed to edit, Expected 1 occurrence but found 2 for old_string in file: ${path.join(cwd, 'multi.txt')}`,
      type: 'edit_expected_occurrence_mismatch',
    });
    expect(refused.returnDisplay).toBe('Error: Failed to edit, expected 1 occurrence but found 2.');
    expect(disk('multi.txt')).toBe('x\nx\ny\n');
    const done = await replace({
      file_path: 'multi.txt',
      old_string: 'x',
      new_string: 'z',
      allow_multiple: true,
    });
    expect(String(done.llmContent)).toContain('(2 replacements)');
    expect(disk('multi.txt')).toBe('z\nz\ny\n');
  });

  it('matches despite different indentation and re-indents the replacement', async () => {
    await writeFile(
      path.join(cwd, 'indent.py'),
      'def f():\n    if x:\n        return 1\n    return 2\n',
    );
    const result = await replace({
      file_path: 'indent.py',
      old_string: 'if x:\n    return 1',
      new_string: 'if y:\n    return 10',
    });
    expect(result.error).toBeUndefined();
    expect(disk('indent.py')).toBe('def f():\n    if y:\n        return 10\n    return 2\n');
  });

  it('creates a file from an empty old_string and refuses to re-create it', async () => {
    const created = await replace({ file_path: 'made.txt', old_string: '', new_string: 'hello' });
    expect(created.llmContent).toBe(
      `Created new file: ${path.join(cwd, 'made.txt')} with provided content.`,
    );
    expect(disk('made.txt')).toBe('hello');
    const again = await replace({ file_path: 'made.txt', old_string: '', new_string: 'x' });
    expect(again.error?.type).toBe('attempt_to_create_existing_file');
    expect(again.error?.message).toBe(
      `File already exists, cannot create: ${path.join(cwd, 'made.txt')}`,
    );
  });

  it('reports missing text, missing files and no-op edits; keeps CRLF', async () => {
    await writeFile(path.join(cwd, 'w.txt'), 'alpha\r\nbeta\r\n');
    const missing = await replace({ file_path: 'w.txt', old_string: 'gamma', new_string: 'delta' });
    expect(missing.error?.type).toBe('edit_no_occurrence_found');
    expect(missing.error?.message).toContain(
      'Failed to edit, 0 occurrences found for old_string in',
    );
    expect(
      (await replace({ file_path: 'none.txt', old_string: 'a', new_string: 'b' })).error,
    ).toEqual({
      message: `File not found: ${path.join(cwd, 'none.txt')}`,
      type: 'file_not_found',
    });
    expect(
      (await replace({ file_path: 'w.txt', old_string: 'beta', new_string: 'beta' })).error?.type,
    ).toBe('edit_no_change');
    await replace({ file_path: 'w.txt', old_string: 'beta', new_string: 'BETA' });
    expect(disk('w.txt')).toBe('alpha\r\nBETA\r\n');
    expect(
      (await replace({ file_path: '/etc/hosts', old_string: 'a', new_string: 'b' })).error?.type,
    ).toBe('path_not_in_workspace');
  });

  it('describes calls as gemini-cli does', () => {
    expect(
      replaceTool.describe({
        file_path: 'a.ts',
        old_string: '',
        new_string: 'x',
        instruction: 'i',
      }),
    ).toBe('Create a.ts');
    expect(
      replaceTool.describe({
        file_path: 'a.ts',
        old_string: 'foo',
        new_string: 'bar',
        instruction: 'i',
      }),
    ).toBe('a.ts: foo => bar');
  });
});

describe('diffContextSnippet', () => {
  it('returns the new content for a new file and marks elided regions', () => {
    expect(diffContextSnippet('', 'x\ny')).toBe('x\ny');
    expect(diffContextSnippet('a\nb\nc', 'a\nB\nc', 0)).toBe('...\nB\n...');
    expect(diffContextSnippet('same', 'same')).toBe('same');
  });
});
