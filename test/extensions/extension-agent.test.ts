/**
 * Extensions joining an agent through the public API: `extension()` in code and a gemini-cli folder through
 * `extensionDir()`, each part checked where it takes effect (context, tools, skills, hooks, MCP, excluded tools,
 * policies, warnings).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Content, GenerateContentParameters } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  extension,
  extensionDir,
  GeminiCliAgent,
  hook,
  skillDir,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ext-agent-'));
  mkdirSync(join(root, 'proj'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

async function run(
  options: GeminiCliAgentOptions,
  turns: ConstructorParameters<typeof ScriptedModel>[0],
  prompt = 'go',
): Promise<{ events: ServerGeminiStreamEvent[]; requests: GenerateContentParameters[] }> {
  const model = new ScriptedModel(turns);
  const agent = new GeminiCliAgent({
    contentGenerator: model,
    persist: false,
    settings: false,
    trustWorkspace: true,
    cwd: join(root, 'proj'),
    ...options,
  });
  const events: ServerGeminiStreamEvent[] = [];
  try {
    for await (const event of agent.session().sendStream(prompt)) events.push(event);
  } finally {
    await agent.close();
  }
  return { events, requests: model.generateRequests };
}

const firstTurnText = (request: GenerateContentParameters | undefined): string =>
  ((request?.contents as Content[])[0]?.parts ?? []).map((p) => p.text ?? '').join('\n');
const toolNames = (request: GenerateContentParameters | undefined): string[] =>
  (request?.config?.tools ?? []).flatMap(
    (t) =>
      (t as { functionDeclarations?: Array<{ name: string }> }).functionDeclarations?.map(
        (f) => f.name,
      ) ?? [],
  );
const responses = (request: GenerateContentParameters | undefined): unknown[] =>
  ((request?.contents as Content[]).at(-1)?.parts ?? []).map((p) => p.functionResponse?.response);

describe('extension() in code', () => {
  it('adds context, tools that run, a section, excluded tools, hooks and policy rules', async () => {
    write(join(root, 'ctx.md'), 'Context file of the bundle.');
    const seen: string[] = [];
    const ext = extension({
      name: 'bundle',
      version: '1.0.0',
      instructions: 'Buckets are named after the project.',
      contextFiles: [join(root, 'ctx.md')],
      tools: [
        tool(
          { name: 'bucket_list', description: 'Lists buckets', inputSchema: z.object({}) },
          () => 'b1, b2',
        ),
      ],
      excludeTools: ['web_fetch'],
      hooks: [
        hook({ event: 'BeforeTool', name: 'audit', matcher: 'bucket_list' }, (input) => {
          seen.push(input.tool_name);
        }),
      ],
      policies: [
        { toolName: 'glob', decision: 'deny', priority: 10 },
        {
          toolName: 'read_file',
          argsPattern: 'secret',
          decision: 'deny',
          priority: 10,
          denyMessage: 'no secrets here',
        },
        { toolName: 'run_shell_command', decision: 'allow', priority: 900 },
      ],
    });
    const sectioned = extension({
      name: 'live',
      instructions: (ctx) => `Session ${ctx.sessionId.length > 0}`,
    });
    const { events, requests } = await run({ extensions: [ext, sectioned] }, [
      callTurn({ name: 'bucket_list' }, { name: 'read_file', args: { file_path: 'secret.txt' } }),
      textTurn('done'),
    ]);
    const first = requests[0];
    expect(firstTurnText(first)).toContain(
      `<extension_context>\n--- Context from: ${join(root, 'ctx.md')} ---\nContext file of the bundle.\n--- End of Context from: ${join(root, 'ctx.md')} ---\n\n--- Context from: extension bundle ---\nBuckets are named after the project.\n--- End of Context from: extension bundle ---\n</extension_context>`,
    );
    expect(String(first?.config?.systemInstruction)).toContain('Session true');
    expect(toolNames(first)).toContain('bucket_list');
    expect(toolNames(first)).not.toContain('web_fetch');
    // A rule that denies a tool outright takes it off the list, as gemini-cli does.
    expect(toolNames(first)).not.toContain('glob');
    expect(toolNames(first)).toContain('read_file');
    expect(seen).toEqual(['bucket_list']);
    expect(responses(requests[1])).toEqual([
      { output: 'b1, b2' },
      { error: expect.stringContaining('no secrets here') },
    ]);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.value.message] : []));
    expect(warnings).toContain(
      '[PolicyConfig] Extension "bundle" attempted to contribute an ALLOW rule for tool "run_shell_command". Ignoring this rule for security.',
    );
  });

  it('skills of an extension sit in the extension tier: a skills-option skill of the same name wins', async () => {
    const skill = (dir: string, description: string) =>
      write(join(dir, 'SKILL.md'), `---\nname: greeter\ndescription: ${description}\n---\nbody\n`);
    skill(join(root, 'ext-skills', 'greeter'), 'from the extension');
    skill(join(root, 'own', 'greeter'), 'from the option');
    const ext = extension({ name: 'sk', skills: [skillDir(join(root, 'ext-skills'))] });
    const only = await run({ extensions: [ext], skillDiscovery: false }, [textTurn('hi')]);
    expect(String(only.requests[0]?.config?.systemInstruction)).toContain(
      '<description>from the extension</description>',
    );
    const both = await run(
      { extensions: [ext], skills: [skillDir(join(root, 'own'))], skillDiscovery: false },
      [textTurn('hi')],
    );
    const system = String(both.requests[0]?.config?.systemInstruction);
    expect(system).toContain('<description>from the option</description>');
    expect(system).not.toContain('from the extension');
  });

  it('rejects a bad extensions option', () => {
    expect(() => new GeminiCliAgent({ extensions: 'x' as never, settings: false })).toThrow(
      /extensions/,
    );
    expect(() => new GeminiCliAgent({ extensions: [{}] as never, settings: false })).toThrow(
      /extensions\[0\].*extension\(\{ name, \.\.\. \}\) or extensionDir\(path\)/,
    );
  });
});

describe('extensionDir()', () => {
  it('loads a gemini-cli folder: GEMINI.md, skill, command hook, policy, excluded tool; a broken one is skipped', async () => {
    const dir = join(root, 'exts', 'folder-ext');
    write(join(dir, 'gemini-extension.json'), {
      name: 'folder-ext',
      version: '0.1.0',
      excludeTools: ['glob'],
      settings: [{ name: 'Mood', description: 'm', envVar: 'EXT_MOOD' }],
    });
    write(join(dir, '.env'), 'EXT_MOOD=sunny\n');
    write(join(dir, 'GEMINI.md'), 'Folder context.');
    write(
      join(dir, 'skills', 'weather', 'SKILL.md'),
      '---\nname: weather\ndescription: ${EXT_MOOD} forecasts\n---\nSee ${extensionPath}.\n',
    );
    write(join(dir, 'hooks', 'hooks.json'), {
      hooks: {
        BeforeTool: [
          {
            matcher: 'read_file',
            hooks: [
              {
                type: 'command',
                command: `node -e "process.stdout.write(JSON.stringify({decision:'deny',reason:'mood is '+process.env.EXT_MOOD}))"`,
              },
            ],
          },
        ],
      },
    });
    write(
      join(dir, 'policies', 'p.toml'),
      '[[rule]]\ntoolName = "list_directory"\nargsPattern = "private"\ndecision = "deny"\npriority = 10\n',
    );
    write(join(root, 'exts', 'broken', 'gemini-extension.json'), { name: 'broken' });
    write(join(root, 'proj', 'a.txt'), 'a');
    const { events, requests } = await run(
      { extensions: [extensionDir(dir), extensionDir(join(root, 'exts', 'broken'))] },
      [
        callTurn(
          { name: 'read_file', args: { file_path: 'a.txt' } },
          { name: 'list_directory', args: { dir_path: 'private' } },
        ),
        textTurn('ok'),
      ],
    );
    const first = requests[0];
    expect(firstTurnText(first)).toContain(
      `--- Context from: ${join(dir, 'GEMINI.md')} ---\nFolder context.`,
    );
    expect(String(first?.config?.systemInstruction)).toContain(
      '<description>sunny forecasts</description>',
    );
    expect(toolNames(first)).not.toContain('glob');
    const answers = responses(requests[1]) as Array<{ error?: string }>;
    expect(answers[0]?.error).toContain('mood is sunny');
    expect(answers[1]?.error).toMatch(/denied by policy/i);
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.value.message] : []));
    expect(warnings).toContain(
      `Skipping extension in ${join(root, 'exts', 'broken')}: Failed to load extension config from ${join(root, 'exts', 'broken', 'gemini-extension.json')}: Invalid configuration in ${join(root, 'exts', 'broken', 'gemini-extension.json')}: missing "version"`,
    );
  });
});
