import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';
import { parseStreamJson, type StreamJsonLine } from './helpers/stream-json-schema.js';

const FIXTURES = join(ROOT, 'test', 'cli', 'fixtures');

let project: TempProject;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.cleanup();
});

function toolResults(lines: StreamJsonLine[]) {
  return lines.flatMap((l) => (l.type === 'tool_result' ? [l] : []));
}

describe('gemini-agent tools, workspace and approval modes', () => {
  it('--include-directories adds a workspace root the built-in tools may read', async () => {
    const shared = join(dirname(project.cwd), 'shared');
    await mkdir(shared, { recursive: true });
    await writeFile(join(shared, 'notes.md'), 'Shared secret notes.\n');
    const args = [
      '-p',
      'Read the shared notes.',
      '--fake-responses',
      join(FIXTURES, 'include-dirs.jsonl'),
      '-o',
      'stream-json',
    ];

    const outside = parseStreamJson(
      (await runCli(args, { cwd: project.cwd, env: cleanEnv(project) })).stdout,
    );
    expect(toolResults(outside)[0]?.status).toBe('error');
    expect(JSON.stringify(outside)).not.toContain('Shared secret notes.');

    const included = await runCli([...args, '--include-directories', shared], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(included.code).toBe(0);
    const result = toolResults(parseStreamJson(included.stdout))[0];
    expect(result?.status).toBe('success');
    expect(result?.output).toBe('');
  });

  it('default mode does not offer write_file in headless mode (a call finds no tool); -y and --approval-mode yolo allow it', async () => {
    const args = [
      '-p',
      'Write the file.',
      '--fake-responses',
      join(FIXTURES, 'write-file.jsonl'),
      '-o',
      'stream-json',
    ];
    const target = join(project.cwd, 'out.txt');

    const denied = await runCli(args, { cwd: project.cwd, env: cleanEnv(project) });
    expect(denied.code).toBe(0);
    const refusal = toolResults(parseStreamJson(denied.stdout))[0];
    expect(refusal).toMatchObject({ status: 'error' });
    expect(refusal?.error?.message).toMatch(/^Tool "write_file" not found\./);
    await expect(stat(target)).rejects.toThrow();

    const yolo = await runCli([...args, '-y'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(yolo.code).toBe(0);
    expect(toolResults(parseStreamJson(yolo.stdout))[0]?.status).toBe('success');
    expect(await readFile(target, 'utf8')).toBe('written by the model\n');

    const plan = await runCli([...args, '--approval-mode', 'plan'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(toolResults(parseStreamJson(plan.stdout))[0]?.status).toBe('error');
  });

  it('--record-responses writes a file that --fake-responses replays to the same answer', async () => {
    const recording = join(project.cwd, 'recorded.jsonl');
    const first = await runCli(
      [
        '-p',
        'Say hello.',
        '--fake-responses',
        join(FIXTURES, 'hello.jsonl'),
        '--record-responses',
        recording,
      ],
      { cwd: project.cwd, env: cleanEnv(project) },
    );
    expect(first.code).toBe(0);
    const lines = (await readFile(recording, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ method: 'generateContentStream' });
    const replayed = await runCli(['-p', 'Say hello.', '--fake-responses', 'recorded.jsonl'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(first.stdout);
  });
});
