/**
 * The reference skills scenarios (skill-dir-success / skill-root-success) through the public agent API with the
 * `skills` option, plus what the model is offered (system section, `activate_skill` enum) through the real
 * client against FakeGeminiServer.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  skillDir,
  type ServerGeminiStreamEvent,
  type SkillReference,
} from '../../src/index.js';
import { FakeGeminiServer, callTurn, textTurn } from '../../src/testing/index.js';

const data = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/gemini-cli-sdk-test-data/${name}`, import.meta.url));

async function runScenario(reference: SkillReference, fixture: string, prompt: string) {
  const agent = new GeminiCliAgent({
    instructions: 'You are a helpful assistant.',
    skills: [reference],
    skillDiscovery: false,
    fakeResponses: data(fixture),
  });
  const session = agent.session();
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of session.sendStream(prompt)) events.push(event);
  return { events, manager: session.skills };
}

describe.each([
  [
    'skill-dir-success.json',
    skillDir(data('skills/pirate-skill')),
    'Activate the pirate-skill and then tell me a joke.',
  ],
  [
    'skill-root-success.json',
    skillDir(data('skills')),
    'Activate the pirate-skill and confirm it is active.',
  ],
])('%s', (fixture, reference, prompt) => {
  it('executes activate_skill and sends <activated_skill name="pirate-skill"> to the model', async () => {
    const { events, manager } = await runScenario(reference, fixture, prompt);
    const response = events.find((e) => e.type === 'tool_call_response');
    if (response?.type !== 'tool_call_response') throw new Error('no tool_call_response event');
    expect(response.value.name).toBe('activate_skill');
    expect(response.value.error).toBeUndefined();
    const pirate = data('skills/pirate-skill');
    expect(response.value.responseParts[0]?.functionResponse?.response).toEqual({
      output: [
        '<activated_skill name="pirate-skill">',
        '  <instructions>',
        '    Answer every message the way a pirate would talk, and say "Arrr" in each answer.',
        '  </instructions>',
        '',
        '  <available_resources>',
        '    Showing up to 200 items (files + folders).',
        '',
        `${pirate}${sep}`,
        '└───SKILL.md',
        '  </available_resources>',
        '</activated_skill>',
      ].join('\n'),
    });
    const text = events.map((e) => (e.type === 'content' ? e.value : '')).join('');
    expect(text.toLowerCase()).toContain('arrr');
    expect(manager.isActive('pirate-skill')).toBe(true);
  });
});

describe('skills through the real client', () => {
  const servers: FakeGeminiServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  interface Body {
    systemInstruction?: { parts?: Array<{ text?: string }> };
    tools?: Array<{
      functionDeclarations?: Array<{ name: string; parametersJsonSchema?: unknown }>;
    }>;
  }
  const activateDecl = (body: Body) =>
    body.tools
      ?.flatMap((t) => t.functionDeclarations ?? [])
      .find((d) => d.name === 'activate_skill');

  it('lists enabled skills, offers them as an enum, follows disable, and shares the folder read-only', async () => {
    const root = await mkdtemp(join(tmpdir(), 'skills-root-'));
    const skillMd = (name: string) =>
      `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name} things.\n`;
    const { mkdir } = await import('node:fs/promises');
    for (const name of ['alpha', 'beta']) {
      await mkdir(join(root, name));
      await writeFile(join(root, name, 'SKILL.md'), skillMd(name));
      await writeFile(join(root, name, 'notes.txt'), `${name} notes`);
    }
    const server = new FakeGeminiServer({
      turns: [
        callTurn({ name: 'activate_skill', args: { name: 'alpha' } }),
        callTurn({ name: 'peek', args: {} }),
        textTurn('done'),
        textTurn('second'),
      ],
    });
    servers.push(server);
    const baseUrl = await server.start();
    const { tool, z } = await import('../../src/index.js');
    const seen: Array<string | null> = [];
    let writeError: unknown;
    const peek = tool(
      { name: 'peek', description: 'peek', inputSchema: z.object({}) },
      async (_a, ctx) => {
        seen.push(await ctx.fs.readFile(join(root, 'alpha', 'notes.txt')));
        try {
          await ctx.fs.writeFile(join(root, 'alpha', 'notes.txt'), 'changed');
        } catch (err) {
          writeError = err;
        }
        return 'ok';
      },
    );
    const cwd = await mkdtemp(join(tmpdir(), 'skills-cwd-'));
    const agent = new GeminiCliAgent({
      cwd,
      skills: [skillDir(root)],
      skillDiscovery: false,
      tools: [peek],
      apiKey: 'test-key',
      baseUrl,
    });
    const session = agent.session();
    for await (const _e of session.sendStream('activate alpha')) void _e;
    const first = server.requests[0]?.body as Body;
    const system = first.systemInstruction?.parts?.map((p) => p.text ?? '').join('') ?? '';
    expect(system).toContain('<available_skills>');
    expect(system).toContain('<name>alpha</name>');
    expect(system).toContain('<name>beta</name>');
    expect(JSON.stringify(activateDecl(first)?.parametersJsonSchema)).toContain(
      '"enum":["alpha","beta"]',
    );
    expect(seen).toEqual(['alpha notes']);
    expect(writeError).toBeDefined();
    expect(session.skills.list().find((s) => s.name === 'alpha')?.active).toBe(true);

    session.skills.disable('beta');
    for await (const _e of session.sendStream('again')) void _e;
    const last = server.requests.at(-1)?.body as Body;
    const lastSystem = last.systemInstruction?.parts?.map((p) => p.text ?? '').join('') ?? '';
    expect(lastSystem).not.toContain('<name>beta</name>');
    expect(JSON.stringify(activateDecl(last)?.parametersJsonSchema)).toContain('"enum":["alpha"]');
  });
});
