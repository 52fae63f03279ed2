import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { buildTurns } from '../parity/reference.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

let project: TempProject;
let server: FakeGeminiServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  server = new FakeGeminiServer({
    turns: buildTurns([{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }]),
  });
  const url = await server.start();
  env = cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

/** The user texts of a request, after the first turn's session context. */
function userTexts(index: number): string[] {
  const body = server.requests[index]?.body as {
    contents: Array<{ role: string; parts: Array<{ text?: string }> }>;
  };
  return body.contents
    .filter((c) => c.role === 'user')
    .flatMap((c) => c.parts.map((p) => p.text ?? ''))
    .filter((t) => !t.startsWith('<session_context>'));
}

describe('gemini-agent -i (interactive, line by line)', () => {
  it('runs the -i prompt, then each piped line as a turn of one saved session; commands start with /', async () => {
    const result = await runCli(['-i', 'First.'], {
      cwd: project.cwd,
      env,
      input: 'Second.\n\n/stats\n/bogus\nThird.\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('One.\nTwo.\n');
    expect(result.stdout).toMatch(/Turns: +2\n {2}Requests: +2\n/);
    expect(result.stdout.endsWith('Three.\n')).toBe(true);
    expect(result.stderr).toContain('Unknown command: /bogus. Type /help for the commands.');
    expect(server.requests).toHaveLength(3);
    expect(userTexts(2)).toEqual(['First.', 'Second.', 'Third.']);
    const id = /Session (\S+) saved; continue it with: gemini-agent -r \1/.exec(result.stderr)?.[1];
    expect(id).toBeDefined();
    const listed = await runCli(['--list-sessions'], { cwd: project.cwd, env });
    expect(listed.stdout).toContain(`[${id}]`);
    expect(listed.stdout).toContain('(1)');
  });

  it('a bare -i waits for the first line; /quit ends it and later lines are not sent', async () => {
    const result = await runCli(['-i'], {
      cwd: project.cwd,
      env,
      input: 'Hello.\n/quit\nNever sent.\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('One.\n');
    expect(server.requests).toHaveLength(1);
  });

  it('-r continues a stored session interactively', async () => {
    const first = await runCli(['-p', 'Remember.', '-o', 'json'], { cwd: project.cwd, env });
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const result = await runCli(['-r', id, '-i'], { cwd: project.cwd, env, input: 'And now?\n' });
    expect(result.code).toBe(0);
    expect(userTexts(1)).toEqual(['Remember.', 'And now?']);
  });

  it('-i prints text: a JSON output format is refused with one line', async () => {
    const result = await runCli(['-i', 'x', '-o', 'json'], { cwd: project.cwd, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('-i/--prompt-interactive prints text');
  });
});
