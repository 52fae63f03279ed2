import {
  appendFile,
  link,
  mkdtemp,
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
