import type { GenerateContentResponse } from '@google/genai';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { buildTurns } from '../parity/reference.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { eventually } from '../acp/helpers/acp-child.js';
import {
  cleanEnv,
  finished,
  runCli,
  spawnCli,
  tempProject,
  type TempProject,
} from './helpers/run-cli.js';

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

describe('gemini-agent -i answers ask_user from its input', () => {
  const questions = [
    {
      question: 'Which auth?',
      header: 'Auth',
      type: 'choice',
      multiSelect: true,
      options: [
        { label: 'OAuth 2.0', description: 'Industry standard' },
        { label: 'API key', description: '' },
      ],
    },
    { question: 'Ship it?', header: 'Ship', type: 'yesno' },
  ];
  const responseOf = (index: number): unknown => {
    const body = server.requests[index]?.body as {
      contents: Array<{ parts: Array<{ functionResponse?: { response: unknown } }> }>;
    };
    return body.contents.at(-1)?.parts[0]?.functionResponse?.response;
  };

  it('one line a question (numbers pick choices, y/n, own text); /cancel dismisses; -p never offers it', async () => {
    await server.close();
    server = new FakeGeminiServer({
      turns: buildTurns([
        { calls: [{ name: 'ask_user', args: { questions }, id: 'q1' }] },
        { text: 'Thanks.' },
        { calls: [{ name: 'ask_user', args: { questions: questions.slice(1) }, id: 'q2' }] },
        { text: 'Fine.' },
        { calls: [{ name: 'ask_user', args: { questions }, id: 'q3' }] },
        { text: 'Noted.' },
        { text: 'Hello.' },
      ]),
    });
    env = cleanEnv(project, {
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: await server.start(),
    });
    const result = await runCli(['-i', 'First.'], {
      cwd: project.cwd,
      env,
      input: '1,2\ny\nAgain.\n/cancel\nThird.\nSAML please\n\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '(1/2) [Auth] Which auth?\n  1. OAuth 2.0 — Industry standard\n  2. API key\n' +
        '  (numbers separated by commas, or type your own answer)\n',
    );
    expect(result.stdout).toContain('(2/2) [Ship] Ship it?\n  1. Yes\n  2. No\n');
    expect(responseOf(1)).toEqual({
      output: JSON.stringify({ answers: { '0': 'OAuth 2.0, API key', '1': 'Yes' } }),
    });
    expect(responseOf(3)).toEqual({ output: 'User dismissed ask_user dialog without answering.' });
    // Own text for a choice question; an empty line leaves the second unanswered.
    expect(responseOf(5)).toEqual({ output: JSON.stringify({ answers: { '0': 'SAML please' } }) });
    expect(result.stdout).toContain('Noted.');
    const headless = await runCli(['-p', 'Hi.'], { cwd: project.cwd, env });
    const declared = (
      (
        server.requests.at(-1)?.body as {
          tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
        }
      ).tools ?? []
    ).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
    expect(headless.code).toBe(0);
    expect(declared).not.toContain('ask_user');
    expect(
      (
        server.requests[0]?.body as {
          tools: Array<{ functionDeclarations: Array<{ name: string }> }>;
        }
      ).tools.flatMap((t) => t.functionDeclarations.map((d) => d.name)),
    ).toContain('ask_user');
  });
});

describe('gemini-agent -i and Ctrl-C', () => {
  it('Ctrl-C cancels the running turn only: the REPL goes on, and the next turn sees the cancelled prompt', async () => {
    let requested!: () => void;
    const modelCalled = new Promise<void>((resolve) => (requested = resolve));
    const slow = new FakeGeminiServer({
      turns: [
        () => {
          requested();
          return {
            chunks: [
              {
                candidates: [{ content: { role: 'model', parts: [{ text: 'too late' }] } }],
              } as GenerateContentResponse,
            ],
            chunkDelayMs: 120_000,
          };
        },
        ...buildTurns([{ text: 'Two.' }]),
      ],
    });
    const url = await slow.start();
    try {
      const child = spawnCli(['-i'], {
        cwd: project.cwd,
        env: cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url }),
        openStdin: true,
      });
      const done = finished(child);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.stdin?.write('Remember KIWI.\n');
      await modelCalled;
      child.kill('SIGINT');
      await eventually(() => stderr.includes('Cancelled.'), 'Cancelled. on stderr');
      child.stdin?.end('And now?\n');
      const result = await done;
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain('too late');
      expect(result.stdout).toContain('Two.');
      expect(slow.requests).toHaveLength(2);
      const texts = JSON.stringify(slow.requests[1]?.body);
      expect(texts).toContain('Remember KIWI.');
      expect(texts).toContain('And now?');
      expect(result.stderr).toMatch(/Session \S+ saved; continue it with: gemini-agent -r /);
    } finally {
      await slow.close();
    }
  });
  it('a Ctrl-C after the turn did its work (during its AfterAgent hook) ends the REPL: nothing is cancelled', async () => {
    // The hook interrupts the CLI while the turn, its answer given, is still ending.
    await mkdir(join(project.home, '.gemini'), { recursive: true });
    await writeFile(
      join(project.home, '.gemini', 'settings.json'),
      JSON.stringify({
        hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'kill -INT $PPID' }] }] },
      }),
    );
    const child = spawnCli(['-i'], { cwd: project.cwd, env, openStdin: true });
    const done = finished(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin?.write('First.\n');
    // The REPL ends by itself, with stdin still open: the Ctrl-C acted at the prompt.
    const ended = await eventually(
      () => /Session \S+ saved/.test(stderr) || stderr.includes('Cancelled.'),
      'the end',
      20_000,
    ).then(
      () => true,
      () => false,
    );
    child.stdin?.end();
    const result = await done;
    expect(ended).toBe(true);
    expect(result.stderr).not.toContain('Cancelled.');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('One.');
    expect(server.requests).toHaveLength(1);
  });
});
