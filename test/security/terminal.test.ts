/**
 * Terminal injection: text the model or a file controls never reaches a terminal as escape sequences. The
 * CLI is run in-process with a terminal stdout; the same run into a pipe keeps the bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';
import { sanitizeTerminalText } from '../../src/cli/terminal-text.js';

const HOSTILE =
  'title\x1b]0;pwned\x07 clear\x1b[2J\x1b[H link\x1b]8;;http://evil\x1b\\x\x1b]8;;\x1b\\ ' +
  'clip\x1b]52;c;cm0gLXJmIH4=\x07 over\rwrite c1\x9b31m bell\x07 bidi\u202etxt.exe\u202c del\x7f end';

const base = mkdtempSync(path.join(os.tmpdir(), 'terminal-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('sanitizeTerminalText', () => {
  it('removes escape sequences, C0/C1 controls and bidi overrides; keeps tab and newline', () => {
    const clean = sanitizeTerminalText(`${HOSTILE}\tnext\nline\r\n`);
    // eslint-disable-next-line no-control-regex
    expect(clean).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(clean).toContain('\tnext\nline\n');
    expect(clean).toContain('title');
    expect(clean).toContain('over\nwrite');
  });
});

function io(stdoutIsTTY: boolean, argv: string[], cwd: string): { io: CliIo; out: () => string } {
  let out = '';
  return {
    io: {
      argv,
      cwd,
      stdin: emptyStdin(),
      stdout: (text) => {
        out += text;
      },
      stderr: () => undefined,
      stdoutIsTTY,
      // No progress line: its own control codes are not under test here.
      stderrIsTTY: false,
      onInterrupt: () => () => undefined,
    },
    out: () => out,
  };
}

describe('gemini-agent output', () => {
  it('model text is sanitised on a terminal, stripped of escape sequences in a pipe (as gemini), raw only with --raw-output', async () => {
    const cwd = path.join(base, 'project');
    const home = path.join(base, 'home');
    for (const dir of [cwd, home]) rmSync(dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => Promise.all([fs.mkdir(cwd), fs.mkdir(home)]));
    const responses = path.join(base, 'responses.jsonl');
    const chunk = {
      candidates: [
        { content: { role: 'model', parts: [{ text: HOSTILE }] }, finishReason: 'STOP' },
      ],
    };
    writeFileSync(
      responses,
      `${JSON.stringify({ method: 'generateContentStream', response: [chunk] })}\n`.repeat(2),
    );
    const saved = { HOME: process.env.HOME, GEMINI_CLI_HOME: process.env.GEMINI_CLI_HOME };
    process.env.HOME = home;
    process.env.GEMINI_CLI_HOME = home;
    try {
      const args = ['-p', 'hello', '--fake-responses', responses];
      const tty = io(true, args, cwd);
      expect(await runCli(tty.io)).toBe(0);
      // eslint-disable-next-line no-control-regex
      expect(tty.out()).not.toMatch(/[\x1b\x07\x9b\u202e]/);
      expect(tty.out()).toContain('title');
      const pipe = io(false, args, cwd);
      expect(await runCli(pipe.io)).toBe(0);
      expect(pipe.out()).not.toContain('\x1b');
      expect(pipe.out()).toContain('over\rwrite');
      const raw = io(false, [...args, '--raw-output', '--accept-raw-output-risk'], cwd);
      expect(await runCli(raw.io)).toBe(0);
      expect(raw.out()).toContain('\x1b]0;pwned\x07');
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

function emptyStdin(): CliIo['stdin'] {
  return { isTTY: true } as unknown as CliIo['stdin'];
}
