import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import type { ToolCallInfo } from '../core/agent-tool.js';
import {
  activateSkillDeclaration,
  createActivateSkillTool,
  skillApprovalDetails,
} from './activate-skill-tool.js';
import { renderAvailableSkillsSection } from './available-skills-section.js';
import type { SkillDefinition } from './skill-definition.js';
import { loadSkillsFromDir } from './skill-loader.js';
import { SkillManager } from './skill-manager.js';

const PIRATE = resolve('test/fixtures/gemini-cli-sdk-test-data/skills/pirate-skill');
const ctx = {} as SessionContext;
const call = (): ToolCallInfo => ({ callId: 'c1', signal: new AbortController().signal });

let tmp: string;
let extra: SkillDefinition[];
beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'skills-tool-')));
  for (const name of ['alpha', 'beta']) {
    await mkdir(join(tmp, name), { recursive: true });
    await writeFile(
      join(tmp, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`,
    );
  }
  extra = await loadSkillsFromDir(tmp);
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('activate_skill execution', () => {
  it("returns gemini-cli's exact <activated_skill> text for pirate-skill and calls onActivate", async () => {
    const activated: string[] = [];
    const manager = new SkillManager(await loadSkillsFromDir(PIRATE), {
      onActivate: (skill) => {
        activated.push(skill.folder);
      },
    });
    const tool = createActivateSkillTool(manager);
    const result = await tool.execute({ name: 'pirate-skill' }, ctx, call());
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      [
        '<activated_skill name="pirate-skill">',
        '  <instructions>',
        '    Answer every message the way a pirate would talk, and say "Arrr" in each answer.',
        '  </instructions>',
        '',
        '  <available_resources>',
        '    Showing up to 200 items (files + folders).',
        '',
        `${PIRATE}${sep}`,
        '└───SKILL.md',
        '  </available_resources>',
        '</activated_skill>',
      ].join('\n'),
    );
    expect(result.returnDisplay).toBe(
      `Skill **pirate-skill** activated. Resources loaded from \`${PIRATE}\`:\n\nShowing up to 200 items (files + folders).\n\n${PIRATE}${sep}\n└───SKILL.md`,
    );
    expect(manager.isActive('pirate-skill')).toBe(true);
    expect(manager.list()[0]).toMatchObject({ name: 'pirate-skill', enabled: true, active: true });
    expect(activated).toEqual([await realpath(PIRATE)]);

    // Activating twice is harmless: same text, still active, listener called again.
    const again = await tool.execute({ name: 'pirate-skill' }, ctx, call());
    expect(again.llmContent).toBe(result.llmContent);
    expect(activated).toHaveLength(2);
  });

  it('an unknown or disabled name is an error result listing the enabled skills', async () => {
    const manager = new SkillManager(extra);
    manager.disable('beta');
    const tool = createActivateSkillTool(manager);
    for (const name of ['gamma', 'beta']) {
      const result = await tool.execute({ name }, ctx, call());
      expect(result.error).toEqual({
        message: `Skill "${name}" not found. Available skills are: alpha`,
        type: 'invalid_tool_params',
      });
      expect(result.llmContent).toBe(
        `Error: Skill "${name}" not found. Available skills are: alpha`,
      );
    }
    expect(manager.list().every((s) => !s.active)).toBe(true);
  });

  it('matches names case-insensitively like gemini-cli, and validates the argument', async () => {
    const tool = createActivateSkillTool(new SkillManager(extra));
    expect((await tool.execute({ name: 'ALPHA' }, ctx, call())).llmContent).toContain(
      '<activated_skill name="alpha">',
    );
    expect(tool.validate({ name: 'alpha', extra: 1 })).toEqual({
      ok: true,
      args: { name: 'alpha' },
    });
    expect(tool.validate({})).toMatchObject({ ok: false });
    expect(tool.validate({ name: 3 })).toMatchObject({ ok: false });
    expect(tool.describe({ name: 'alpha' })).toBe('"alpha": The alpha skill.');
    expect(tool.describe({ name: 'zzz' })).toBe('"zzz" (?) unknown skill');
    expect(tool.kind).toBe('other');
    expect(tool.displayName).toBe('Activate Skill');
  });
});

describe('activate_skill declaration', () => {
  it('offers an enum of the enabled names that follows enable/disable', () => {
    const manager = new SkillManager(extra);
    const declared = () => createActivateSkillTool(manager);
    expect(declared().parametersJsonSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        name: {
          type: 'string',
          enum: ['alpha', 'beta'],
          description: 'The name of the skill to activate.',
        },
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(declared().description).toBe(
      "Activates a specialized agent skill by name (Available: 'alpha', 'beta'). Returns the skill's instructions wrapped in `<activated_skill>` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the `<available_skills>` section.",
    );
    manager.disable('ALPHA');
    expect(declared().parametersJsonSchema['properties']).toEqual({
      name: { type: 'string', enum: ['beta'], description: 'The name of the skill to activate.' },
    });
    manager.disable('beta');
    expect(declared().parametersJsonSchema['properties']).toEqual({
      name: { type: 'string', description: 'No skills are currently available.' },
    });
    expect(declared().description).toMatch(
      /^Activates a specialized agent skill by name\. Returns/,
    );
    manager.enable('alpha');
    expect(activateSkillDeclaration(manager.enabled().map((s) => s.name)).description).toContain(
      "(Available: 'alpha')",
    );
  });
});

describe('SkillManager', () => {
  it('enable/disable of an unknown name throws ConfigurationError listing the names', () => {
    const manager = new SkillManager(extra, { disabled: ['Beta', 'nope'] });
    expect(manager.list().map((s) => [s.name, s.enabled])).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    expect(() => manager.disable('gamma')).toThrow(ConfigurationError);
    expect(() => manager.enable('gamma')).toThrow(
      'Unknown skill "gamma". Known skills: alpha, beta.',
    );
    expect(() => new SkillManager([]).enable('x')).toThrow(/no skills are loaded/);
  });

  it('activate() refuses unknown and disabled skills', async () => {
    const manager = new SkillManager(extra, { disabled: ['beta'] });
    await expect(manager.activate('beta')).rejects.toThrow('Skill "beta" is disabled');
    await expect(manager.activate('gamma')).rejects.toThrow('Available skills are: alpha.');
    await manager.activate('alpha');
    manager.resetActive();
    expect(manager.isActive('alpha')).toBe(false);
  });
});

describe('approval details', () => {
  it('carries name, description, location and folder tree; none for built-in or unknown skills', async () => {
    const pirate = await loadSkillsFromDir(PIRATE);
    const builtin = (await loadSkillsFromDir(tmp, { isBuiltin: true, source: 'builtin' })).slice(
      0,
      1,
    );
    const manager = new SkillManager([...pirate, ...builtin]);
    expect(await skillApprovalDetails(manager, { name: 'pirate-skill' })).toEqual({
      name: 'pirate-skill',
      description: 'Speak like a pirate.',
      location: join(PIRATE, 'SKILL.md'),
      folderTree: `Showing up to 200 items (files + folders).\n\n${PIRATE}${sep}\n└───SKILL.md`,
    });
    expect(await skillApprovalDetails(manager, { name: 'alpha' })).toBeUndefined();
    expect(await skillApprovalDetails(manager, { name: 'nope' })).toBeUndefined();
    expect(await skillApprovalDetails(manager, {})).toBeUndefined();
  });
});

describe('renderAvailableSkillsSection', () => {
  it("renders gemini-cli's section for the given skills, nothing for none", () => {
    expect(renderAvailableSkillsSection(extra)).toBe(
      [
        '# Available Agent Skills',
        '',
        "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.",
        '',
        '<available_skills>',
        '  <skill>',
        '    <name>alpha</name>',
        '    <description>The alpha skill.</description>',
        `    <location>${join(tmp, 'alpha', 'SKILL.md')}</location>`,
        '  </skill>',
        '  <skill>',
        '    <name>beta</name>',
        '    <description>The beta skill.</description>',
        `    <location>${join(tmp, 'beta', 'SKILL.md')}</location>`,
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
    expect(renderAvailableSkillsSection([])).toBeUndefined();
  });
});
