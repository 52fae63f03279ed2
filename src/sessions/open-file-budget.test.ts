import { appendFile, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, SessionLockedError } from '../errors.js';
import { FileSessionStore } from './file-session-store.js';
import type { MessageRecord } from './records.js';
import type { SessionLease } from './session-store.js';

const T0 = '2026-12-03T10:00:00.000Z';

function msg(id: string, text: string): MessageRecord {
  return { id, timestamp: T0, type: 'user', content: [{ text }] };
}

/** The descriptors this process holds on files under `dir`. */
async function openFilesUnder(dir: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir)) count++;
  }
  return count;
}

describe('FileSessionStore maxOpenFiles', () => {
  let chatsDir: string;
  beforeEach(async () => {
    chatsDir = await mkdtemp(join(tmpdir(), 'gas-budget-'));
  });
  afterEach(async () => {
    await rm(chatsDir, { recursive: true, force: true });
  });

  async function openSessions(store: FileSessionStore, n: number): Promise<SessionLease[]> {
    const leases: SessionLease[] = [];
    for (let i = 0; i < n; i++) {
      const lease = await store.acquireLease(`s${i}`);
      await store.create(lease, { startTime: T0 });
      leases.push(lease);
    }
    return leases;
  }

  it.runIf(process.platform === 'linux')(
    'keeps at most maxOpenFiles session files open while busy sessions write at once, and loses nothing',
    async () => {
      const store = new FileSessionStore({ chatsDir, maxOpenFiles: 3, sync: 'none' });
      const leases = await openSessions(store, 8);
      expect(await openFilesUnder(chatsDir)).toBeLessThanOrEqual(3);
      // Interleaved appends from every session at once, several queued per session.
      const writes: Array<Promise<unknown>> = [];
      for (let round = 0; round < 10; round++) {
        leases.forEach((lease, i) => {
          writes.push(store.append(lease, [msg(`m${round}`, `s${i} round ${round}`)]));
        });
      }
      await Promise.all(writes);
      expect(await openFilesUnder(chatsDir)).toBeLessThanOrEqual(3);
      for (const [i, lease] of leases.entries()) {
        const stored = await store.load(`s${i}`);
        expect(stored.messages.map((m) => (m.content as Array<{ text: string }>)[0]?.text)).toEqual(
          Array.from({ length: 10 }, (_, round) => `s${i} round ${round}`),
        );
        await lease.release();
      }
      expect(await openFilesUnder(chatsDir)).toBe(0);
    },
  );

  it('a file closed for the budget is still checked: another program appending to it is not overwritten', async () => {
    const store = new FileSessionStore({ chatsDir, maxOpenFiles: 1, sync: 'none' });
    const [first, second] = (await openSessions(store, 2)) as [SessionLease, SessionLease];
    // Opening the second closed the first's file; gemini-cli appends to it meanwhile.
    await store.append(second, [msg('b', 'second')]);
    const file = (await store.load('s0')).location;
    await appendFile(file, `${JSON.stringify(msg('foreign', 'from gemini-cli'))}\n`);
    await expect(store.append(first, [msg('a', 'first')])).rejects.toBeInstanceOf(
      SessionLockedError,
    );
    await first.release();
    await second.release();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxOpenFiles %s with a ConfigurationError', (bad) => {
    expect(() => new FileSessionStore({ chatsDir, maxOpenFiles: bad })).toThrow(ConfigurationError);
  });
});
