import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessionFiles } from './session-files.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('listSessionFiles', () => {
  it('lists session files newest first, names descending when the times are equal', async () => {
    dir = await mkdtemp(join(tmpdir(), 'session-files-'));
    const names = [
      'session-2026-01-01T00-00-aaaaaaaa.json',
      'session-2026-01-01T00-00-aaaaaaaa.jsonl',
      'session-2026-01-01T00-01-00000000.jsonl',
      'session-2026-01-01T00-00-bbbbbbbb.jsonl',
      'session-2026-01-02T00-00-cccccccc.jsonl',
      'other.jsonl',
      'session-x.lock',
    ];
    for (const name of names) await writeFile(join(dir, name), '');
    const same = new Date('2026-01-01T00:00:00.000Z');
    for (const name of names) await utimes(join(dir, name), same, same);
    const newest = new Date('2026-01-03T00:00:00.000Z');
    await utimes(join(dir, 'session-2026-01-01T00-00-bbbbbbbb.jsonl'), newest, newest);
    expect((await listSessionFiles(dir)).map((f) => f.name)).toEqual([
      'session-2026-01-01T00-00-bbbbbbbb.jsonl',
      'session-2026-01-02T00-00-cccccccc.jsonl',
      'session-2026-01-01T00-01-00000000.jsonl',
      'session-2026-01-01T00-00-aaaaaaaa.jsonl',
      'session-2026-01-01T00-00-aaaaaaaa.json',
    ]);
    expect(await listSessionFiles(join(dir, 'missing'))).toEqual([]);
  });
});
