import { describe, expect, it } from 'vitest';
import type { SessionLogEntry } from '../core/session-log.js';
import { MemorySessionStore } from './memory-session-store.js';
import { createStorePersistence, PAUSED_TURN_KEY } from './session-persistence.js';
import { sampleSessionEntries } from '../testing/sample-session-entries.js';

const cwd = process.cwd();

describe('a paused turn stored with the session (durable approvals)', () => {
  it('keeps the calls of the model turn open on resume, and the results clear it in the same write', async () => {
    const store = new MemorySessionStore();
    const persistence = createStorePersistence({ store });
    const [prompt, calls, results] = sampleSessionEntries() as [
      SessionLogEntry,
      SessionLogEntry,
      SessionLogEntry,
    ];
    const log = await persistence.open('paused', { resume: false, cwd });
    await expect(log.savePausedTurn({ waiting: ['x'] })).rejects.toThrow(
      'A paused turn can only be stored after the model turn it belongs to.',
    );
    await log.append(prompt);
    await log.append(calls);
    await log.savePausedTurn({ waiting: ['add'] });
    await log.close();

    const resumed = await persistence.open('paused', { resume: true, cwd });
    // No interrupted answers were made up: the calls still wait.
    expect(resumed.history).toEqual([prompt.content, calls.content]);
    expect(resumed.pausedTurn).toEqual({ waiting: ['add'] });
    await resumed.append(results);
    await resumed.close();
    expect((await store.load('paused')).metadata[PAUSED_TURN_KEY]).toBeNull();

    const after = await persistence.open('paused', { resume: true, cwd });
    expect(after.pausedTurn).toBeUndefined();
    expect(after.history).toEqual([prompt.content, calls.content, results.content]);
    await after.close();
  });

  it('ignores a paused turn that is not bound to the last model turn (the calls are repaired as interrupted)', async () => {
    const store = new MemorySessionStore();
    const persistence = createStorePersistence({ store });
    const [prompt, calls] = sampleSessionEntries() as [SessionLogEntry, SessionLogEntry];
    const log = await persistence.open('stale', { resume: false, cwd });
    await log.append(prompt);
    await log.append(calls);
    await log.close();
    const lease = await store.acquireLease('stale');
    await store.append(lease, [
      { $set: { [PAUSED_TURN_KEY]: { modelMessageId: 'another-message', turn: { x: 1 } } } },
    ]);
    await lease.release();

    const resumed = await persistence.open('stale', { resume: true, cwd });
    expect(resumed.pausedTurn).toBeUndefined();
    expect(resumed.history).toHaveLength(3);
    expect(JSON.stringify(resumed.history[2])).toContain('Tool call interrupted');
    await resumed.close();
    expect((await store.load('stale')).metadata[PAUSED_TURN_KEY]).toBeNull();
  });
});
