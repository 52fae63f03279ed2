import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/built-cli.js';
import { cleanEnv, tempProject, type TempProject } from './helpers/run-cli.js';

const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const TSCONFIG = join(ROOT, 'examples', 'tsconfig.json');

let project: TempProject;
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.cleanup();
});

/** Runs an example file on its bundled replay (no key in the environment) and returns its stdout. */
async function runExample(name: string, env = cleanEnv(project)): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [TSX, '--tsconfig', TSCONFIG, join(ROOT, 'examples', name)],
    { cwd: ROOT, env, timeout: 60_000 },
  );
  expect(stderr).toBe('');
  return stdout;
}

describe('examples run on their bundled replays without a key', () => {
  it('simple.ts looks at the project and says what it does', async () => {
    const out = await runExample('simple.ts');
    expect(out).toContain('[tool] read_file {"file_path":"package.json"}');
    expect(out).toContain('[tool] read_file → ok');
    expect(out).toContain('This project is **gemini-agent-sdk**');
  });

  it('without GEMINI_CLI_HOME an example stores its sessions in a temp home, never in ~/.gemini', async () => {
    const env = cleanEnv(project);
    delete env['GEMINI_CLI_HOME'];
    expect(await runExample('resume.ts', env)).toContain('The word was BANANA.');
    expect(await readdir(project.home)).toEqual([]);
  });

  it('tools.ts runs the add tool with the model arguments', async () => {
    const out = await runExample('tools.ts');
    expect(out).toContain('[model calls] add({"a":23,"b":79})');
    expect(out).toContain('[tool result] { "result": 102 }');
    expect(out).toContain('23 + 79 = 102.');
  });

  it('skills.ts activates the haiku skill', async () => {
    const out = await runExample('skills.ts');
    expect(out).toContain('[skill activated] haiku-poet');
    expect(out).toContain('Types guard every path');
  });

  it('session-context.ts gives the tool the session and the workspace', async () => {
    const out = await runExample('session-context.ts');
    expect(out).toMatch(/"sessionId": "[0-9a-f-]{36}"/);
    expect(out).toContain(`"cwd": ${JSON.stringify(ROOT)}`);
    expect(out).toContain('"packageName": "gemini-agent-sdk"');
  });

  it('features.ts: the feature tool runs, its interceptors see the calls, its teardown runs on close', async () => {
    const out = await runExample('features.ts');
    expect(out).toContain('There are 4 words in "the quick brown fox".');
    expect(out).toContain(
      [
        '[audit] session started',
        '[audit] model call 1',
        '[audit] word_count({"text":"the quick brown fox"}) -> 4',
        '[audit] model call 2',
        '[audit] session closed',
      ].join('\n'),
    );
  });

  it('resume.ts continues the same session from a new agent', async () => {
    const out = await runExample('resume.ts');
    const first = /\[session ([^\]]+)\] OK\. I will remember BANANA\./.exec(out);
    expect(first).not.toBeNull();
    expect(out).toContain(`[resumed ${first?.[1]}] The word was BANANA.`);
  });

  it('approvals.ts allows the write, refuses the shell command, and the file is written', async () => {
    const out = await runExample('approvals.ts');
    expect(out).toMatch(/\[approval\] write_file: .* → allow/);
    expect(out).toMatch(/\[approval\] run_shell_command: rm -rf build.* → deny/);
    expect(out).toContain('[tool] write_file done');
    expect(out).toMatch(/\[tool\] run_shell_command refused: /);
    expect(out).toContain('[workspace] notes/todo.md contains: "- ship the CLI\\n"');
  });

  it('npm run demo shows a tool call, a skill activation and a resumed session', async () => {
    const env = cleanEnv(project);
    delete env['GEMINI_CLI_HOME'];
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts', 'demo.mjs')],
      {
        cwd: ROOT,
        env,
        timeout: 60_000,
      },
    );
    expect(stdout).toContain('replaying examples/replays/demo-*.jsonl');
    expect(stdout).toContain('tool    › convert_temperature {"celsius":21}');
    expect(stdout).toContain('result  › { "celsius": 21, "fahrenheit": 69.8 }');
    expect(stdout).toContain('tool    › activate_skill {"name":"haiku-poet"}');
    expect(stdout).toContain('sixty-nine point eight Fahrenheit');
    expect(stdout).toMatch(/a new agent resumes session [0-9a-f-]{36}/);
    expect(stdout).toContain('gemini  › We converted 21 °C to Fahrenheit: 69.8 °F.');
  });
});
