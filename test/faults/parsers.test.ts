/**
 * Fault catalogue — user files built to break their parsers: a YAML alias bomb and a deeply nested frontmatter in a
 * SKILL.md, a large policy TOML and one nested past the parser's depth limit. Each loads or fails with a typed error
 * naming the file; none crashes, hangs or blows the stack. Sizes prove the point in seconds; timings are in `bench/`
 * territory, not asserted here.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  loadSettings,
  PolicyRuleError,
  SettingsFileError,
  skillDir,
  type GeminiCliAgentOptions,
} from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { tempProject } from './fault-helpers.js';

const base = (cwd: string, extra: GeminiCliAgentOptions): GeminiCliAgentOptions => ({
  cwd,
  builtinTools: false,
  skillDiscovery: false,
  retry: false,
  contentGenerator: new ScriptedModel([textTurn('ok')]),
  ...extra,
});

async function skillFile(cwd: string, name: string, frontmatter: string): Promise<string> {
  const dir = join(cwd, 'skills', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), `---\n${frontmatter}---\nThe body of ${name}.\n`);
  return dir;
}

describe('SKILL.md frontmatter', () => {
  it('a 1 MB YAML alias bomb (9 levels of 9 aliases) loads by name and description, never expanded', async () => {
    const cwd = await tempProject();
    let yaml =
      'name: bomb\ndescription: an alias bomb\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
    for (let i = 1; i < 9; i++)
      yaml += `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    yaml += `# ${'x'.repeat(1_000_000)}\n`;
    const dir = await skillFile(cwd, 'bomb', yaml);
    const session = new GeminiCliAgent(base(cwd, { skills: [skillDir(dir)] })).session();
    await session.initialize();
    expect(session.skills.list().map((s) => [s.name, s.description])).toEqual([
      ['bomb', 'an alias bomb'],
    ]);
    expect((await session.send('hi')).text).toBe('ok');
    await session.close();
  });

  it('a frontmatter nested 20,000 levels deep does not overflow the stack', async () => {
    const cwd = await tempProject();
    const depth = 20_000;
    const dir = await skillFile(
      cwd,
      'deep',
      `name: deep\ndescription: deeply nested\nx: ${'['.repeat(depth)}${']'.repeat(depth)}\n`,
    );
    const session = new GeminiCliAgent(base(cwd, { skills: [skillDir(dir)] })).session();
    await session.initialize();
    expect(session.skills.list().map((s) => s.name)).toEqual(['deep']);
    await session.close();
  });
});

describe('policy TOML files', () => {
  it('a 1 MB file of 10,000 rules loads, and its rules decide', async () => {
    const cwd = await tempProject();
    let toml = '';
    for (let i = 0; toml.length < 1_000_000; i++) {
      toml += `[[rule]]\ntoolName = "tool_${i}"\ndecision = "${i % 2 ? 'deny' : 'allow'}"\npriority = ${i % 900}\n\n`;
    }
    await writeFile(join(cwd, 'big.toml'), toml);
    const session = new GeminiCliAgent(base(cwd, { policy: { files: ['big.toml'] } })).session();
    await session.initialize();
    expect((await session.policy.explain({ name: 'tool_0' })).decision).toBe('allow');
    expect((await session.policy.explain({ name: 'tool_1' })).decision).toBe('deny');
    await session.close();
  });

  it('a file nested past the TOML depth limit fails typed, naming the file', async () => {
    const cwd = await tempProject();
    const depth = 100_000;
    await writeFile(join(cwd, 'deep.toml'), `x = ${'['.repeat(depth)}${']'.repeat(depth)}\n`);
    const session = new GeminiCliAgent(base(cwd, { policy: { files: ['deep.toml'] } })).session();
    const error = await session.initialize().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PolicyRuleError);
    expect((error as Error).message).toMatch(/deep\.toml.*excessively nested/s);
  });
});

describe('settings.json', () => {
  it.each([
    ['lists', (d: number) => `{ "x": ${'['.repeat(d)}${']'.repeat(d)} }`],
    ['objects', (d: number) => `{ "ui": ${'{"a":'.repeat(d)}1${'}'.repeat(d)} }`],
  ])(
    'nested 100,000 levels deep (%s) fails typed, naming the file, line and column — no stack overflow',
    async (_, build) => {
      const cwd = await tempProject();
      const home = join(cwd, 'home');
      await mkdir(join(home, '.gemini'), { recursive: true });
      const file = join(home, '.gemini', 'settings.json');
      await writeFile(file, build(100_000));
      const error = (() => {
        try {
          loadSettings({ cwd, home });
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(SettingsFileError);
      expect((error as Error).message).toContain(`Invalid JSON in ${file} at line 1, column `);
      expect((error as Error).message).toContain('objects and lists nest deeper than 100 levels');
    },
  );

  it('a file of 5 MB (100,000 tools.allowed entries) loads, and an agent uses it', async () => {
    const cwd = await tempProject();
    const home = join(cwd, 'home');
    await mkdir(join(home, '.gemini'), { recursive: true });
    const allowed = Array.from({ length: 100_000 }, (_, i) => `run_shell_command(git log -n ${i})`);
    await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify({ tools: { allowed } }));
    const loaded = loadSettings({ cwd, home });
    expect(loaded.merged.tools?.allowed).toHaveLength(100_000);
    expect(loaded.warnings).toEqual([]);
  });

  it('a file with 50,000 list items of the wrong type loads the valid ones, warning about each at its line', async () => {
    const cwd = await tempProject();
    const home = join(cwd, 'home');
    await mkdir(join(home, '.gemini'), { recursive: true });
    // Every other entry is a number: 50,000 values to drop (one validation pass per dropped value never ends).
    const allowed = Array.from({ length: 100_000 }, (_, i) => (i % 2 ? i : `read_file(${i})`));
    const file = join(home, '.gemini', 'settings.json');
    await writeFile(file, JSON.stringify({ tools: { allowed } }, null, 1));
    const loaded = loadSettings({ cwd, home });
    expect(loaded.merged.tools?.allowed).toHaveLength(50_000);
    expect(loaded.merged.tools?.allowed?.[1]).toBe('read_file(2)');
    expect(loaded.warnings).toHaveLength(50_000);
    // JSON.stringify(…, null, 1): line 1 "{", 2 "tools", 3 "allowed", item i on line 4 + i.
    expect(loaded.warnings[0]?.message).toBe(
      `${file}:5: "tools.allowed[1]" must be a string; the value is ignored.`,
    );
    expect(loaded.warnings[49_999]?.message).toBe(
      `${file}:100003: "tools.allowed[99999]" must be a string; the value is ignored.`,
    );
  });
});
