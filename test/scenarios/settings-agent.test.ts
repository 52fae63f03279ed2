import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  SettingsFileError,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

let root: string;
let home: string;
let cwd: string;
let savedHome: string | undefined;

const write = (path: string, content: string | object): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
};
const userSettings = (value: object | string): void =>
  write(join(home, '.gemini', 'settings.json'), value);
const workspaceSettings = (value: object): void =>
  write(join(cwd, '.gemini', 'settings.json'), value);
const trustCwd = (): void =>
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-settings-')));
  home = join(root, 'home');
  cwd = join(root, 'proj');
  mkdirSync(cwd, { recursive: true });
  savedHome = process.env['GEMINI_CLI_HOME'];
  process.env['GEMINI_CLI_HOME'] = home;
});
afterEach(() => {
  process.env['GEMINI_CLI_HOME'] = savedHome;
  rmSync(root, { recursive: true, force: true });
});

async function run(
  model: ScriptedModel,
  options: GeminiCliAgentOptions = {},
  prompt = 'hi',
): Promise<ServerGeminiStreamEvent[]> {
  const agent = new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    retry: false,
    persist: false,
    ...options,
  });
  const session = agent.session();
  const events: ServerGeminiStreamEvent[] = [];
  try {
    for await (const event of session.sendStream(prompt)) events.push(event);
  } finally {
    await session.close();
  }
  return events;
}

const offered = (model: ScriptedModel, call = 0): string[] =>
  (model.generateRequests[call]?.config?.tools ?? []).flatMap(
    (t) =>
      (t as { functionDeclarations?: Array<{ name?: string }> }).functionDeclarations?.map(
        (d) => d.name ?? '',
      ) ?? [],
  );

describe('agent settings', () => {
  it('sends model.name from the user settings; the model option wins', async () => {
    userSettings({ model: { name: 'gemini-2.5-flash' } });
    const model = new ScriptedModel([textTurn('a'), textTurn('b')]);
    await run(model);
    expect(model.generateRequests[0]?.model).toBe('gemini-2.5-flash');
    await run(model, { model: 'gemini-2.5-flash-lite' });
    expect(model.generateRequests[1]?.model).toBe('gemini-2.5-flash-lite');
  });

  it('reads the workspace file only in a trusted folder, and reads nothing with settings: false', async () => {
    userSettings({ model: { name: 'user-model' } });
    workspaceSettings({ model: { name: 'workspace-model' } });
    const model = new ScriptedModel([textTurn('a'), textTurn('b'), textTurn('c'), textTurn('d')]);
    await run(model);
    await run(model, { trustWorkspace: true });
    trustCwd();
    await run(model);
    await run(model, { settings: false });
    expect(model.generateRequests.map((r) => r.model)).toEqual([
      'user-model',
      'workspace-model',
      'workspace-model',
      'gemini-2.5-pro',
    ]);
    expect(
      new GeminiCliAgent({ cwd, settings: { sources: ['user'] } }).settings.merged.model?.name,
    ).toBe('user-model');
  });

  it('exposes the loaded settings, files, trust and warnings', () => {
    userSettings({ model: { name: 'm' }, unknownThing: 1 });
    const loaded = new GeminiCliAgent({ cwd }).settings;
    expect(loaded.merged.model?.name).toBe('m');
    expect(loaded.files.find((f) => f.scope === 'user')?.exists).toBe(true);
    expect(loaded.trust).toMatchObject({ trusted: false, source: 'none' });
    expect(loaded.warnings.map((w) => w.key)).toEqual(['unknownThing']);
  });

  it('tools.exclude and tools.core decide which built-in tools are offered; custom tools stay', async () => {
    const echo = tool(
      { name: 'echo', description: 'Echo', inputSchema: z.object({ s: z.string() }) },
      ({ s }) => s,
    );
    userSettings({
      tools: { exclude: ['glob'], core: ['read_file', 'glob', 'run_shell_command(git)'] },
    });
    const model = new ScriptedModel([textTurn('a')]);
    await run(model, { tools: [echo] });
    expect(offered(model).sort()).toEqual(['echo', 'read_file', 'run_shell_command']);
  });

  it('a tools.exclude deny rule refuses the call even when the model names the tool', async () => {
    userSettings({ tools: { exclude: ['read_file'] } });
    write(join(cwd, 'a.txt'), 'secret');
    const model = new ScriptedModel([
      callTurn({ name: 'read_file', args: { file_path: 'a.txt' } }),
      textTurn('ok'),
    ]);
    const events = await run(model);
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(JSON.stringify(response)).not.toContain('secret');
    expect(offered(model)).not.toContain('read_file');
  });

  it('tools.allowed with run_shell_command(echo) runs echo but still refuses other commands', async () => {
    userSettings({ tools: { allowed: ['run_shell_command(echo)'] } });
    const model = new ScriptedModel([
      callTurn(
        { name: 'run_shell_command', args: { command: 'echo from-settings' } },
        { name: 'run_shell_command', args: { command: 'ls' } },
      ),
      textTurn('ok'),
    ]);
    const events = await run(model);
    const responses = events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []));
    expect(JSON.stringify(responses[0]?.responseParts)).toContain('from-settings');
    expect(responses[1]?.error).toBeDefined();
  });

  it('model.maxSessionTurns limits the model calls of a prompt; limits.maxTurns wins', async () => {
    userSettings({ model: { maxSessionTurns: 1 } });
    const echo = tool({ name: 'echo', description: 'Echo', inputSchema: z.object({}) }, () => 'x');
    const turns = () => [callTurn({ name: 'echo', args: {} }), textTurn('done')];
    let events = await run(new ScriptedModel(turns()), { tools: [echo] });
    expect(events.at(-1)?.type).toBe('max_session_turns');
    events = await run(new ScriptedModel(turns()), { tools: [echo], limits: { maxTurns: 5 } });
    expect(events.some((e) => e.type === 'max_session_turns')).toBe(false);
  });

  it('general.defaultApprovalMode sets the starting mode; the policy option wins', () => {
    userSettings({ general: { defaultApprovalMode: 'auto_edit' } });
    expect(new GeminiCliAgent({ cwd }).session().approvalMode).toBe('auto_edit');
    expect(new GeminiCliAgent({ cwd, policy: { mode: 'plan' } }).session().approvalMode).toBe(
      'plan',
    );
  });

  it('context.includeDirectories adds workspace roots', async () => {
    const lib = join(root, 'lib');
    write(join(lib, 'x.txt'), 'from lib');
    userSettings({ context: { includeDirectories: [lib] } });
    const model = new ScriptedModel([
      callTurn({ name: 'read_file', args: { file_path: join(lib, 'x.txt') } }),
      textTurn('ok'),
    ]);
    const events = await run(model);
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(JSON.stringify(response)).toContain('from lib');
  });

  it('a malformed settings file fails the session with the file and line', () => {
    userSettings('{\n  "model": {\n    "name": "x",\n  }\n}');
    const agent = new GeminiCliAgent({ cwd });
    expect(() => agent.session()).toThrow(SettingsFileError);
    expect(() => agent.session()).toThrow(/settings\.json at line 4/);
  });

  it('rejects a bad settings option', () => {
    expect(() =>
      new GeminiCliAgent({ cwd, settings: { sources: ['home'] } as never }).session(),
    ).toThrow(/unknown source "home"/);
  });
});
