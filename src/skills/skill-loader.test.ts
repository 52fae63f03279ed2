import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { MAX_SKILL_DESCRIPTION_CHARS } from './skill-definition.js';
import { loadSkillsFromDir } from './skill-loader.js';

const FIXTURE_ROOT = resolve('test/fixtures/gemini-cli-sdk-test-data/skills');
const PIRATE = join(FIXTURE_ROOT, 'pirate-skill');

interface Entry {
  level: string;
  message: string;
  data?: Record<string, unknown>;
}
function recordingLogger(): Logger & { entries: Entry[]; warnings: () => Entry[] } {
  const entries: Entry[] = [];
  const log = (level: string) => (message: string, data?: Record<string, unknown>) => {
    entries.push({ level, message, ...(data ? { data } : {}) });
  };
  return {
    entries,
    warnings: () => entries.filter((e) => e.level === 'warn'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  };
}

const skillMd = (name: string, description = `The ${name} skill.`, body = `Use ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

let tmp: string;
beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'skills-loader-')));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function writeSkill(dir: string, content: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'SKILL.md');
  await writeFile(file, content);
  return file;
}

describe('loadSkillsFromDir with the pirate-skill fixture', () => {
  it('loads a skill directory as one skill', async () => {
    const skills = await loadSkillsFromDir(PIRATE);
    expect(skills).toEqual([
      {
        name: 'pirate-skill',
        description: 'Speak like a pirate.',
        location: join(PIRATE, 'SKILL.md'),
        folder: await realpath(PIRATE),
        body: 'Answer every message the way a pirate would talk, and say "Arrr" in each answer.',
        source: 'option',
        isBuiltin: false,
      },
    ]);
  });

  it('loads a root of skills from its immediate subdirectories', async () => {
    const skills = await loadSkillsFromDir(FIXTURE_ROOT, { source: 'user' });
    expect(skills.map((s) => [s.name, s.location, s.source])).toEqual([
      ['pirate-skill', join(PIRATE, 'SKILL.md'), 'user'],
    ]);
  });
});

describe('loadSkillsFromDir depth rule', () => {
  it('loads the directory itself and its children, never grandchildren, hidden dirs or node_modules', async () => {
    await writeSkill(tmp, skillMd('top'));
    await writeSkill(join(tmp, 'b-child'), skillMd('b-child'));
    await writeSkill(join(tmp, 'a-child'), skillMd('a-child'));
    await writeSkill(join(tmp, 'a-child', 'deeper'), skillMd('deeper'));
    await writeSkill(join(tmp, '.hidden'), skillMd('hidden'));
    await writeSkill(join(tmp, 'node_modules'), skillMd('nm'));
    await mkdir(join(tmp, 'scripts'));
    await writeFile(join(tmp, 'notes.md'), 'not a skill');
    const skills = await loadSkillsFromDir(tmp);
    expect(skills.map((s) => s.name)).toEqual(['top', 'a-child', 'b-child']);
    expect(skills[1]?.folder).toBe(join(tmp, 'a-child'));
  });

  it('returns [] for a missing directory or a file', async () => {
    expect(await loadSkillsFromDir(join(tmp, 'missing'))).toEqual([]);
    await writeFile(join(tmp, 'file'), 'x');
    expect(await loadSkillsFromDir(join(tmp, 'file'))).toEqual([]);
  });

  it('sanitises names and records builtin/extension provenance', async () => {
    await writeSkill(join(tmp, 's'), skillMd('"team:review"'));
    const [skill] = await loadSkillsFromDir(tmp, {
      source: 'extension',
      extensionName: 'ext',
      isBuiltin: false,
    });
    expect(skill).toMatchObject({ name: 'team-review', source: 'extension', extensionName: 'ext' });
  });
});

describe('loadSkillsFromDir hostile inputs: skipped with a warning, never a crash', () => {
  it('skips a SKILL.md without a name', async () => {
    const file = await writeSkill(join(tmp, 'noname'), '---\ndescription: nameless\n---\nbody');
    await writeSkill(join(tmp, 'good'), skillMd('good'));
    const logger = recordingLogger();
    const skills = await loadSkillsFromDir(tmp, { logger });
    expect(skills.map((s) => s.name)).toEqual(['good']);
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]?.message).toContain(file);
    expect(logger.warnings()[0]?.message).toContain('"name" and "description"');
    expect(logger.warnings()[0]?.data).toMatchObject({ file });
  });

  it('skips YAML garbage and a file without frontmatter', async () => {
    const garbage = await writeSkill(join(tmp, 'garbage'), '---\n{[: *x &y\n\t- ]]\n---\n');
    const plain = await writeSkill(join(tmp, 'plain'), '# no frontmatter here\n');
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    const messages = logger.warnings().map((w) => w.message);
    expect(messages.some((m) => m.includes(garbage))).toBe(true);
    expect(messages.some((m) => m.includes(plain) && m.includes('no YAML frontmatter'))).toBe(true);
  });

  it('caps a 1 MB description with a warning', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    const file = await writeSkill(join(tmp, 'huge'), skillMd('huge', huge));
    const logger = recordingLogger();
    const [skill] = await loadSkillsFromDir(tmp, { logger });
    expect(skill?.name).toBe('huge');
    expect(skill?.description).toBe(`${'x'.repeat(MAX_SKILL_DESCRIPTION_CHARS)}...`);
    expect(logger.warnings()[0]?.message).toContain(file);
    expect(logger.warnings()[0]?.message).toContain('truncated');
  });

  it('skips a file over the size limit', async () => {
    const file = await writeSkill(
      join(tmp, 'big'),
      skillMd('big', 'd', 'y'.repeat(5 * 1024 * 1024)),
    );
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    expect(logger.warnings()[0]?.message).toContain(file);
    expect(logger.warnings()[0]?.message).toContain('limit');
  });

  it('skips a skill directory symlinked outside the root, keeps one linking inside', async () => {
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'skills-outside-')));
    try {
      await writeSkill(join(outside, 'secret'), skillMd('secret'));
      const root = join(tmp, 'root');
      await writeSkill(join(root, 'real'), skillMd('real'));
      await symlink(join(outside, 'secret'), join(root, 'linked-out'));
      await symlink(join(root, 'real'), join(root, 'linked-in'));
      const logger = recordingLogger();
      const skills = await loadSkillsFromDir(root, { logger });
      expect(skills.map((s) => s.name)).toEqual(['real', 'real']);
      expect(logger.warnings()).toHaveLength(1);
      expect(logger.warnings()[0]?.message).toContain(join(root, 'linked-out', 'SKILL.md'));
      expect(logger.warnings()[0]?.message).toContain('outside');

      // The user tier opts in (gemini skills link makes such links).
      const followed = await loadSkillsFromDir(root, { followSymlinks: true });
      expect(followed.map((s) => [s.name, s.folder])).toContainEqual([
        'secret',
        join(outside, 'secret'),
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('skips a SKILL.md that is a symlink to a file outside its skill directory', async () => {
    await writeFile(join(tmp, 'elsewhere.md'), skillMd('stolen'));
    await mkdir(join(tmp, 'root', 'evil'), { recursive: true });
    await symlink(join(tmp, 'elsewhere.md'), join(tmp, 'root', 'evil', 'SKILL.md'));
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(join(tmp, 'root'), { logger })).toEqual([]);
    expect(logger.warnings()[0]?.message).toContain(join(tmp, 'root', 'evil', 'SKILL.md'));
  });

  it('skips a SKILL.md that is a directory', async () => {
    await mkdir(join(tmp, 'dirskill', 'SKILL.md'), { recursive: true });
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    expect(logger.warnings()[0]?.message).toContain(join(tmp, 'dirskill', 'SKILL.md'));
    expect(logger.warnings()[0]?.message).toContain('is a directory');
  });

  it('skips a binary SKILL.md (NUL bytes)', async () => {
    await mkdir(join(tmp, 'bin'));
    const file = join(tmp, 'bin', 'SKILL.md');
    await writeFile(
      file,
      Buffer.concat([Buffer.from(skillMd('bin')), Buffer.from([0, 1, 2, 0xff])]),
    );
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    expect(logger.warnings()[0]?.message).toContain(file);
    expect(logger.warnings()[0]?.message).toContain('binary');
  });

  it('skips a dangling SKILL.md symlink and a FIFO without hanging', async () => {
    await mkdir(join(tmp, 'dangling'));
    await symlink(join(tmp, 'dangling', 'gone.md'), join(tmp, 'dangling', 'SKILL.md'));
    await mkdir(join(tmp, 'fifo'));
    execFileSync('mkfifo', [join(tmp, 'fifo', 'SKILL.md')]);
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    const messages = logger.warnings().map((w) => w.message);
    expect(messages.some((m) => m.includes(join(tmp, 'dangling', 'SKILL.md')))).toBe(true);
    expect(
      messages.some((m) => m.includes(join(tmp, 'fifo', 'SKILL.md')) && m.includes('regular file')),
    ).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)('skips an unreadable SKILL.md', async () => {
    const file = await writeSkill(join(tmp, 'locked'), skillMd('locked'));
    await chmod(file, 0o000);
    const logger = recordingLogger();
    expect(await loadSkillsFromDir(tmp, { logger })).toEqual([]);
    expect(logger.warnings()[0]?.message).toContain(file);
    expect(logger.warnings()[0]?.message).toContain('EACCES');
  });

  it('rejects with AbortError when aborted', async () => {
    await writeSkill(join(tmp, 'a'), skillMd('a'));
    const controller = new AbortController();
    controller.abort();
    await expect(loadSkillsFromDir(tmp, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});
