import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from './helpers/in-process-cli.js';
import { GeminiCliAgent, convertClaudeHooks } from '../../src/index.js';

const cli = inProcessCli;

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

describe('gemini-agent hooks enable | disable', () => {
  /** A fresh GEMINI_CLI_HOME for the test (its user settings file is written), restored afterwards. */
  function withHome(): { home: string; restore: () => void } {
    const before = process.env['GEMINI_CLI_HOME'];
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'hooks-home-')));
    process.env['GEMINI_CLI_HOME'] = home;
    return {
      home,
      restore: () => {
        process.env['GEMINI_CLI_HOME'] = before;
      },
    };
  }
  const userFile = (home: string) => join(home, '.gemini', 'settings.json');
  /** A settings file's value (its `// …` comment lines left out). */
  const read = (file: string) =>
    JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as {
      hooksConfig?: { disabled?: string[] };
    };

  /** One prompt through the CLI on a replay; returns whether the marker hook ran. */
  async function promptRuns(cwd: string, marker: string): Promise<boolean> {
    const replay = join(cwd, `replay-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(
      replay,
      `${JSON.stringify({
        method: 'generateContentStream',
        response: [
          {
            candidates: [
              { content: { role: 'model', parts: [{ text: 'hi' }] }, finishReason: 'STOP' },
            ],
          },
        ],
      })}\n`,
    );
    const { rmSync, existsSync } = await import('node:fs');
    rmSync(marker, { force: true });
    const run = await cli(['-p', 'hello', '--fake-responses', replay], cwd);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    return existsSync(marker);
  }

  it('disable writes hooksConfig.disabled, the hook stops running, enable brings it back', async () => {
    const { home, restore } = withHome();
    try {
      const cwd = project({});
      const marker = join(cwd, 'ran');
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        userFile(home),
        '{\n  // my settings\n  "ui": { "theme": "Default" },\n  "hooksConfig": { "notifications": false },\n' +
          `  "hooks": { "BeforeAgent": [{ "hooks": [{ "type": "command", "name": "mark", "command": "touch '${marker}'" }] }] }\n}\n`,
      );
      expect(await promptRuns(cwd, marker)).toBe(true);

      // An untrusted folder: its workspace file is not read, so the user's file takes the entry.
      const off = await cli(['hooks', 'disable', 'mark'], cwd);
      expect(off.code).toBe(0);
      expect(off.stdout).toBe(
        `Hook "mark" disabled by adding it to the disabled list in user (${userFile(home)}) settings.\n`,
      );
      expect(off.stderr).toBe('');
      const text = readFileSync(userFile(home), 'utf8');
      expect(text).toContain('// my settings');
      expect(read(userFile(home)).hooksConfig).toEqual({
        notifications: false,
        disabled: ['mark'],
      });
      expect(await promptRuns(cwd, marker)).toBe(false);
      expect((await cli(['hooks', 'list'], cwd)).stdout).toContain('BeforeAgent  mark (disabled)');

      const again = await cli(['hooks', 'disable', 'mark'], cwd);
      expect(again.stdout).toContain('Hook "mark" is already disabled in user');

      const on = await cli(['hooks', 'enable', 'mark'], cwd);
      expect(on.code).toBe(0);
      expect(on.stdout).toBe(
        `Hook "mark" enabled by removing it from the disabled list in user (${userFile(home)}) settings.\n`,
      );
      expect(read(userFile(home)).hooksConfig).toEqual({ notifications: false, disabled: [] });
      expect(await promptRuns(cwd, marker)).toBe(true);
      expect((await cli(['hooks', 'enable', 'mark'], cwd)).stdout).toBe(
        'Hook "mark" is already enabled.\n',
      );
    } finally {
      restore();
    }
  }, 60_000);

  it('in a trusted folder disable writes the workspace file; enable clears every scope that lists it', async () => {
    const { home, restore } = withHome();
    try {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(
        userFile(home),
        JSON.stringify({ hooksConfig: { disabled: ['guard', 'other'] } }),
      );
      const cwd = project({
        '.gemini/settings.json': {
          model: { name: 'gemini-2.5-flash' },
          hooks: {
            BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: './guard.sh' }] }],
          },
        },
      });
      const workspace = join(cwd, '.gemini', 'settings.json');
      const off = await cli(['hooks', 'disable', 'guard', '--skip-trust'], cwd);
      expect(off.stdout).toBe(
        `Hook "guard" is now disabled in both workspace (${workspace}) and user (${userFile(home)}) settings.\n`,
      );
      expect(read(workspace)).toMatchObject({
        model: { name: 'gemini-2.5-flash' },
        hooksConfig: { disabled: ['guard'] },
      });
      const on = await cli(['hooks', 'enable', 'guard', '--skip-trust'], cwd);
      expect(on.stdout).toBe(
        `Hook "guard" enabled by removing it from the disabled list in workspace (${workspace}) and user (${userFile(home)}) settings.\n`,
      );
      expect(read(workspace).hooksConfig?.disabled).toEqual([]);
      expect(read(userFile(home)).hooksConfig?.disabled).toEqual(['other']);
      const listed = JSON.parse(
        (await cli(['hooks', 'list', '-o', 'json', '--skip-trust'], cwd)).stdout,
      );
      expect(listed.hooks).toEqual([expect.objectContaining({ name: 'guard', enabled: true })]);

      // --scope user picks the user's file; a name no hook has is written with a warning.
      const user = await cli(
        ['hooks', 'disable', 'nobody', '--scope', 'user', '--skip-trust'],
        cwd,
      );
      expect(user.code).toBe(0);
      expect(read(userFile(home)).hooksConfig?.disabled).toEqual(['other', 'nobody']);
      expect(user.stderr).toBe(
        'Warning: no hook of this folder is named "nobody" (hooks: guard).\n',
      );
    } finally {
      restore();
    }
  });

  it('bad arguments and unreadable settings fail with a usage error, leaving the files alone', async () => {
    const { home, restore } = withHome();
    try {
      const cwd = project({
        '.gemini/settings.json': '{ "hooksConfig": { "disabled": "guard" } }',
      });
      for (const [argv, message] of [
        [['hooks', 'disable'], 'Usage: gemini-agent hooks disable <hook-name>'],
        [['hooks', 'enable', 'a', 'b'], 'Unexpected argument "b" after a.'],
        [['hooks', 'disable', 'a', '--scope', 'system'], '--scope must be user or workspace'],
        [['hooks', 'enable', 'a', '--scope', 'user'], 'hooks enable takes no --scope'],
        [
          ['hooks', 'disable', 'a', '--scope', 'project', '--skip-trust'],
          '"hooksConfig.disabled" in',
        ],
      ] as const) {
        const run = await cli([...argv], cwd);
        expect(run.code, argv.join(' ')).toBe(42);
        expect(run.stderr).toContain(message);
      }
      expect(readFileSync(join(cwd, '.gemini', 'settings.json'), 'utf8')).toBe(
        '{ "hooksConfig": { "disabled": "guard" } }',
      );
      // In the home folder there is no workspace file to write.
      const inHome = await cli(['hooks', 'disable', 'a', '--scope', 'workspace'], home);
      expect(inHome.code).toBe(42);
      expect(inHome.stderr).toContain('Please use --scope user');
    } finally {
      restore();
    }
  });
});
