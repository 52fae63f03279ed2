import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { GeminiCliAgent, convertClaudeHooks } from '../../src/index.js';

async function cli(argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv,
    env: {},
    cwd,
    stdin: { isTTY: true } as never,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    onInterrupt: () => () => undefined,
  });
  return { code, stdout, stderr };
}

function project(files: Record<string, unknown>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hooks-cli-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(
      join(dir, path),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
  return dir;
}

const claudeSettings = {
  permissions: { allow: ['Bash(ls)'] },
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash|Edit',
        hooks: [{ type: 'command', command: '$CLAUDE_PROJECT_DIR/.claude/guard.sh', timeout: 30 }],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
    UserPromptSubmit: [{ hooks: [{ type: 'prompt', prompt: 'not a command hook' }] }],
  },
};

describe('gemini-agent hooks', () => {
  it('migrate --from-claude adds Claude Code hooks to .gemini/settings.json, once', async () => {
    const cwd = project({
      '.claude/settings.json': claudeSettings,
      '.gemini/settings.json':
        '{\n  // mine\n  "model": { "name": "gemini-2.5-flash" },\n' +
        '  "hooks": { "AfterAgent": [{ "hooks": [{ "type": "command", "command": "echo done" }] }] }\n}\n',
    });
    const first = await cli(['hooks', 'migrate', '--from-claude'], cwd);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('BeforeTool: 1 hook(s)');
    expect(first.stdout).toContain('Added 1 hook(s)');
    const written = JSON.parse(readFileSync(join(cwd, '.gemini', 'settings.json'), 'utf8'));
    expect(written.model).toEqual({ name: 'gemini-2.5-flash' });
    expect(written.hooks).toEqual({
      AfterAgent: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
      BeforeTool: [
        {
          matcher: 'run_shell_command|replace',
          hooks: [
            { type: 'command', command: '$GEMINI_PROJECT_DIR/.claude/guard.sh', timeout: 30_000 },
          ],
        },
      ],
    });
    // The old file had comments: it is kept next to the new one.
    expect(readFileSync(join(cwd, '.gemini', 'settings.json.bak'), 'utf8')).toContain('// mine');

    const again = await cli(['hooks', 'migrate', '--from-claude'], cwd);
    expect(again.stdout).toContain('Nothing to add: its 2 hook(s) are already in');
    const agent = new GeminiCliAgent({ cwd, trustWorkspace: true });
    expect(agent.hooks().hooks.map((h) => [h.event, h.matcher, h.timeout])).toEqual([
      ['AfterAgent', undefined, undefined],
      ['BeforeTool', 'run_shell_command|replace', 30_000],
    ]);
  });

  it('migrate fails clearly without Claude Code settings or --from-claude', async () => {
    const cwd = project({});
    const missing = await cli(['hooks', 'migrate', '--from-claude'], cwd);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(
      /No Claude Code settings found: expected .*settings\.local\.json/,
    );
    const usage = await cli(['hooks', 'migrate'], cwd);
    expect(usage.code).toBe(42);
    expect(usage.stderr).toContain('--from-claude');
    expect((await cli(['hooks', 'nope'], cwd)).stderr).toContain('Unknown hooks command "nope"');
  });

  it('list shows the hooks that run here, disabled ones and skipped definitions', async () => {
    const cwd = project({
      '.gemini/settings.json': {
        hooksConfig: { disabled: ['quiet'] },
        hooks: {
          BeforeTool: [
            {
              matcher: 'write_file',
              hooks: [{ type: 'command', name: 'guard', command: './guard.sh', timeout: 5000 }],
            },
          ],
          SessionEnd: [{ hooks: [{ type: 'command', name: 'quiet', command: 'true' }] }],
          Bogus: [{ hooks: [] }],
        },
      },
    });
    const untrusted = await cli(['hooks', 'list'], cwd);
    expect(untrusted.stdout).toContain('No hooks are configured for this folder.');
    expect(untrusted.stdout).toContain('This folder is not trusted');
    const text = await cli(['hooks', 'list', '--skip-trust'], cwd);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Hooks (2), in run order:');
    expect(text.stdout).toContain('BeforeTool [write_file]  guard  ./guard.sh');
    expect(text.stdout).toContain('SessionEnd  quiet (disabled)  true');
    expect(text.stderr).toContain('Invalid hook event name: "Bogus"');
    const json = JSON.parse(
      (await cli(['hooks', 'list', '-o', 'json', '--skip-trust'], cwd)).stdout,
    );
    expect(json.hooks[0]).toMatchObject({
      event: 'BeforeTool',
      name: 'guard',
      source: 'project',
      type: 'command',
      timeout: 5000,
      enabled: true,
    });
    expect(json.warnings).toHaveLength(1);
  });
});

describe('convertClaudeHooks', () => {
  it('keeps odd event names as plain keys and drops what is not a command hook', () => {
    const converted = convertClaudeHooks(
      JSON.parse(
        '{"hooks":{"__proto__":[{"hooks":[{"type":"command","command":"x"}]}],"PostToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"y","timeout":1.5},{"type":"prompt"}]},null,{"hooks":"no"}]}}',
      ),
    );
    expect(Object.keys(converted)).toEqual(['__proto__', 'AfterTool']);
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(converted['AfterTool']).toEqual([
      { matcher: 'read_file', hooks: [{ type: 'command', command: 'y', timeout: 1500 }] },
    ]);
    expect(convertClaudeHooks('nonsense')).toEqual({});
  });
});
