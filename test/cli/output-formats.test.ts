import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';
import { parseStreamJson } from './helpers/stream-json-schema.js';

const HELLO = join(ROOT, 'test', 'cli', 'fixtures', 'hello.jsonl');
const TOOLS = join(ROOT, 'test', 'cli', 'fixtures', 'tools.jsonl');
const SKILLS = join(ROOT, 'examples', 'skills');

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

describe('gemini-agent output formats', () => {
  it('text: only the answer on stdout, with a final newline; nothing on stderr off a terminal', async () => {
    const result = await runCli(['-p', 'Say hello.', '--fake-responses', HELLO], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('Hello from the replay.\n');
    expect(result.code).toBe(0);
  });

  it('json: one pretty object with session_id, response and stats', async () => {
    const result = await runCli(['-p', 'Say hello.', '--fake-responses', HELLO, '-o', 'json'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{\n {2}"session_id": "/);
    const body = JSON.parse(result.stdout) as {
      session_id: string;
      response: string;
      stats: {
        models: Record<string, { api: { totalRequests: number }; tokens: { total: number } }>;
      };
      error?: unknown;
    };
    expect(body.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.response).toBe('Hello from the replay.');
    expect(body.error).toBeUndefined();
    const models = Object.values(body.stats.models);
    expect(models).toHaveLength(1);
    expect(models[0]?.api.totalRequests).toBe(1);
    expect(models[0]?.tokens.total).toBeGreaterThan(120);
  });

  it("stream-json: every line fits gemini's schema, tools included, and tool_result carries the display text", async () => {
    await writeFile(join(project.cwd, 'README.md'), 'Hello README, line one.\n');
    const result = await runCli(
      [
        '-p',
        'Read the README.',
        '--fake-responses',
        TOOLS,
        '--skills',
        SKILLS,
        '-o',
        'stream-json',
      ],
      { cwd: project.cwd, env: cleanEnv(project) },
    );
    expect(result.stderr).toBe('');
    const lines = parseStreamJson(result.stdout);
    expect(result.code).toBe(0);
    expect(lines.map((l) => l.type)).toEqual([
      'init',
      'message',
      'message',
      'tool_use',
      'tool_use',
      'tool_result',
      'tool_result',
      'message',
      'message',
      'result',
    ]);
    const [init, user] = lines;
    expect(init).toMatchObject({ type: 'init', model: expect.any(String) });
    expect(user).toMatchObject({ role: 'user', content: 'Read the README.' });
    const uses = lines.filter((l) => l.type === 'tool_use');
    expect(uses.map((u) => u.tool_name)).toEqual(['read_file', 'activate_skill']);
    const results = lines.filter((l) => l.type === 'tool_result');
    expect(results.map((r) => r.tool_id)).toEqual(uses.map((u) => u.tool_id));
    expect(results.every((r) => r.status === 'success')).toBe(true);
    // gemini's output is the call's display text: nothing for a whole file read (the model got the file).
    expect(results[0]?.output).toBe('');
    expect(results[1]?.output).toContain('haiku-poet');
    const answer = lines
      .filter((l) => l.type === 'message' && l.role === 'assistant')
      .map((l) => (l.type === 'message' ? l.content : ''))
      .join('');
    expect(answer).toBe('Let me look.The README says hello.\nSkill active.');
    const last = lines.at(-1);
    expect(last).toMatchObject({ type: 'result', status: 'success', stats: { tool_calls: 2 } });
  });

  it('prepends piped stdin to the prompt, as gemini does', async () => {
    const result = await runCli(
      ['-p', 'Summarize it.', '--fake-responses', HELLO, '-o', 'stream-json'],
      {
        cwd: project.cwd,
        env: cleanEnv(project),
        input: 'Some piped notes.',
      },
    );
    expect(result.code).toBe(0);
    const user = parseStreamJson(result.stdout)[1];
    expect(user).toMatchObject({
      type: 'message',
      role: 'user',
      content: 'Some piped notes.\n\nSummarize it.',
    });
  });

  it('accepts a positional prompt, and stdin alone as the prompt', async () => {
    const positional = await runCli(
      ['Say', 'hello.', '--fake-responses', HELLO, '-o', 'stream-json'],
      {
        cwd: project.cwd,
        env: cleanEnv(project),
      },
    );
    expect(positional.code).toBe(0);
    expect(parseStreamJson(positional.stdout)[1]).toMatchObject({ content: 'Say hello.' });
    const piped = await runCli(['--fake-responses', HELLO, '-o', 'stream-json'], {
      cwd: project.cwd,
      env: cleanEnv(project),
      input: 'Say hello from stdin.',
    });
    expect(piped.code).toBe(0);
    expect(parseStreamJson(piped.stdout)[1]).toMatchObject({ content: 'Say hello from stdin.' });
  });

  it('prints --help and --version on stdout', async () => {
    const help = await runCli(['--help'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--output-format');
    expect(help.stdout).toContain('--resume');
    const version = await runCli(['--version'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
