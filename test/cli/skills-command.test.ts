import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessCli } from './helpers/in-process-cli.js';
import { GeminiCliAgent } from '../../src/index.js';

const cli = inProcessCli;

function write(root: string, files: Record<string, string | object>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(
      join(root, path),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
}

const skill = (name: string, description: string): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.\n`;

let home: string;
let proj: string;
let before: string | undefined;

beforeEach(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'skills-cli-')));
  home = join(root, 'home');
  proj = join(root, 'proj');
  write(root, {
    'home/.gemini/skills/alpha/SKILL.md': skill('alpha', 'Alpha does A.'),
    'proj/.gemini/skills/beta/SKILL.md': skill('beta', 'Beta does B.'),
    'home/.gemini/trustedFolders.json': { [proj]: 'TRUST_FOLDER' },
  });
  before = process.env['GEMINI_CLI_HOME'];
  process.env['GEMINI_CLI_HOME'] = home;
});

afterEach(() => {
  if (before === undefined) delete process.env['GEMINI_CLI_HOME'];
  else process.env['GEMINI_CLI_HOME'] = before;
});

const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8')) as unknown;

describe('gemini-agent skills', () => {
  it('an agent honours what skills disable wrote: the skill is listed disabled and not offered', async () => {
    expect((await cli(['skills', 'disable', 'beta'], proj)).code).toBe(0);
    const agent = new GeminiCliAgent({ cwd: proj });
    const listed = (await agent.skills()).list().map((s) => [s.name, s.enabled]);
    expect(listed.sort()).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    expect((await agent.skills()).enabled().map((s) => s.name)).toEqual(['alpha']);
    await agent.close();
  });

  it('skills.enabled: false turns discovery off, as gemini-cli', async () => {
    write(proj, { '.gemini/settings.json': { skills: { enabled: false } } });
    const listing = await cli(['skills', 'list'], proj);
    expect(listing.stdout).toBe('No skills discovered.\n');
  });

  it('keeps the comments and other keys of the settings file it edits', async () => {
    write(proj, {
      '.gemini/settings.json': '{\n  // my model\n  "model": { "name": "gemini-2.5-flash" }\n}\n',
    });
    await cli(['skills', 'disable', 'beta'], proj);
    const text = readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8');
    expect(text).toContain('// my model');
    expect(text).toContain('"disabled": [\n      "beta"\n    ]');
    await cli(['skills', 'enable', 'beta'], proj);
    expect(readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8')).toContain('// my model');
  });

  it('in the home folder the user settings are the only file (gemini writes nowhere there)', async () => {
    const disabled = await cli(['skills', 'disable', 'alpha'], home);
    expect(disabled.code).toBe(0);
    expect(disabled.stderr).toBe(
      `Skill "alpha" disabled by adding it to the disabled list in user (${join(home, '.gemini', 'settings.json')}) settings.\n`,
    );
    expect(read(join(home, '.gemini', 'settings.json'))).toEqual({
      skills: { disabled: ['alpha'] },
    });
    const workspace = await cli(['skills', 'disable', 'alpha', '--scope', 'workspace'], home);
    expect(workspace.code).toBe(42);
    expect(workspace.stderr).toContain('use --scope user');
    const enabled = await cli(['skills', 'enable', 'alpha'], home);
    expect(enabled.stderr).toContain(
      'Skill "alpha" enabled by removing it from the disabled list in user (',
    );
    expect(read(join(home, '.gemini', 'settings.json'))).toEqual({ skills: { disabled: [] } });
  });

  it('an untrusted folder: its skills are not listed (unless --skip-trust), a workspace entry is written with a warning', async () => {
    write(home, { '.gemini/trustedFolders.json': {} });
    expect((await cli(['skills', 'list'], proj)).stdout).not.toContain('beta');
    expect((await cli(['skills', 'list', '--skip-trust'], proj)).stdout).toContain(
      'beta [Enabled]',
    );
    const disabled = await cli(['skills', 'disable', 'beta'], proj);
    expect(disabled.code).toBe(0);
    expect(disabled.stderr).toContain('this folder is not trusted');
    expect(read(join(proj, '.gemini', 'settings.json'))).toEqual({
      skills: { disabled: ['beta'] },
    });
  });

  it('an unknown name is still written, with a warning naming the skills there are', async () => {
    const result = await cli(['skills', 'disable', 'gamma'], proj);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'Warning: no skill of this folder is named "gamma" (skills: alpha, beta).',
    );
  });

  it('a malformed settings file is an error naming it, and is left unchanged', async () => {
    write(proj, { '.gemini/settings.json': '{ "skills": { "disabled": [ }' });
    const result = await cli(['skills', 'disable', 'beta'], proj);
    expect(result.code).toBe(52);
    expect(result.stderr).toContain(join(proj, '.gemini', 'settings.json'));
    expect(readFileSync(join(proj, '.gemini', 'settings.json'), 'utf8')).toBe(
      '{ "skills": { "disabled": [ }',
    );
  });

  it('bad command lines exit 1 with one line naming the problem; install/link/uninstall are refused', async () => {
    for (const argv of [
      ['skills'],
      ['skills', 'frobnicate'],
      ['skills', 'disable'],
      ['skills', 'disable', 'a', '--scope', 'system'],
      ['skills', 'enable', 'a', '--scope', 'user'],
      ['skills', 'list', '--bogus'],
    ]) {
      const result = await cli(argv, proj);
      expect({ argv, code: result.code }).toEqual({ argv, code: 1 });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const install = await cli(['skills', 'install', 'https://example.invalid/x.git'], proj);
    expect(install.code).toBe(42);
    expect(install.stderr).toContain('not supported');
    const help = await cli(['skills', '--help'], proj);
    expect(help.stdout).toContain('Usage: gemini-agent skills <command>');
  });
});
