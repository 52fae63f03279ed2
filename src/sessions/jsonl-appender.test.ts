import { constants } from 'node:fs';
import {
  appendFile,
  link,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlAppender } from './jsonl-appender.js';

let dir: string;
let path: string;
let appender: JsonlAppender;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jsonl-appender-'));
  path = join(dir, 'session.jsonl');
  appender = await JsonlAppender.create(path, 'none');
  await appender.append(['{"a":1}', '{"b":2}']);
});

afterEach(async () => {
  await appender.close();
  await rm(dir, { recursive: true, force: true });
});

describe('JsonlAppender.changedSince', () => {
  it('is undefined while the file is as our last write left it', async () => {
    expect(await appender.changedSince()).toBeUndefined();
    await appender.append(['{"c":3}']);
    expect(await appender.changedSince()).toBeUndefined();
  });

  it('sees another writer append (grown) and a truncation, through the path alone too', async () => {
    await appendFile(path, '{"other":1}\n');
    expect(await appender.changedSince()).toBe('grown');
    await truncate(path, 3);
    expect(await appender.changedSince()).toBe('truncated');
  });

  it('sees the file deleted, also when a file of the same size took its name afterwards', async () => {
    const { size } = appender.identity;
    await unlink(path);
    expect(await appender.changedSince()).toBe('deleted');
    await writeFile(path, 'x'.repeat(size));
    expect(await appender.changedSince()).toBe('deleted');
  });

  it('sees the file replaced by a rename of another file of the same size', async () => {
    await link(path, join(dir, 'kept.jsonl'));
    const other = join(dir, 'other.jsonl');
    await writeFile(other, 'x'.repeat(appender.identity.size));
    await rename(other, path);
    expect(await appender.changedSince()).toBe('replaced');
    await unlink(join(dir, 'kept.jsonl'));
    // Our descriptor's file has no name left at all now.
    expect(await appender.changedSince()).toBe('deleted');
  });

  it('compares with an identity remembered from another file or an earlier size', async () => {
    const now = appender.identity;
    expect(await appender.changedSince({ ...now, ino: now.ino + 1 })).toBe('replaced');
    expect(await appender.changedSince({ ...now, dev: now.dev + 1 })).toBe('replaced');
    expect(await appender.changedSince({ ...now, size: now.size - 1 })).toBe('grown');
    expect(await appender.changedSince({ ...now, size: now.size + 1 })).toBe('truncated');
  });
});

describe.runIf(process.platform === 'linux')('JsonlAppender sync policy (Linux)', () => {
  /** The open flags of this process's descriptors on `file` (from /proc/self/fdinfo). */
  async function openFlags(file: string): Promise<number[]> {
    const flags: number[] = [];
    for (const fd of await readdir('/proc/self/fd')) {
      const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
      if (target !== file) continue;
      const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8').catch(() => '');
      const octal = /^flags:\s+([0-7]+)$/m.exec(info)?.[1];
      if (octal !== undefined) flags.push(parseInt(octal, 8));
    }
    return flags;
  }

  it("policy 'data' writes through O_DSYNC (each write durable when it returns); 'none' does not", async () => {
    const dataPath = join(dir, 'data.jsonl');
    const data = await JsonlAppender.create(dataPath, 'data');
    const reopened = await JsonlAppender.openExisting(dataPath, 'data');
    try {
      const flags = await openFlags(await realpath(dataPath));
      expect(flags).toHaveLength(2);
      for (const f of flags) expect(f & constants.O_DSYNC).toBe(constants.O_DSYNC);
      expect((await openFlags(await realpath(path))).map((f) => f & constants.O_DSYNC)).toEqual([
        0,
      ]);
      await data.append(['{"a":1}']);
      await reopened.append(['{"b":2}']);
      expect(await readFile(dataPath, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    } finally {
      await data.close();
      await reopened.close();
    }
  });
});
