import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { discoverSkills, resolveSkillsHome } from './skill-discovery.js';
import { skillDir } from './skill-reference.js';

const PIRATE = resolve('test/fixtures/gemini-cli-sdk-test-data/skills/pirate-skill');

let base: string;
let home: string;
let ws: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'skills-discovery-')));
  home = join(base, 'home');
  ws = join(base, 'ws');
  await mkdir(home, { recursive: true });
  await mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function skill(dir: string, name: string, description: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: ${description}\n---\nbody of ${description}\n`,
  );
  return join(dir, 'SKILL.md');
}

function warnLogger(): Logger & { warnings: string[]; debugs: string[] } {
  const warnings: string[] = [];
  const debugs: string[] = [];
  return {
    warnings,
    debugs,
    debug: (m) => debugs.push(m),
    info() {},
    warn: (m) => warnings.push(m),
    error() {},
  };
}

/** One skill named `shared` in every tier, plus one unique skill per tier. */
async function populateTiers(): Promise<void> {
  await skill(join(base, 'builtin', 'shared'), 'shared', 'from builtin');
  await skill(join(base, 'ext', 'skills', 'shared'), 'shared', 'from extension');
  await skill(join(home, '.gemini', 'skills', 'shared'), 'shared', 'from ~/.gemini');
  await skill(join(home, '.gemini', 'skills', 'user-only'), 'user-only', 'user only');
  await skill(join(home, '.agents', 'skills', 'shared'), 'shared', 'from ~/.agents');
  await skill(join(ws, '.gemini', 'skills', 'shared'), 'shared', 'from ws .gemini');
  await skill(join(ws, '.agents', 'skills', 'shared'), 'shared', 'from ws .agents');
  await skill(join(ws, '.agents', 'skills', 'ws-only'), 'ws-only', 'ws only');
  await skill(join(base, 'option', 'shared'), 'shared', 'from option');
}

describe('discoverSkills tiers', () => {
  const extensions = () => [{ name: 'my-ext', skills: [skillDir(join(base, 'ext', 'skills'))] }];

  it('later tiers win by name: builtin < extension < user < workspace < option', async () => {
    await populateTiers();
    const logger = warnLogger();
    const all = await discoverSkills({
      cwd: ws,
      home,
      env: {},
      trusted: true,
      builtin: [skillDir(join(base, 'builtin'))],
      extensions: extensions(),
      references: [skillDir(join(base, 'option'))],
      logger,
    });
    const byName = Object.fromEntries(all.map((s) => [s.name, [s.description, s.source]]));
    expect(byName).toEqual({
      shared: ['from option', 'option'],
      'user-only': ['user only', 'user'],
      'ws-only': ['ws only', 'workspace'],
    });
    // Every non-builtin override is reported in gemini-cli's words; overriding a built-in is only debug.
    expect(logger.warnings).toContain(
      `Skill conflict detected: "shared" from "${join(base, 'option', 'shared', 'SKILL.md')}" is overriding the same skill from "${join(ws, '.agents', 'skills', 'shared', 'SKILL.md')}".`,
    );
    expect(logger.warnings.filter((w) => w.startsWith('Skill conflict'))).toHaveLength(5);
    expect(logger.debugs.some((d) => d.includes('from "' + join(base, 'builtin')))).toBe(true);
  });

  it('drops tiers one by one to show each precedence step', async () => {
    await populateTiers();
    const pick = async (opts: Partial<Parameters<typeof discoverSkills>[0]>) =>
      (await discoverSkills({ cwd: ws, home, env: {}, ...opts })).find((s) => s.name === 'shared')
        ?.description;
    expect(await pick({ trusted: true })).toBe('from ws .agents');
    expect(await pick({ trusted: false })).toBe('from ~/.agents');
    await rm(join(home, '.agents'), { recursive: true });
    expect(await pick({ trusted: false })).toBe('from ~/.gemini');
    expect(await pick({ discovery: false, extensions: extensions() })).toBe('from extension');
    expect(await pick({ discovery: false, builtin: [skillDir(join(base, 'builtin'))] })).toBe(
      'from builtin',
    );
    expect(await pick({ discovery: { user: false }, trusted: true })).toBe('from ws .agents');
  });

  it('marks built-in and extension skills', async () => {
    await populateTiers();
    const [fromBuiltin] = await discoverSkills({
      cwd: ws,
      home,
      env: {},
      discovery: false,
      builtin: [skillDir(join(base, 'builtin'))],
    });
    expect(fromBuiltin).toMatchObject({ isBuiltin: true, source: 'builtin' });
    const [fromExt] = await discoverSkills({
      cwd: ws,
      home,
      env: {},
      discovery: false,
      extensions: extensions(),
    });
    expect(fromExt).toMatchObject({
      isBuiltin: false,
      source: 'extension',
      extensionName: 'my-ext',
    });
  });

  it('finds home through GEMINI_CLI_HOME', async () => {
    await populateTiers();
    const all = await discoverSkills({ cwd: ws, env: { GEMINI_CLI_HOME: home }, trusted: false });
    expect(all.map((s) => [s.name, s.description])).toEqual([
      ['shared', 'from ~/.agents'],
      ['user-only', 'user only'],
    ]);
    expect(resolveSkillsHome(undefined, { GEMINI_CLI_HOME: home })).toBe(home);
    expect(resolveSkillsHome(join(base, 'x'), { GEMINI_CLI_HOME: home })).toBe(join(base, 'x'));
  });

  it('loads workspace skills only when trustedFolders.json trusts the folder (no option given)', async () => {
    await populateTiers();
    const logger = warnLogger();
    const names = async () =>
      (await discoverSkills({ cwd: ws, home, env: {}, logger })).map((s) => s.name);
    expect(await names()).not.toContain('ws-only');
    expect(logger.debugs).toContain('Workspace skills disabled because folder is not trusted.');
    await mkdir(join(home, '.gemini'), { recursive: true });
    await writeFile(
      join(home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [ws]: 'TRUST_FOLDER' }),
    );
    expect(await names()).toContain('ws-only');
    await writeFile(
      join(home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [ws]: 'DO_NOT_TRUST' }),
    );
    expect(await names()).not.toContain('ws-only');
  });

  it('follows symlinks in the user tier (gemini skills link) but not in the workspace tier', async () => {
    const linked = join(base, 'linked-skill');
    await skill(linked, 'linked', 'linked skill');
    await mkdir(join(home, '.gemini', 'skills'), { recursive: true });
    await symlink(linked, join(home, '.gemini', 'skills', 'linked'));
    await mkdir(join(ws, '.gemini', 'skills'), { recursive: true });
    await symlink(linked, join(ws, '.gemini', 'skills', 'linked-ws'));
    const logger = warnLogger();
    const all = await discoverSkills({ cwd: ws, home, env: {}, trusted: true, logger });
    expect(all.map((s) => [s.name, s.source, s.folder])).toEqual([['linked', 'user', linked]]);
    expect(
      logger.warnings.some((w) => w.includes(join(ws, '.gemini', 'skills', 'linked-ws'))),
    ).toBe(true);
  });

  it('warns about an explicit reference that yields no skill, and resolves relative paths against cwd', async () => {
    const logger = warnLogger();
    await skill(join(ws, 'my-skills', 'a'), 'a', 'relative');
    const all = await discoverSkills({
      cwd: ws,
      home,
      env: {},
      discovery: false,
      references: [skillDir('my-skills'), skillDir('missing'), skillDir(PIRATE)],
      logger,
    });
    expect(all.map((s) => s.name)).toEqual(['a', 'pirate-skill']);
    expect(logger.warnings).toEqual([
      `No skills loaded from ${join(ws, 'missing')}: it must be a directory holding SKILL.md, or subdirectories that do.`,
    ]);
  });
});
