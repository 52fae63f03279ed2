import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

const ESC = '\u001b';
/** Model text with a colour, a window title (OSC) and a clipboard write (OSC 52). */
const ANSWER = `${ESC}[31mred${ESC}[0m ${ESC}]0;pwned${ESC}\\ ${ESC}]52;c;ZWNobyBoaQ==\u0007done`;

let project: TempProject;
let replay: string;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  replay = join(project.cwd, '..', 'ansi.jsonl');
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP' }],
  };
  await writeFile(
    replay,
    `${JSON.stringify({ method: 'generateContentStream', response: [chunk] })}\n`,
  );
});
afterEach(async () => {
  await project.cleanup();
});

describe('model text and escape sequences, as gemini -p', () => {
  it('strips escape sequences by default, even to a pipe, in every format', async () => {
    const opts = { cwd: project.cwd, env: cleanEnv(project) };
    const text = await runCli(['-p', 'hi', '--fake-responses', replay], opts);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('red  done\n');
    const json = await runCli(['-p', 'hi', '--fake-responses', replay, '-o', 'json'], opts);
    expect((JSON.parse(json.stdout) as { response: string }).response).toBe('red  done');
    const stream = await runCli(
      ['-p', 'hi', '--fake-responses', replay, '-o', 'stream-json'],
      opts,
    );
    expect(stream.stdout).not.toContain('\\u001b');
  });

  it('--raw-output prints the text as sent, with a warning; --accept-raw-output-risk silences it', async () => {
    const opts = { cwd: project.cwd, env: cleanEnv(project) };
    const raw = await runCli(['-p', 'hi', '--fake-responses', replay, '--raw-output'], opts);
    expect(raw.code).toBe(0);
    expect(raw.stdout).toBe(`${ANSWER}\n`);
    expect(raw.stderr).toContain('[WARNING] --raw-output is enabled.');
    const accepted = await runCli(
      ['-p', 'hi', '--fake-responses', replay, '--raw-output', '--accept-raw-output-risk'],
      opts,
    );
    expect(accepted.stdout).toBe(`${ANSWER}\n`);
    expect(accepted.stderr).toBe('');
  });
});

describe('flags gemini has and gemini-agent refuses plainly', () => {
  it('-s/--sandbox exits 44 saying it is not supported here', async () => {
    const result = await runCli(['-s', '-p', 'hi', '--fake-responses', replay], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(44);
    expect(result.stderr).toContain('-s/--sandbox is not supported by gemini-agent');
    expect(result.stdout).toBe('');
  });
});
