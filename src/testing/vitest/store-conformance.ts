import { afterEach, describe, expect, it } from 'vitest';
import type { SessionLogEntry } from '../../core/session-log.js';
import { SessionError, SessionLockedError, SessionNotFoundError } from '../../errors.js';
import type { MessageRecord } from '../../sessions/records.js';
import { createStorePersistence } from '../../sessions/session-persistence.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { SAMPLE_START, sampleSessionEntries } from '../sample-session-entries.js';

/** Options of {@link describeSessionStoreConformance}. */
export interface SessionStoreConformanceOptions {
  /** Called after each test with every store the test made (close pools, remove temp folders). */
  cleanup?: (store: SessionStore) => Promise<void> | void;
}

const T0 = SAMPLE_START;

function msg(
  id: string,
  type: MessageRecord['type'],
  text: string,
  extra: object = {},
): MessageRecord {
  return { id, timestamp: T0, type, content: [{ text }], ...extra };
}

/**
 * The shared behaviour every {@link SessionStore} must have, as a vitest suite. Run it from a test file with a
 * factory returning a fresh, empty store per call:
 *
 * ```ts
 * describeSessionStoreConformance('postgres', async () => new PgSessionStore(await freshSchema()), {
 *   cleanup: (store) => (store as PgSessionStore).close(),
 * });
 * ```
 */
export function describeSessionStoreConformance(
  name: string,
  makeStore: () => SessionStore | Promise<SessionStore>,
  options: SessionStoreConformanceOptions = {},
): void {
  describe(`SessionStore conformance: ${name}`, () => {
    let made: SessionStore[] = [];
    const fresh = async (): Promise<SessionStore> => {
      const store = await makeStore();
      made.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of made) await options.cleanup?.(store);
      made = [];
    });

    async function created(store: SessionStore, id: string) {
      const lease = await store.acquireLease(id);
      await store.create(lease, { startTime: T0 });
      return lease;
    }

    it('creates a session whose metadata loads back, with no messages', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-create');
      const loaded = await store.load('conf-create');
      expect(loaded.metadata).toMatchObject({
        sessionId: 'conf-create',
        startTime: T0,
        lastUpdated: T0,
      });
      expect(typeof loaded.metadata.projectHash).toBe('string');
      expect(loaded.messages).toEqual([]);
      await lease.release();
    });

    it('appends messages in order and reads back every field, unknown ones included', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-append');
      const first = msg('m1', 'user', 'hello', {
        displayContent: 'hi',
        futureField: { x: [1, 2] },
      });
      const second = msg('m2', 'gemini', 'world', { tokens: null, model: 'm' });
      await store.append(lease, [first]);
      await store.append(lease, [second, { $set: { lastUpdated: '2026-01-02T04:00:00.000Z' } }]);
      const loaded = await store.load('conf-append');
      expect(loaded.messages).toEqual([first, second]);
      expect(loaded.metadata.lastUpdated).toBe('2026-01-02T04:00:00.000Z');
      await lease.release();
    });

    it('upserts a message appended again with the same id in its first position', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-upsert');
      await store.append(lease, [
        msg('a', 'user', '1'),
        msg('b', 'gemini', '2'),
        msg('c', 'user', '3'),
      ]);
      await store.append(lease, [
        msg('b', 'gemini', '2 with tokens', {
          tokens: { input: 1, output: 2, cached: 0, total: 3 },
        }),
      ]);
      const loaded = await store.load('conf-upsert');
      expect(loaded.messages.map((m) => m.id)).toEqual(['a', 'b', 'c']);
      expect(loaded.messages[1]?.content).toEqual([{ text: '2 with tokens' }]);
      await lease.release();
    });

    it('applies $set (metadata merge, messages checkpoint) and $rewindTo', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-set');
      await store.append(lease, [
        msg('a', 'user', '1'),
        msg('b', 'gemini', '2'),
        msg('c', 'user', '3'),
      ]);
      await store.append(lease, [{ $rewindTo: 'b' }]);
      expect((await store.load('conf-set')).messages.map((m) => m.id)).toEqual(['a']);
      await store.append(lease, [
        { $set: { summary: 'a summary', messages: [msg('x', 'user', 'x')] } },
      ]);
      await store.append(lease, [msg('y', 'gemini', 'y')]);
      const loaded = await store.load('conf-set');
      expect(loaded.messages.map((m) => m.id)).toEqual(['x', 'y']);
      expect(loaded.metadata.summary).toBe('a summary');
      expect(loaded.metadata).not.toHaveProperty('messages');
      await store.append(lease, [{ $rewindTo: 'no-such-id' }]);
      expect((await store.load('conf-set')).messages).toEqual([]);
      await lease.release();
    });

    it('refuses to create an id twice and to append to a session never created', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-twice');
      await expect(store.create(lease, { startTime: T0 })).rejects.toMatchObject({
        code: 'SESSION_EXISTS',
      });
      const other = await store.acquireLease('conf-never-created');
      await expect(store.append(other, [msg('a', 'user', 'x')])).rejects.toBeInstanceOf(
        SessionNotFoundError,
      );
      await Promise.all([lease.release(), other.release()]);
    });

    it('reports unknown ids with the reference messages', async () => {
      const store = await fresh();
      const empty = store.load('nope-1234');
      await expect(empty).rejects.toBeInstanceOf(SessionNotFoundError);
      await expect(empty).rejects.toThrow(/^No sessions found in /);
      await (await created(store, 'conf-known')).release();
      await expect(store.load('nope-1234')).rejects.toThrow('Session with ID nope-1234 not found');
    });

    it('grants one lease per id until it is released; other ids are independent', async () => {
      const store = await fresh();
      const lease = await store.acquireLease('conf-lease');
      await expect(store.acquireLease('conf-lease')).rejects.toBeInstanceOf(SessionLockedError);
      const other = await store.acquireLease('conf-lease-2');
      await lease.release();
      await lease.release();
      expect(lease.released).toBe(true);
      const again = await store.acquireLease('conf-lease');
      await Promise.all([again.release(), other.release()]);
    });

    describe('handover of idle leases (stores whose leases have setIdle)', () => {
      it('an idle lease is taken over at once; the old holder can neither write nor go busy', async (ctx) => {
        const store = await fresh();
        const old = await created(store, 'conf-idle');
        if (old.setIdle === undefined) return ctx.skip();
        await store.append(old, [msg('a', 'user', 'first')]);
        await old.setIdle(true);
        const newer = await store.acquireLease('conf-idle');
        await store.append(newer, [msg('b', 'gemini', 'second')]);
        await expect(store.append(old, [msg('c', 'user', 'stale')])).rejects.toBeInstanceOf(
          SessionLockedError,
        );
        expect(old.lost).toBe(true);
        await expect(old.setIdle(false)).rejects.toBeInstanceOf(SessionLockedError);
        await old.release();
        // Releasing the lost lease gave nothing of the newer holder's away.
        await expect(store.acquireLease('conf-idle')).rejects.toBeInstanceOf(SessionLockedError);
        await store.append(newer, [msg('d', 'user', 'third')]);
        expect((await store.load('conf-idle')).messages.map((m) => m.id)).toEqual(['a', 'b', 'd']);
        await newer.release();
      });

      it('a busy lease is never taken over; idle then busy again with no contender keeps it', async (ctx) => {
        const store = await fresh();
        const lease = await created(store, 'conf-busy');
        if (lease.setIdle === undefined) return ctx.skip();
        await expect(store.acquireLease('conf-busy')).rejects.toBeInstanceOf(SessionLockedError);
        await lease.setIdle(true);
        await lease.setIdle(false);
        await expect(store.acquireLease('conf-busy')).rejects.toBeInstanceOf(SessionLockedError);
        await store.append(lease, [msg('a', 'user', 'still mine')]);
        expect(lease.lost ?? false).toBe(false);
        await lease.release();
      });

      it('through the persistence seam: between turns a newer opener takes over, the stale log is refused', async (ctx) => {
        const store = await fresh();
        const probe = await store.acquireLease('conf-probe');
        const handsOver = probe.setIdle !== undefined;
        await probe.release();
        if (!handsOver) return ctx.skip();
        const cwd = process.cwd();
        const [prompt, answer, , , again] = sampleSessionEntries() as SessionLogEntry[];
        const first = createStorePersistence({ store });
        const second = createStorePersistence({ store });
        const older = await first.open('conf-handover', { resume: false, cwd });
        await older.append(prompt as SessionLogEntry);
        await older.finishTurn?.();
        const newer = await second.open('conf-handover', { resume: true, cwd });
        expect(newer.history).toEqual([prompt?.content]);
        await expect(older.startTurn?.()).rejects.toBeInstanceOf(SessionLockedError);
        await expect(older.append(answer as SessionLogEntry)).rejects.toBeInstanceOf(
          SessionLockedError,
        );
        await newer.append(again as SessionLogEntry);
        await newer.finishTurn?.();
        await older.close();
        await newer.close();
        expect(await first.loadHistory('conf-handover')).toEqual([prompt?.content, again?.content]);
      });
    });

    it('refuses writes with a released lease or a lease from another store', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-released');
      await lease.release();
      const write = store.append(lease, [msg('a', 'user', 'x')]);
      await expect(write).rejects.toBeInstanceOf(SessionError);
      await expect(write).rejects.toMatchObject({ code: 'SESSION_LEASE_INVALID' });
      const foreign = await (await fresh()).acquireLease('conf-foreign');
      await expect(store.append(foreign, [msg('a', 'user', 'x')])).rejects.toMatchObject({
        code: 'SESSION_LEASE_INVALID',
      });
      await foreign.release();
    });

    it('lists sessions with times, first prompt, summary and count, oldest first', async () => {
      const store = await fresh();
      const later = await store.acquireLease('conf-list-b');
      await store.create(later, { startTime: '2026-02-01T00:00:00.000Z' });
      await store.append(later, [
        msg('s', 'user', '<session_context>env</session_context>'),
        msg('p', 'user', '  Fix the bug  '),
      ]);
      await store.append(later, [
        { $set: { summary: 'Bug fixing', lastUpdated: '2026-02-01T01:00:00.000Z' } },
      ]);
      const earlier = await created(store, 'conf-list-a');
      const list = await store.list();
      expect(list.map((s) => s.sessionId)).toEqual(['conf-list-a', 'conf-list-b']);
      expect(list[1]).toMatchObject({
        sessionId: 'conf-list-b',
        startTime: '2026-02-01T00:00:00.000Z',
        lastUpdated: '2026-02-01T01:00:00.000Z',
        summary: 'Bug fixing',
        firstPrompt: 'Fix the bug',
        messageCount: 2,
        kind: 'main',
      });
      expect(list[0]).toMatchObject({ messageCount: 0, startTime: T0 });
      expect(list[0]).not.toHaveProperty('firstPrompt');
      await Promise.all([later.release(), earlier.release()]);
    });

    it('deletes sessions, refusing while another writer holds one', async () => {
      const store = await fresh();
      const held = await created(store, 'conf-del-held');
      await (await created(store, 'conf-del')).release();
      await expect(store.delete('conf-del-held')).rejects.toBeInstanceOf(SessionLockedError);
      expect(await store.delete('conf-del-held', { lease: held })).toBe(true);
      expect(await store.delete('conf-del')).toBe(true);
      expect(await store.delete('conf-del')).toBe(false);
      await expect(store.load('conf-del')).rejects.toBeInstanceOf(SessionNotFoundError);
      expect(await store.list()).toEqual([]);
      await held.release();
      await (await created(store, 'conf-del')).release();
    });

    it('keeps thousands of messages in order', async () => {
      const store = await fresh();
      const lease = await created(store, 'conf-many');
      for (let i = 0; i < 2000; i += 100) {
        await store.append(
          lease,
          Array.from({ length: 100 }, (_, k) => msg(`m${i + k}`, 'user', `#${i + k}`)),
        );
      }
      const loaded = await store.load('conf-many');
      expect(loaded.messages).toHaveLength(2000);
      expect(loaded.messages.every((m, i) => m.id === `m${i}`)).toBe(true);
      await lease.release();
    });

    describe('through the agent persistence seam', () => {
      it('resumes the exact history: parallel calls, call ids, two prompts', async () => {
        const persistence = createStorePersistence({ store: await fresh() });
        const entries = sampleSessionEntries();
        const log = await persistence.open('conf-exact', { resume: false, cwd: process.cwd() });
        for (const entry of entries) await log.append(entry);
        await log.close();
        const resumed = await persistence.open('conf-exact', { resume: true, cwd: process.cwd() });
        expect(resumed.history).toEqual(entries.map((e) => e.content));
        await resumed.close();
      });

      it('answers calls left without results with interrupted errors, and stores them', async () => {
        const persistence = createStorePersistence({ store: await fresh() });
        const [prompt, calls] = sampleSessionEntries() as [SessionLogEntry, SessionLogEntry];
        const log = await persistence.open('conf-crash', { resume: false, cwd: process.cwd() });
        await log.append(prompt);
        await log.append(calls);
        await log.close();
        const resumed = await persistence.open('conf-crash', { resume: true, cwd: process.cwd() });
        expect(resumed.history.slice(0, 2)).toEqual([prompt.content, calls.content]);
        const answer = resumed.history[2];
        expect(resumed.history).toHaveLength(3);
        expect(answer?.role).toBe('user');
        expect(answer?.parts?.map((p) => p.functionResponse?.id)).toEqual([
          'add__add_1_0',
          'mul__call-xyz',
        ]);
        expect(String(answer?.parts?.[0]?.functionResponse?.response?.['error'])).toMatch(
          /interrupted/,
        );
        await resumed.close();
        const again = await persistence.open('conf-crash', { resume: true, cwd: process.cwd() });
        expect(again.history).toEqual(resumed.history);
        await again.close();
      });

      it('forks a session under a new id and leaves the source as it was', async () => {
        const persistence = createStorePersistence({ store: await fresh() });
        const entries = sampleSessionEntries();
        const log = await persistence.open('conf-fork-src', { resume: false, cwd: process.cwd() });
        for (const entry of entries.slice(0, 4)) await log.append(entry);
        const forkId = await persistence.forkSession('conf-fork-src', 'conf-fork-dst');
        expect(forkId).toBe('conf-fork-dst');
        await log.append(entries[4] as SessionLogEntry);
        await log.close();
        expect(await persistence.loadHistory('conf-fork-dst')).toEqual(
          entries.slice(0, 4).map((e) => e.content),
        );
        expect(await persistence.loadHistory('conf-fork-src')).toHaveLength(5);
      });

      it('opens: new id twice → SESSION_EXISTS, unknown resume → not found, id in a turn → locked', async () => {
        const persistence = createStorePersistence({ store: await fresh() });
        const cwd = process.cwd();
        const log = await persistence.open('conf-open', { resume: false, cwd });
        await log.startTurn?.();
        await expect(persistence.open('conf-open', { resume: true, cwd })).rejects.toBeInstanceOf(
          SessionLockedError,
        );
        await log.finishTurn?.();
        await log.close();
        await expect(persistence.open('conf-open', { resume: false, cwd })).rejects.toMatchObject({
          code: 'SESSION_EXISTS',
        });
        await expect(persistence.open('conf-missing', { resume: true, cwd })).rejects.toThrow(
          'Session with ID conf-missing not found',
        );
        await expect(
          log.append(sampleSessionEntries()[0] as SessionLogEntry),
        ).rejects.toMatchObject({
          code: 'SESSION_CLOSED',
        });
        const reopened = await persistence.open('conf-open', { resume: true, cwd });
        expect(reopened.history).toEqual([]);
        await reopened.close();
        await persistence.deleteSession('conf-open');
        await expect(persistence.deleteSession('conf-open')).rejects.toBeInstanceOf(
          SessionNotFoundError,
        );
      });
    });
  });
}
