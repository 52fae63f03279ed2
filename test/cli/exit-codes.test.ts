import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import {
  cleanEnv,
  finished,
  runCli,
  spawnCli,
  tempProject,
  type TempProject,
} from './helpers/run-cli.js';
import { parseStreamJson } from './helpers/stream-json-schema.js';

const FIXTURES = join(ROOT, 'test', 'cli', 'fixtures');

function textChunks(text: string): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    } as GenerateContentResponse,
  ];
}

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

describe('gemini-agent exit codes', () => {
  it('41: no credentials, and the message names GEMINI_API_KEY', async () => {
    const result = await runCli(['-p', 'hello'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(result.code).toBe(41);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('GEMINI_API_KEY');
  });

  it('41 in stream-json too, reported as an error result', async () => {
    const result = await runCli(['-p', 'hello', '-o', 'stream-json'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(41);
    const last = parseStreamJson(result.stdout).at(-1);
    expect(last).toMatchObject({
      type: 'result',
      status: 'error',
      error: { type: 'MissingCredentialsError' },
    });
  });

  it("1 (gemini's yargs code): an unknown flag, named in one line; nothing on stdout", async () => {
    const result = await runCli(['--no-such-flag', '-p', 'hello'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("'--no-such-flag'");
    expect(result.stderr).toContain('--help');
  });

  it('1: a bad flag value; 42: no prompt at all', async () => {
    const bad = await runCli(['-p', 'x', '-o', 'xml'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--output-format');
    const none = await runCli([], { cwd: project.cwd, env: cleanEnv(project) });
    expect(none.code).toBe(42);
    expect(none.stderr).toContain('-p');
  });

  it('1 in -o json and -o stream-json: the bad flag is a JSON error on stdout', async () => {
    const opts = { cwd: project.cwd, env: cleanEnv(project) };
    const json = await runCli(['-o', 'json', '-p', 'x', '--no-such-flag'], opts);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        type: 'CliFlagError',
        message: expect.stringContaining("'--no-such-flag'"),
        code: 1,
      },
    });
    const stream = await runCli(
      ['--max-turns', 'zero', '--output-format=stream-json', '-p', 'x'],
      opts,
    );
    expect(stream.code).toBe(1);
    const lines = parseStreamJson(stream.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: 'result',
      status: 'error',
      error: { type: 'CliFlagError', message: expect.stringContaining('--max-turns') },
      stats: { total_tokens: 0, tool_calls: 0 },
    });
  });

  it('52 in -o json: a replay that ran out names the request, without its tool declarations', async () => {
    const replay = join(project.cwd, 'short.jsonl');
    const call = { functionCall: { name: 'list_directory', args: { dir_path: '.' } } };
    await writeFile(
      replay,
      `${JSON.stringify({
        method: 'generateContentStream',
        response: [
          { candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP' }] },
        ],
      })}\n`,
    );
    const opts = { cwd: project.cwd, env: cleanEnv(project) };
    const json = await runCli(
      ['-p', 'List the files.', '--fake-responses', replay, '-o', 'json'],
      opts,
    );
    expect(json.code).toBe(52);
    const { error } = JSON.parse(json.stdout) as { error: { type: string; message: string } };
    expect(error.type).toBe('ReplayError');
    expect(error.message).toMatch(
      /^No more mock responses for generateContentStream, got request 2 \(model "[^"]+", 3 contents, the last \(user\): functionResponse list_directory; not shown: \d+ tool declarations?, a [\d,]+-character system instruction\)/,
    );
    expect(error.message).toContain(replay);
    expect(error.message.length).toBeLessThan(1000);
    const stream = await runCli(
      ['-p', 'List the files.', '--fake-responses', replay, '-o', 'stream-json'],
      opts,
    );
    expect(stream.code).toBe(52);
    expect(parseStreamJson(stream.stdout).at(-1)).toMatchObject({
      type: 'result',
      status: 'error',
      error: { type: 'ReplayError', message: error.message },
    });
  });

  it('52: a replay file that does not exist', async () => {
    const result = await runCli(['-p', 'x', '--fake-responses', 'missing.jsonl'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(52);
    expect(result.stderr).toContain('missing.jsonl');
  });

  it('53: the model keeps calling tools past --max-turns', async () => {
    const result = await runCli(
      [
        '-p',
        'Explore.',
        '--fake-responses',
        join(FIXTURES, 'turn-limit.jsonl'),
        '--max-turns',
        '2',
        '-o',
        'stream-json',
      ],
      { cwd: project.cwd, env: cleanEnv(project) },
    );
    expect(result.code).toBe(53);
    const lines = parseStreamJson(result.stdout);
    expect(lines.filter((l) => l.type === 'tool_use')).toHaveLength(2);
    expect(lines).toContainEqual(
      expect.objectContaining({
        type: 'error',
        severity: 'error',
        message: 'Maximum session turns exceeded',
      }),
    );
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      status: 'error',
      error: { type: 'TurnLimitError' },
    });
  });

  it('130: Ctrl-C mid-stream aborts, saves the session, and -r then continues it', async () => {
    let requested!: () => void;
    const modelCalled = new Promise<void>((resolve) => (requested = resolve));
    const slow = new FakeGeminiServer({
      turns: [
        () => {
          requested();
          return { chunks: textChunks('too late'), chunkDelayMs: 120_000 };
        },
      ],
    });
    const baseUrl = await slow.start();
    try {
      const child = spawnCli(['-p', 'Remember the word KIWI.', '-o', 'stream-json'], {
        cwd: project.cwd,
        env: cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: baseUrl }),
      });
      const done = finished(child);
      await modelCalled;
      child.kill('SIGINT');
      const result = await done;
      expect(result.code).toBe(130);
      const lines = parseStreamJson(result.stdout);
      const init = lines[0];
      if (init?.type !== 'init') throw new Error('no init line');
      expect(lines.at(-1)).toMatchObject({
        type: 'result',
        status: 'error',
        error: { type: 'AbortError' },
      });

      // The interrupted session is listed and resumable; the resumed request carries the saved prompt.
      const list = await runCli(['--list-sessions'], { cwd: project.cwd, env: cleanEnv(project) });
      expect(list.stdout).toContain(`[${init.session_id}]`);
      const server = new FakeGeminiServer({ turns: [textChunks('The word was KIWI.')] });
      const url = await server.start();
      try {
        const resumed = await runCli(['-r', init.session_id, '-p', 'Which word?', '-o', 'json'], {
          cwd: project.cwd,
          env: cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url }),
        });
        expect(resumed.stderr).toBe('');
        expect(resumed.code).toBe(0);
        const body = JSON.parse(resumed.stdout) as { session_id: string; response: string };
        expect(body).toMatchObject({ session_id: init.session_id, response: 'The word was KIWI.' });
        const sent = JSON.stringify(server.requests[0]?.body);
        expect(sent).toContain('Remember the word KIWI.');
        expect(sent).toContain('Which word?');
      } finally {
        await server.close();
      }
    } finally {
      await slow.close();
    }
  });
});
