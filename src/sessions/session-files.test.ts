import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { createFilePersistence } from './session-persistence.js';
import { listSessionFiles, SharedFolderListing } from './session-files.js';
import { SessionExistsError } from './store-errors.js';

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

describe('session files of a chats folder', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gas-files-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('creating a session looks only at the files named with its short id (any minute), and refuses a stored one', async () => {
    const root = join(home, 'work', 'p');
    let minute = 0;
    const persistence = createFilePersistence({
      env: { GEMINI_CLI_HOME: home },
      now: () => new Date(Date.UTC(2026, 10, 30, 22, minute++)),
    });
    for (const id of ['aaaa1111-1', 'bbbb2222-1']) {
      await (await persistence.open(id, { resume: false, cwd: root })).close();
    }
    const dir = await new FileSessionStore({ home, projectRoot: root }).chatsDir();
    expect((await listSessionFiles(dir, 'aaaa1111')).map((f) => f.name)).toEqual([
      'session-2026-11-30T22-00-aaaa1111.jsonl',
    ]);
    expect((await listSessionFiles(dir)).map((f) => f.name)).toEqual([
      'session-2026-11-30T22-01-bbbb2222.jsonl',
      'session-2026-11-30T22-00-aaaa1111.jsonl',
    ]);
    // The stored session is found in another minute's file and is not replaced.
    await expect(persistence.open('aaaa1111-1', { resume: false, cwd: root })).rejects.toThrow(
      SessionExistsError,
    );
    // Same short id, another session: a file of its own, in the next free minute.
    await (await persistence.open('aaaa1111-2', { resume: false, cwd: root })).close();
    expect((await listSessionFiles(dir, 'aaaa1111')).length).toBe(2);
  });

  it('a shared folder listing: callers asking while a readdir runs share the next, which sees their files', async () => {
    const dir = join(home, 'listing');
    const listing = new SharedFolderListing(dir);
    expect(await listing.names()).toEqual([]); // no folder yet
    await mkdir(dir);
    await writeFile(join(dir, 'a'), '');
    const first = listing.names();
    writeFileSync(join(dir, 'b'), ''); // written after the first readdir was asked for, before the next
    const second = listing.names();
    const third = listing.names();
    expect(third).toBe(second);
    expect([...(await second)].sort()).toEqual(['a', 'b']);
    expect(await first).toContain('a');
    await writeFile(join(dir, 'c'), '');
    const later = listing.names();
    expect(later).not.toBe(second);
    expect([...(await later)].sort()).toEqual(['a', 'b', 'c']);
  });
});
