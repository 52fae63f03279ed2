import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionContext } from '../core/session-context.js';
import { skillDir } from './skill-reference.js';
import { createSkillsFeature } from './skills-feature.js';

const PIRATE = resolve('test/fixtures/gemini-cli-sdk-test-data/skills/pirate-skill');
const ctx = {} as SessionContext;

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'skills-feature-')));
  await mkdir(join(base, 'home'));
  await mkdir(join(base, 'ws'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const isolated = { env: {} };

describe('createSkillsFeature', () => {
  it('loads once, then offers activate_skill and the section following enable/disable', async () => {
    const activated: string[] = [];
    const feature = createSkillsFeature({
      ...isolated,
      home: join(base, 'home'),
      cwd: join(base, 'ws'),
      references: [skillDir(PIRATE)],
      onActivate: (skill) => {
        activated.push(skill.name);
      },
    });
    expect(feature.loaded).toBe(false);
    expect(() => feature.manager).toThrow(/load\(\)/);
    const [first, second] = await Promise.all([feature.load(), feature.load()]);
    expect(first).toBe(second);
    expect(await feature.load()).toBe(first);
    expect(feature.loaded).toBe(true);

    const [tool] = feature.tools(ctx);
    expect(tool?.name).toBe('activate_skill');
    expect(feature.systemSection(ctx)).toContain('<name>pirate-skill</name>');

    feature.manager.disable('pirate-skill');
    expect(feature.systemSection(ctx)).toBeUndefined();
    const [stillThere] = feature.tools(ctx);
    expect(stillThere?.parametersJsonSchema['properties']).toEqual({
      name: { type: 'string', description: 'No skills are currently available.' },
    });
    feature.manager.enable('pirate-skill');

    const result = await feature.tools(ctx)[0]?.execute({ name: 'pirate-skill' }, ctx, {
      callId: 'x',
      signal: new AbortController().signal,
    });
    expect(result?.llmContent).toContain('<activated_skill name="pirate-skill">');
    expect(activated).toEqual(['pirate-skill']);
    expect(feature.manager.list()).toEqual([
      {
        name: 'pirate-skill',
        description: 'Speak like a pirate.',
        location: join(PIRATE, 'SKILL.md'),
        enabled: true,
        active: true,
        source: 'option',
        isBuiltin: false,
      },
    ]);
    expect((await feature.approvalDetails({ name: 'pirate-skill' }))?.name).toBe('pirate-skill');
  });

  it('offers no tool and no section when there are no skills', async () => {
    const feature = createSkillsFeature({
      ...isolated,
      home: join(base, 'home'),
      cwd: join(base, 'ws'),
    });
    await feature.load();
    expect(feature.tools(ctx)).toEqual([]);
    expect(feature.systemSection(ctx)).toBeUndefined();
  });

  it('loads user skills from GEMINI_CLI_HOME and hides the listing with GEMINI_PROMPT_AGENTSKILLS=0', async () => {
    const dir = join(base, 'home', '.gemini', 'skills', 'mine');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'SKILL.md'), '---\nname: mine\ndescription: Mine.\n---\n');
    const feature = createSkillsFeature({
      cwd: join(base, 'ws'),
      env: { GEMINI_CLI_HOME: join(base, 'home'), GEMINI_PROMPT_AGENTSKILLS: 'false' },
    });
    const manager = await feature.load();
    expect(manager.list().map((s) => [s.name, s.source])).toEqual([['mine', 'user']]);
    expect(feature.systemSection(ctx)).toBeUndefined();
    expect(feature.tools(ctx)).toHaveLength(1);
  });

  it('can be retried after an aborted load', async () => {
    const feature = createSkillsFeature({
      ...isolated,
      home: join(base, 'home'),
      cwd: join(base, 'ws'),
      references: [skillDir(PIRATE)],
    });
    const controller = new AbortController();
    controller.abort();
    await expect(feature.load(controller.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(feature.loaded).toBe(false);
    expect((await feature.load()).list()).toHaveLength(1);
  });
});

describe('createSkillsFeature with a real session workspace', () => {
  it('makes an activated skill folder readable but not writable through ctx.fs, only in that session', async () => {
    const { createWorkspace } = await import('../workspace/workspace.js');
    const skillFolder = join(base, 'skills', 'helper');
    await mkdir(join(skillFolder, 'scripts'), { recursive: true });
    await writeFile(
      join(skillFolder, 'SKILL.md'),
      '---\nname: helper\ndescription: Helps.\n---\nRead scripts/run.sh.\n',
    );
    await writeFile(join(skillFolder, 'scripts', 'run.sh'), 'echo hi\n');
    const feature = createSkillsFeature({
      ...isolated,
      home: join(base, 'home'),
      cwd: join(base, 'ws'),
      references: [skillDir(join(base, 'skills'))],
    });
    const workspace = createWorkspace({ cwd: join(base, 'ws') });
    const other = createWorkspace({ cwd: join(base, 'ws') });
    await feature.initialize({ workspace });
    await feature.initialize({ workspace: other });
    const sessionCtx = { fs: workspace.fs } as SessionContext;
    const resource = join(skillFolder, 'scripts', 'run.sh');

    expect(await workspace.fs.readFile(resource)).toBeNull();
    const [tool] = feature.tools(sessionCtx);
    const result = await tool?.execute({ name: 'helper' }, sessionCtx, {
      callId: 'c',
      signal: new AbortController().signal,
    });
    expect(result?.error).toBeUndefined();
    expect(await workspace.fs.readFile(resource)).toBe('echo hi\n');
    await expect(workspace.fs.writeFile(resource, 'rm -rf /')).rejects.toThrow();
    expect(await workspace.fs.readFile(resource)).toBe('echo hi\n');
    expect(await other.fs.readFile(resource)).toBeNull();
  });
});
