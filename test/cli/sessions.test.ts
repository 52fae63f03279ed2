import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

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

async function newSession(prompt: string, extra: string[] = []): Promise<string> {
  const result = await runCli(
    ['-p', prompt, '--fake-responses', join(FIXTURES, 'remember.jsonl'), '-o', 'json', ...extra],
    { cwd: project.cwd, env: cleanEnv(project) },
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { session_id: string }).session_id;
}

function list(): Promise<string> {
  return runCli(['--list-sessions'], { cwd: project.cwd, env: cleanEnv(project) }).then((r) => {
    expect(r.code).toBe(0);
    return r.stdout;
  });
}

describe('gemini-agent sessions', () => {
  it('--list-sessions shows a session just created, numbered, with its first prompt and id', async () => {
    expect(await list()).toContain('No previous sessions found for this project.');
    const id = await newSession('Remember the word PAPAYA.');
    const output = await list();
    expect(output).toContain('Available sessions for this project (1):');
    expect(output).toMatch(
      new RegExp(`^ {2}1\\. Remember the word PAPAYA\\. \\(Just now\\) \\[${id}\\]$`, 'm'),
    );
  });

  it('-r <id> continues the session: the model receives the earlier turns', async () => {
    const id = await newSession('Remember the word PAPAYA.');
    const server = new FakeGeminiServer({
      turns: [
        [
          {
            candidates: [
              {
                content: { role: 'model', parts: [{ text: 'The word was PAPAYA.' }] },
                finishReason: 'STOP',
              },
            ],
          } as GenerateContentResponse,
        ],
      ],
    });
    const url = await server.start();
    try {
      const result = await runCli(['-r', id, '-p', 'What was the word?'], {
        cwd: project.cwd,
        env: cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url }),
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('The word was PAPAYA.\n');
      const body = server.requests[0]?.body as {
        contents: Array<{ role: string; parts: Array<{ text?: string }> }>;
      };
      const texts = body.contents.flatMap((c) => c.parts.map((p) => `${c.role}:${p.text ?? ''}`));
      expect(texts).toContain('user:Remember the word PAPAYA.');
      expect(texts).toContain('model:OK, I will remember PAPAYA.');
      expect(texts.at(-1)).toBe('user:What was the word?');
    } finally {
      await server.close();
    }
    expect(await list()).toContain('Available sessions for this project (1):');
  });

  it('-r latest, -r N and a bare -r pick sessions as --list-sessions numbers them', async () => {
    const first = await newSession('First prompt.');
    const second = await newSession('Second prompt.');
    const recall = join(FIXTURES, 'recall.jsonl');
    const run = (args: string[]) =>
      runCli([...args, '-p', 'Which word?', '--fake-responses', recall, '-o', 'json'], {
        cwd: project.cwd,
        env: cleanEnv(project),
      });
    const byIndex = await run(['-r', '1']);
    expect(byIndex.code).toBe(0);
    expect((JSON.parse(byIndex.stdout) as { session_id: string }).session_id).toBe(first);
    const latest = await run(['-r', 'latest']);
    expect((JSON.parse(latest.stdout) as { session_id: string }).session_id).toBe(second);
    const bare = await runCli(
      ['-p', 'Which word?', '--fake-responses', recall, '-o', 'json', '-r'],
      {
        cwd: project.cwd,
        env: cleanEnv(project),
      },
    );
    expect((JSON.parse(bare.stdout) as { session_id: string }).session_id).toBe(second);
  });

  it("rejects unknown sessions and duplicate --session-id with exit 42, in gemini's words", async () => {
    const recall = join(FIXTURES, 'recall.jsonl');
    // As gemini: without sessions, -r <id> is an error; -r latest warns and starts a new session.
    const noneById = await runCli(['-r', 'abc', '-p', 'x', '--fake-responses', recall], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(noneById.code).toBe(42);
    expect(noneById.stderr).toBe(
      'Error resuming session: No previous sessions found for this project.\n',
    );
    const none = await runCli(['-r', 'latest', '-p', 'x', '--fake-responses', recall], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No previous sessions found for this project.\n');
    await newSession('Named session.', ['--session-id', 'my-fixed-id']);
    expect(await list()).toContain('[my-fixed-id]');
    const unknown = await runCli(['-r', 'no-such-session', '-p', 'x', '--fake-responses', recall], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(unknown.code).toBe(42);
    expect(unknown.stderr).toMatch(
      /^Error resuming session: Invalid session identifier "no-such-session"\.\n {2}Searched for sessions in \/.*\/chats\.\n/,
    );
    expect(unknown.stderr).toContain('--list-sessions');
    const outOfRange = await runCli(['-r', '5', '-p', 'x', '--fake-responses', recall], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(outOfRange.code).toBe(42);
    expect(outOfRange.stderr).toContain('Invalid session identifier "5"');
    const again = await runCli(
      ['--session-id', 'my-fixed-id', '-p', 'x', '--fake-responses', recall],
      {
        cwd: project.cwd,
        env: cleanEnv(project),
      },
    );
    expect(again.code).toBe(42);
    expect(again.stderr).toBe(
      'Error starting session: Session ID "my-fixed-id" already exists. Use --resume to resume it, or provide a different ID.\n',
    );
  });

  it('--delete-session removes a session by index or id', async () => {
    const first = await newSession('Keep me.');
    const second = await newSession('Delete me.');
    const deleted = await runCli(['--delete-session', '2'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain('Deleted session 2: Delete me.');
    const output = await list();
    expect(output).toContain(`[${first}]`);
    expect(output).not.toContain(`[${second}]`);
    const byId = await runCli(['--delete-session', first], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(byId.code).toBe(0);
    expect(await list()).toContain('No previous sessions found for this project.');
  });

  it("--delete-session with nothing to delete prints gemini 0.61's line on stderr and exits 0", async () => {
    const run = (ref: string) =>
      runCli(['--delete-session', ref], { cwd: project.cwd, env: cleanEnv(project) });
    const none = await run('1');
    expect(none).toMatchObject({
      code: 0,
      stdout: '',
      stderr: 'No sessions found for this project.\n',
    });
    const id = await newSession('Keep me.');
    for (const ref of ['2', '0', 'latest', 'no-such-id']) {
      const missing = await run(ref);
      expect(missing).toMatchObject({
        code: 0,
        stdout: '',
        stderr: `Invalid session identifier "${ref}". Use --list-sessions to see available sessions.\n`,
      });
    }
    expect(await list()).toContain(`[${id}]`);
  });
});
