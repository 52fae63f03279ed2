import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { readFolderTrust, stripJsonComments, trustedFoldersPath } from './trusted-folders.js';

let home: string;
let ws: string;
beforeEach(async () => {
  home = await realpath(await mkdtemp(join(tmpdir(), 'skills-home-')));
  ws = join(home, 'projects', 'app');
  await mkdir(join(ws, 'sub'), { recursive: true });
  await mkdir(join(home, '.gemini'), { recursive: true });
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const writeRules = (rules: Record<string, string> | string) =>
  writeFile(
    join(home, '.gemini', 'trustedFolders.json'),
    typeof rules === 'string' ? rules : JSON.stringify(rules),
  );

describe('readFolderTrust (gemini-cli trustedFolders.json semantics)', () => {
  it('is undefined when the file is missing or no rule matches', async () => {
    expect(await readFolderTrust(ws, { home })).toBeUndefined();
    await writeRules({ [join(home, 'other')]: 'TRUST_FOLDER' });
    expect(await readFolderTrust(ws, { home })).toBeUndefined();
  });

  it('trusts a folder and its descendants with TRUST_FOLDER', async () => {
    await writeRules({ [ws]: 'TRUST_FOLDER' });
    expect(await readFolderTrust(ws, { home })).toBe(true);
    expect(await readFolderTrust(join(ws, 'sub'), { home })).toBe(true);
    expect(await readFolderTrust(join(home, 'projects'), { home })).toBeUndefined();
  });

  it('TRUST_PARENT trusts the parent of the rule path', async () => {
    await writeRules({ [join(home, 'projects', 'other')]: 'TRUST_PARENT' });
    expect(await readFolderTrust(ws, { home })).toBe(true);
  });

  it('the longest matching rule wins', async () => {
    await writeRules({ [join(home, 'projects')]: 'TRUST_FOLDER', [ws]: 'DO_NOT_TRUST' });
    expect(await readFolderTrust(join(ws, 'sub'), { home })).toBe(false);
    await writeRules({ [join(home, 'projects')]: 'DO_NOT_TRUST', [ws]: 'TRUST_FOLDER' });
    expect(await readFolderTrust(ws, { home })).toBe(true);
  });

  it('accepts comments and honours GEMINI_CLI_TRUSTED_FOLDERS_PATH', async () => {
    const custom = join(home, 'custom.json');
    await writeFile(custom, `{\n  // my project\n  "${ws}": "TRUST_FOLDER" /* ok */\n}`);
    const env = { GEMINI_CLI_TRUSTED_FOLDERS_PATH: custom };
    expect(trustedFoldersPath({ home, env })).toBe(custom);
    expect(await readFolderTrust(ws, { home, env })).toBe(true);
    expect(stripJsonComments('{"a//b": 1} // c')).toBe('{"a//b": 1} ');
  });

  it('warns about a malformed file and treats it as missing', async () => {
    await writeRules({ [ws]: 'TRUST_EVERYTHING' });
    const warnings: string[] = [];
    const logger: Logger = {
      debug() {},
      info() {},
      warn: (m) => warnings.push(m),
      error() {},
    };
    expect(await readFolderTrust(ws, { home }, logger)).toBeUndefined();
    expect(warnings[0]).toContain('trustedFolders.json');
    await writeRules('not json');
    expect(await readFolderTrust(ws, { home }, logger)).toBeUndefined();
    expect(warnings).toHaveLength(2);
  });
});
