import { link, mkdtemp, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLockFile } from './session-lock-file.js';

describe('SessionLockFile heartbeat', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gas-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a lock it cannot read is not lost (the next beat reads again); a lock that is gone is', async () => {
    const path = join(dir, 'session-a.lock');
    const lock = await SessionLockFile.acquire(path, 'a', { heartbeatMs: 10 });
    try {
      // The lock path becomes unreadable for a while (a symlink to itself: ELOOP, as EMFILE would fail the read),
      // swapped in and out atomically so the heartbeat never sees it missing.
      await link(path, `${path}.aside`);
      await symlink(path, `${path}.loop`);
      await rename(`${path}.loop`, path);
      await sleep(80);
      expect(lock.lost).toBe(false);
      await rename(`${path}.aside`, path);
      await sleep(80);
      expect(lock.lost).toBe(false);
      await rm(path);
      await sleep(80);
      expect(lock.lost).toBe(true);
    } finally {
      await lock.release();
    }
  });
});
