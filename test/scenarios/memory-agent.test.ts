import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, type GeminiCliAgentOptions } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

let root: string;
let home: string;
let cwd: string;
let savedHome: string | undefined;

const write = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'memory-agent-')));
  home = join(root, 'home');
  cwd = join(root, 'proj');
  mkdirSync(cwd, { recursive: true });
  savedHome = process.env['GEMINI_CLI_HOME'];
  process.env['GEMINI_CLI_HOME'] = home;
  write(join(home, '.gemini', 'GEMINI.md'), 'GLOBAL RULE\n');
  write(join(cwd, 'GEMINI.md'), 'PROJECT RULE\n');
  write(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }));
});
afterEach(() => {
  process.env['GEMINI_CLI_HOME'] = savedHome;
  rmSync(root, { recursive: true, force: true });
});

async function run(
  options: GeminiCliAgentOptions,
  prompts: string[],
  turns = prompts.map(() => textTurn('ok')),
) {
  const model = new ScriptedModel(turns);
  const agent = new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    retry: false,
    persist: false,
    ...options,
  });
  const session = agent.session();
  for (const prompt of prompts) for await (const _ of session.sendStream(prompt)) void _;
  const history = session.getHistory();
  await session.close();
  return { model, history };
}

const system = (model: ScriptedModel, i = 0) =>
  String(model.generateRequests[i]?.config?.systemInstruction ?? '');
const contents = (model: ScriptedModel, i = 0) =>
  model.generateRequests[i]?.contents as Array<{ role: string; parts: Array<{ text?: string }> }>;

describe('GEMINI.md memory and <session_context>', () => {
  it('global memory goes to the system prompt with the instructions after it; project memory to the first turn', async () => {
    const { model, history } = await run({ instructions: 'APP INSTRUCTIONS' }, ['hello', 'again']);
    const sys = system(model);
    expect(sys).toContain(
      `--- Context from: ${join(home, '.gemini', 'GEMINI.md')} ---\nGLOBAL RULE`,
    );
    expect(sys.indexOf('GLOBAL RULE')).toBeLessThan(sys.indexOf('APP INSTRUCTIONS'));
    expect(sys).not.toContain('PROJECT RULE');
    const first = contents(model)[0];
    expect(first?.role).toBe('user');
    expect(first?.parts[0]?.text).toMatch(/^<session_context>\nThis is the Gemini CLI\./);
    expect(first?.parts[0]?.text).toContain(
      `<project_context>\n--- Context from: ${join(cwd, 'GEMINI.md')} ---\nPROJECT RULE`,
    );
    expect(first?.parts[1]?.text).toBe('hello');
    // Sent with every request, never stored: the history holds only the conversation.
    expect(contents(model, 1)[0]?.parts[0]?.text).toMatch(/^<session_context>/);
    expect(history[0]?.parts).toEqual([{ text: 'hello' }]);
    expect(JSON.stringify(history)).not.toContain('session_context');
  });

  it('untrusted folder: no project memory; memory: false loads none; sessionContext: false sends none', async () => {
    rmSync(join(home, '.gemini', 'trustedFolders.json'));
    let { model } = await run({}, ['hi']);
    expect(contents(model)[0]?.parts[0]?.text).not.toContain('PROJECT RULE');
    expect(system(model)).toContain('GLOBAL RULE');

    ({ model } = await run({ memory: false, trustWorkspace: true }, ['hi']));
    expect(system(model)).not.toContain('GLOBAL RULE');
    expect(contents(model)[0]?.parts[0]?.text).not.toContain('PROJECT RULE');

    ({ model } = await run({ sessionContext: false, trustWorkspace: true, systemPrompt: 'none' }, [
      'hi',
    ]));
    expect(contents(model)[0]?.parts).toEqual([{ text: 'hi' }]);
    // Without a first-turn context the project's files join the system prompt instead of being lost.
    expect(system(model)).toContain('PROJECT RULE');
  });

  it('context.fileName and a malformed @import from the settings', async () => {
    write(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ context: { fileName: ['AGENTS.md'] } }),
    );
    write(join(cwd, 'AGENTS.md'), 'AGENTS RULE @./missing.md\n');
    const { model } = await run({}, ['hi']);
    const first = String(contents(model)[0]?.parts[0]?.text);
    expect(first).toContain('AGENTS RULE <!-- Import failed: ./missing.md - ENOENT');
    expect(first).not.toContain('PROJECT RULE');
    expect(system(model)).not.toContain('GLOBAL RULE');
  });

  it('default generationConfig per model family; the option merges over it', async () => {
    let { model } = await run({ model: 'gemini-2.5-flash' }, ['hi']);
    expect(model.generateRequests[0]?.config).toMatchObject({
      temperature: 1,
      topP: 0.95,
      topK: 64,
      thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 },
    });
    ({ model } = await run(
      {
        model: 'flash',
        generationConfig: { temperature: 0.2, thinkingConfig: { includeThoughts: false } },
      },
      ['hi'],
    ));
    expect(model.generateRequests[0]?.model).toBe('gemini-3.8-flash');
    expect(model.generateRequests[0]?.config).toMatchObject({
      temperature: 0.2,
      topK: 64,
      thinkingConfig: { includeThoughts: false, thinkingLevel: 'HIGH' },
    });
  });

  it('the session context follows tool turns without repeating itself', async () => {
    write(join(cwd, 'a.txt'), 'A');
    const { model } = await run(
      {},
      ['read'],
      [callTurn({ name: 'read_file', args: { file_path: 'a.txt' } }), textTurn('ok')],
    );
    const second = contents(model, 1);
    expect(
      second.filter((c) => c.parts.some((p) => p.text?.startsWith('<session_context>'))),
    ).toHaveLength(1);
    expect(second.map((c) => c.role)).toEqual(['user', 'model', 'user']);
  });
});
