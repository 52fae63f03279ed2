import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everythingStdio, faultServer } from '../mcp/helpers/mcp-servers.js';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

/** What gemini 0.61 wrote for each `gemini mcp add|remove` step (scripts/gemini-reference/record-mcp-commands.mjs). */
interface RecordedStep {
  argv: string[];
  status: number;
  stderr: string;
  user: unknown;
  project: unknown;
}
const recorded = JSON.parse(
  readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'gemini-0.61-mcp-commands.json'), 'utf8'),
) as { steps: RecordedStep[] };

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

const userFile = () => join(project.home, '.gemini', 'settings.json');
const projectFile = () => join(project.cwd, '.gemini', 'settings.json');
const readJson = (file: string): unknown =>
  existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
const run = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, { cwd: project.cwd, env: cleanEnv(project, extra) });

function trustProject(): void {
  mkdirSync(join(project.home, '.gemini'), { recursive: true });
  writeFileSync(
    join(project.home, '.gemini', 'trustedFolders.json'),
    JSON.stringify({ [project.cwd]: 'TRUST_FOLDER' }),
  );
}

describe('gemini-agent mcp add | remove', () => {
  it('writes the settings files step by step exactly as gemini 0.61 does', async () => {
    trustProject();
    for (const step of recorded.steps) {
      const result = await run(step.argv);
      expect(result.code, step.argv.join(' ')).toBe(step.status);
      // gemini prints these lines on stderr through its debug logger; we print them on stdout.
      expect(result.stdout, step.argv.join(' ')).toBe(step.stderr);
      expect(readJson(userFile()), step.argv.join(' ')).toEqual(step.user);
      expect(readJson(projectFile()), step.argv.join(' ')).toEqual(step.project);
    }
  });

  it('keeps comments and other keys, and splits lists and values where gemini would lose them', async () => {
    mkdirSync(join(project.cwd, '.gemini'), { recursive: true });
    const original = '{\n  // my theme\n  "ui": { "theme": "GitHub" } /* kept */\n}\n';
    writeFileSync(projectFile(), original);
    const added = await run([
      'mcp',
      'add',
      'api',
      'node',
      'server.js',
      '-e',
      'URL=https://x.test/?a=b',
      '--include-tools',
      'one,two',
      '--include-tools=three',
    ]);
    expect(added.code).toBe(0);
    const text = readFileSync(projectFile(), 'utf8');
    expect(text).toContain('// my theme');
    expect(text).toContain('/* kept */');
    expect(JSON.parse(text.replace('// my theme', '').replace('/* kept */', ''))).toEqual({
      ui: { theme: 'GitHub' },
      mcpServers: {
        api: {
          command: 'node',
          args: ['server.js'],
          env: { URL: 'https://x.test/?a=b' },
          includeTools: ['one', 'two', 'three'],
        },
      },
    });
    expect((await run(['mcp', 'remove', 'api'])).code).toBe(0);
    const after = readFileSync(projectFile(), 'utf8');
    expect(after).toContain('// my theme');
    expect(JSON.parse(after.replace('// my theme', '').replace('/* kept */', ''))).toEqual({
      ui: { theme: 'GitHub' },
      mcpServers: {},
    });
  });

  it('refuses bad input with exit code 42 and leaves the files alone', async () => {
    mkdirSync(join(project.cwd, '.gemini'), { recursive: true });
    writeFileSync(projectFile(), '{ "mcpServers": { "keep": { "command": "x" } } }');
    const before = readFileSync(projectFile(), 'utf8');
    const cases: Array<[string[], RegExp]> = [
      [
        ['mcp', 'add', '-t', 'http', 'web', 'file:///etc/passwd'],
        /not an http:\/\/ or https:\/\/ URL/,
      ],
      [
        ['mcp', 'add', '-t', 'ws', 'web', 'http://x.test'],
        /--transport must be stdio, sse or http/,
      ],
      [['mcp', 'add', 'only-a-name'], /Usage: gemini-agent mcp add/],
      [['mcp', 'add', 's', 'cmd', '-e', 'NOEQUALS'], /-e expects KEY=value/],
      [
        ['mcp', 'add', '-t', 'sse', 's', 'http://x.test', '-H', 'novalue'],
        /-H expects "Name: value"/,
      ],
      [['mcp', 'add', 's', 'cmd', '--timeout', 'soon'], /--timeout must be a number/],
      [['mcp', 'add', '--scope', 'team', 's', 'cmd'], /--scope must be user or project/],
      [['mcp', 'remove'], /Usage: gemini-agent mcp remove/],
      [['mcp', 'frobnicate'], /Unknown mcp command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).toBe(42);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    expect(readFileSync(projectFile(), 'utf8')).toBe(before);

    writeFileSync(projectFile(), '{ "mcpServers": { oops } }');
    const broken = await run(['mcp', 'add', 'x', 'cmd']);
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/is not valid JSON.*left unchanged/);
    expect(readFileSync(projectFile(), 'utf8')).toBe('{ "mcpServers": { oops } }');
  });

  it('asks for --scope user in the home folder, as gemini', async () => {
    const result = await runCli(['mcp', 'add', 'x', 'cmd'], {
      cwd: project.home,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(42);
    expect(result.stderr).toContain(
      'Please use --scope user to edit settings in the home directory.',
    );
  });
});

describe('gemini-agent mcp list', () => {
  it('connects to each server and shows connected, disconnected and blocked ones', async () => {
    trustProject();
    mkdirSync(join(project.cwd, '.gemini'), { recursive: true });
    writeFileSync(
      projectFile(),
      JSON.stringify({
        mcp: { excluded: ['blocked'] },
        mcpServers: {
          everything: everythingStdio(),
          broken: { command: '/no/such/server' },
          blocked: faultServer(),
        },
      }),
    );
    const result = await run(['mcp', 'list']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('Configured MCP servers:');
    expect(lines).toContainEqual(expect.stringMatching(/^✓ everything: .* \(stdio\) - Connected$/));
    expect(lines).toContainEqual('✗ broken: /no/such/server (stdio) - Disconnected');
    expect(lines).toContainEqual(expect.stringMatching(/^⛔ blocked: .* \(stdio\) - Blocked$/));
  });

  it('in an untrusted folder lists every server as disabled and starts none', async () => {
    const pidFile = join(project.cwd, 'pid');
    mkdirSync(join(project.cwd, '.gemini'), { recursive: true });
    writeFileSync(
      projectFile(),
      JSON.stringify({ mcpServers: { fault: faultServer('default', { pidFile }) } }),
    );
    const result = await run(['mcp', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Warning: MCP servers are configured but disabled because this folder is untrusted.',
    );
    expect(result.stdout).toMatch(/○ fault: .* \(stdio\) - Disabled/);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('says so when nothing is configured', async () => {
    const result = await run(['mcp', 'list']);
    expect(result.stdout).toBe('No MCP servers configured.\n');
  });
});

describe('gemini-agent -p with the settings’ MCP servers', () => {
  it('offers and runs a trusted server’s tool from settings.json', async () => {
    trustProject();
    mkdirSync(join(project.cwd, '.gemini'), { recursive: true });
    writeFileSync(
      projectFile(),
      JSON.stringify({ mcpServers: { fault: faultServer('default', { trust: true }) } }),
    );
    const replay = join(project.cwd, 'replay.jsonl');
    const turn = (parts: unknown[]) =>
      JSON.stringify({
        method: 'generateContentStream',
        response: [{ candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP' }] }],
      });
    writeFileSync(
      replay,
      `${turn([{ functionCall: { name: 'mcp_fault_echo', args: { text: 'via settings' } } }])}\n${turn([{ text: 'Done.' }])}\n`,
    );
    const result = await run(['-p', 'echo', '--fake-responses', replay, '-o', 'stream-json']);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_use', tool_name: 'mcp_fault_echo' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        status: 'success',
        output: expect.stringContaining('echo: via settings'),
      }),
    );
  });
});
