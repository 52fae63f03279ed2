/**
 * `gemini-agent --show-config`: the effective configuration of a run, from the request it would send (captured,
 * never sent), with where each part came from.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';
import type { ShownConfig } from '../../src/cli/show-config.js';

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

async function put(path: string, content: string | object): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
}

const gemini = (...parts: string[]) => join(project.home, '.gemini', ...parts);

async function show(args: string[] = [], env: Record<string, string> = {}): Promise<ShownConfig> {
  const result = await runCli(['--show-config', ...args], {
    cwd: project.cwd,
    env: cleanEnv(project, env),
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as ShownConfig;
}

describe('gemini-agent --show-config', () => {
  it('model precedence: -m over GEMINI_MODEL over model.name, aliases resolved, with the source', async () => {
    await put(gemini('settings.json'), { model: { name: 'pro' } });
    expect((await show()).model).toEqual({
      name: 'gemini-3.1-pro-preview',
      requested: 'pro',
      source: 'settings model.name',
    });
    expect((await show([], { GEMINI_MODEL: 'flash-lite' })).model).toEqual({
      name: 'gemini-3.5-flash-lite',
      requested: 'flash-lite',
      source: 'GEMINI_MODEL',
    });
    const flag = await show(['-m', 'gemini-2.5-flash'], { GEMINI_MODEL: 'flash-lite' });
    expect(flag.model).toEqual({
      name: 'gemini-2.5-flash',
      requested: 'gemini-2.5-flash',
      source: '--model',
    });
    expect(flag.generationConfig).toEqual({
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    });
  });

  it('trust: untrusted leaves the workspace settings and GEMINI.md out; a rule trusts them in, and says why', async () => {
    await put(gemini('GEMINI.md'), 'Global rule.\n');
    await put(join(project.cwd, 'GEMINI.md'), 'Project rule. @./more.md\n');
    await put(join(project.cwd, 'more.md'), 'More.\n');
    await put(join(project.cwd, '.gemini', 'settings.json'), { model: { name: 'flash' } });

    const untrusted = await show();
    expect(untrusted.trust).toMatchObject({ trusted: false, source: 'none' });
    expect(untrusted.trust.reason).toContain('no rule of');
    expect(untrusted.settings.files.find((f) => f.scope === 'workspace')).toMatchObject({
      loaded: false,
      skipped: 'untrusted',
    });
    expect(untrusted.model.source).toBe('default');
    expect(untrusted.contextFiles).toEqual([
      { path: gemini('GEMINI.md'), placedIn: 'systemInstruction', imports: [] },
    ]);

    await put(gemini('trustedFolders.json'), { [project.cwd]: 'TRUST_FOLDER' });
    const trusted = await show();
    expect(trusted.trust).toMatchObject({ trusted: true, source: 'file' });
    expect(trusted.model).toMatchObject({ requested: 'flash', source: 'settings model.name' });
    expect(trusted.contextFiles).toEqual([
      { path: gemini('GEMINI.md'), placedIn: 'systemInstruction', imports: [] },
      {
        path: join(project.cwd, 'GEMINI.md'),
        placedIn: 'sessionContext',
        imports: ['./more.md'],
      },
    ]);
    expect(trusted.sessionContext).toContain('Project rule.');
    expect(trusted.systemInstruction).toContain('Global rule.');
  });

  it('tools offered headless by default, under --yolo, and with a user deny policy', async () => {
    await put(gemini('trustedFolders.json'), { [project.cwd]: 'TRUST_FOLDER' });
    const headless = await show();
    expect(headless.canAsk).toBe(false);
    expect(headless.tools).toContain('read_file');
    expect(headless.tools).not.toContain('write_file');
    expect(headless.tools).not.toContain('run_shell_command');

    await put(
      gemini('policies', 'deny.toml'),
      '[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 500\n',
    );
    const yolo = await show(['--yolo']);
    expect(yolo.approvalMode).toBe('yolo');
    expect(yolo.tools).toContain('run_shell_command');
    expect(yolo.tools).not.toContain('write_file');
    expect(yolo.policy.files).toEqual([gemini('policies', 'deny.toml')]);
    expect(yolo.policy.rules).toContainEqual(
      expect.objectContaining({
        toolName: 'write_file',
        decision: 'deny',
        priority: 4.5,
        tier: 'user',
      }),
    );
  });

  it('lists settings files, hooks and MCP servers without running them, and redacts credentials', async () => {
    await put(gemini('trustedFolders.json'), { [project.cwd]: 'TRUST_FOLDER' });
    const marker = join(project.cwd, 'hook-ran');
    await put(gemini('settings.json'), {
      hooks: {
        BeforeAgent: [{ hooks: [{ type: 'command', command: `touch ${marker}`, name: 'mark' }] }],
      },
      mcpServers: {
        remote: { httpUrl: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer sekrit' } },
        either: { url: 'http://127.0.0.1:9/mcp' },
      },
      mcp: { excluded: ['remote', 'either'] },
    });
    const shown = await show();
    expect(shown.settings.files.find((f) => f.scope === 'user')).toMatchObject({
      path: gemini('settings.json'),
      loaded: true,
    });
    expect(shown.hooks).toContainEqual(
      expect.objectContaining({ event: 'BeforeAgent', name: 'mark' }),
    );
    expect(existsSync(marker)).toBe(false);
    expect(shown.mcpServers).toEqual([
      { name: 'remote', transport: 'http', trust: false, tools: [] },
      // `url` alone: Streamable HTTP first, then SSE (as gemini-cli and the MCP client connect).
      { name: 'either', transport: 'http+sse', trust: false, tools: [] },
    ]);
    expect(JSON.stringify(shown)).not.toContain('sekrit');
    expect(existsSync(gemini('tmp'))).toBe(false);
  });

  it('refuses --acp alongside, naming both flags', async () => {
    const result = await runCli(['--show-config', '--acp'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--show-config');
  });
});
