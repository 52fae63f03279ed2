import { describe, expect, it } from 'vitest';
import { fastLockInfo, fastMetadataRecord } from './flat-record-fast-path.js';
import { metadataRecordOf, SessionMetadataRecord } from './records.js';
import { lockInfoOf, SessionLockInfo } from './session-lock-file.js';

const BASES: Array<Record<string, unknown>> = [
  {
    sessionId: 's1',
    projectHash: 'h',
    startTime: '2026-01-01T00:00:00.000Z',
    lastUpdated: '2026-01-01T00:01:00.000Z',
    kind: 'main',
    sdkFormat: 2,
  },
  // Keys out of the schema's order, every optional field, and unknown ones (ours and gemini-cli's).
  {
    extra: { policy: true },
    summary: 'S',
    directories: ['/a', '/b'],
    lastUpdated: 'u',
    kind: 'subagent',
    projectHash: 'h',
    sdkFormat: 1,
    startTime: 't',
    sessionId: 's2',
    pausedTurn: null,
  },
  { sessionId: 's3', projectHash: '' },
];

const ODD: unknown[] = [
  undefined,
  null,
  0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  1.5,
  '',
  'main',
  'subagent',
  'other',
  true,
  [],
  ['x'],
  ['x', 1],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}'),
];

function* variants(bases = BASES): Generator<unknown> {
  for (const base of bases) {
    yield base;
    for (const key of [...Object.keys(base), 'kind', 'directories', 'summary', 'idle', 'other']) {
      const { [key]: _dropped, ...without } = base;
      yield without;
      for (const odd of ODD) yield { ...base, [key]: odd };
    }
  }
  yield JSON.parse('{"sessionId":"p","projectHash":"h","__proto__":{"x":1}}');
  yield Object.assign(Object.create(null), { sessionId: 'n', projectHash: 'h' });
  yield [{ sessionId: 'a', projectHash: 'h' }];
  yield null;
  yield 'text';
}

describe('fastMetadataRecord', () => {
  it('never accepts what SessionMetadataRecord rejects, and builds exactly its output (keys in order)', () => {
    let accepted = 0;
    let total = 0;
    for (const value of variants()) {
      total++;
      const fast = fastMetadataRecord(value);
      if (fast === undefined) continue;
      accepted++;
      const parsed = SessionMetadataRecord.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      expect(fast).toEqual(parsed.data);
    }
    expect(accepted).toBeGreaterThan(total / 4);
    expect(accepted).toBeLessThan(total);
  });

  it('copies the directories list, as zod does, and metadataRecordOf still lets zod decide the odd ones', () => {
    const directories = ['/a'];
    const fast = fastMetadataRecord({ sessionId: 's', projectHash: 'h', directories });
    expect(fast?.['directories']).toEqual(directories);
    expect(fast?.['directories']).not.toBe(directories);
    for (const value of variants()) {
      const parsed = SessionMetadataRecord.safeParse(value);
      expect(JSON.stringify(metadataRecordOf(value))).toBe(
        JSON.stringify(parsed.success ? parsed.data : undefined),
      );
    }
  });
});

const LOCK_BASES: Array<Record<string, unknown>> = [
  {
    version: 1,
    sessionId: 's',
    pid: 123,
    hostname: 'h',
    processStartedAt: 1_700_000_000_000,
    createdAt: '2026-01-01T00:00:00.000Z',
    token: 't',
  },
  {
    token: 't',
    idle: true,
    createdAt: 'c',
    future: [1],
    processStartedAt: 1.5,
    hostname: 'h',
    pid: 1,
    sessionId: 's',
    version: 1,
  },
];

describe('fastLockInfo', () => {
  it('never accepts what SessionLockInfo rejects, and builds exactly its output (keys in order)', () => {
    let accepted = 0;
    let total = 0;
    for (const value of variants(LOCK_BASES)) {
      total++;
      const parsed = SessionLockInfo.safeParse(value);
      expect(JSON.stringify(lockInfoOf(value))).toBe(
        JSON.stringify(parsed.success ? parsed.data : undefined),
      );
      const fast = fastLockInfo(value);
      if (fast === undefined) continue;
      accepted++;
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(fast).toEqual(parsed.data);
    }
    expect(accepted).toBeGreaterThan(2);
    expect(accepted).toBeLessThan(total);
  });
});
