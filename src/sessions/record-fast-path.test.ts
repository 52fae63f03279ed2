import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isKeptMessageRecord } from './kept-message-record.js';
import { fastMessageRecord, fastSetRecord } from './record-fast-path.js';
import { classifyRecord, MessageRecord, SetRecord } from './records.js';
import { recordsFromEntry, recordsFromNote, type RecordWriterState } from './records-from-entry.js';
import { sampleSessionEntries } from '../testing/sample-session-entries.js';
import type { ToolCallApproval } from '../core/session-log.js';

/** A real gemini-cli 0.61 session file (user prompts, tool calls with results, thoughts, tokens). */
const FIXTURE = resolve(
  process.cwd(),
  'test/fixtures/sessions/session-2026-11-30T22-49-6e93d57f.jsonl',
);

const fixtureMessages = (): Array<Record<string, unknown>> =>
  readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // the fixture ends with a torn line
      }
    })
    .filter((r) => typeof r['id'] === 'string');

const BASES: Array<Record<string, unknown>> = [
  { id: 'u1', timestamp: '2026-01-01T00:00:00.000Z', type: 'user', content: [{ text: 'hi' }] },
  {
    id: 'm1',
    timestamp: '2026-01-01T00:00:01.000Z',
    type: 'gemini',
    content: [{ functionCall: { id: 'c1', name: 'read_file', args: { path: 'a' } } }],
    toolCalls: [
      {
        id: 'read_file__c1',
        name: 'read_file',
        args: { path: 'a' },
        result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'x' } } }],
        status: 'success',
        timestamp: '2026-01-01T00:00:01.500Z',
        resultDisplay: { fileDiff: 'd' },
        renderOutputAsMarkdown: true,
        extra: 7,
      },
    ],
    thoughts: [{ subject: 'S', description: 'D', timestamp: 't', more: 1 }],
    tokens: { input: 1, output: 2, cached: 0, thoughts: 3, tool: 0, total: 6, other: 9 },
    model: 'gemini-2.5-flash',
    sdkFormat: 2,
    sdkParts: [{ text: 'x', thoughtSignature: 'c2ln' }, { functionCall: { id: 'c1', name: 'n' } }],
    unknownField: { kept: true },
  },
  { type: 'info', id: 'i1', content: 'plain text', displayContent: ['a', { text: 'b' }] },
];

/** Odd values put in every field, one at a time, plus the field removed. */
const ODD: unknown[] = [
  null,
  0,
  1.5,
  '',
  'text',
  true,
  [],
  {},
  [1],
  ['s', { text: 't' }],
  [[{}]],
  { text: 'part' },
  [{ id: 'x', name: 'n', status: 's' }],
  [{ subject: 's', description: 'd' }],
  { input: 1, output: 1, cached: 1, total: 3 },
  JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
];

/** Every record reachable from the bases by changing one field (top level or one level down). */
function* variants(): Generator<unknown> {
  for (const base of [...BASES, ...fixtureMessages()]) {
    yield base;
    for (const key of [...Object.keys(base), 'content', 'args', '__proto__']) {
      const { [key]: _dropped, ...without } = base;
      yield without;
      for (const odd of ODD) yield { ...base, [key]: odd };
    }
    // One level down: the first tool call, the first thought, the token counts.
    const nested: Array<[string, (inner: Record<string, unknown>) => unknown]> = [
      ['toolCalls', (inner) => [inner]],
      ['thoughts', (inner) => [inner]],
      ['tokens', (inner) => inner],
    ];
    for (const [field, wrap] of nested) {
      const raw = base[field];
      const inner = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown> | undefined;
      if (inner === undefined || inner === null || typeof inner !== 'object') continue;
      for (const key of [...Object.keys(inner), 'args', 'result', 'timestamp']) {
        const { [key]: _dropped, ...without } = inner;
        yield { ...base, [field]: wrap(without) };
        for (const odd of ODD) yield { ...base, [field]: wrap({ ...inner, [key]: odd }) };
      }
    }
  }
  yield JSON.parse('{"id":"p","type":"user","__proto__":{"x":1}}');
  yield Object.assign(Object.create(null), { id: 'n', type: 'user' });
  yield { id: 'u', type: 'user', content: undefined };
  yield { id: 'u', type: 'user', sdkFormat: Number.NaN };
  yield [{ id: 'arr', type: 'user' }];
}

describe('fastMessageRecord', () => {
  it('never accepts what MessageRecord rejects, and builds exactly its output (keys in the same order)', () => {
    let accepted = 0;
    let total = 0;
    for (const value of variants()) {
      total++;
      const fast = fastMessageRecord(value);
      if (fast === undefined) continue;
      accepted++;
      const parsed = MessageRecord.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      expect(fast).toEqual(parsed.data);
    }
    // The fast path decides most records (else it would save nothing) and leaves the odd ones to zod.
    expect(accepted).toBeGreaterThan(total / 4);
    expect(accepted).toBeLessThan(total);
  });

  it('decides every message of a real gemini-cli session and of the SDK’s own records', () => {
    const messages = [...fixtureMessages(), ...BASES];
    expect(messages.length).toBeGreaterThan(3);
    for (const m of messages) expect(fastMessageRecord(m), JSON.stringify(m)).toBeDefined();
  });

  it('keeps parts by reference and copies the lists and objects zod copies', () => {
    const part = { text: 'hi' };
    const args = { path: 'a' };
    const input = {
      id: 'x',
      type: 'gemini',
      content: [part],
      toolCalls: [{ id: 'c', name: 'n', status: 's', args }],
    };
    const fast = fastMessageRecord(input) as MessageRecord | undefined;
    const zod = MessageRecord.parse(input);
    expect((fast?.content as unknown[])[0]).toBe(part);
    expect((zod.content as unknown[])[0]).toBe(part);
    expect(fast?.content).not.toBe(input.content);
    expect(fast?.toolCalls?.[0]?.args).not.toBe(args);
    expect(fast?.toolCalls?.[0]?.args).toEqual(args);
  });

  it('is what classifyRecord uses, with zod still deciding the odd records', () => {
    expect(classifyRecord({ id: 'a', type: 'user' })).toEqual({
      kind: 'message',
      record: { id: 'a', type: 'user', content: '' },
    });
    expect(classifyRecord({ id: 'a', type: 'nonsense' })).toBeUndefined();
    expect(classifyRecord({ id: 'a', type: 'user', tokens: { input: 1 } })).toBeUndefined();
  });
});

describe('isKeptMessageRecord', () => {
  /** The variants, and zod's output of each it accepts as a line would hold it (the schema's key order). */
  function* candidates(): Generator<unknown> {
    for (const value of variants()) {
      yield value;
      const parsed = MessageRecord.safeParse(value);
      if (parsed.success) yield JSON.parse(JSON.stringify(parsed.data)) as unknown;
    }
  }

  it('keeps only what MessageRecord returns unchanged: the same values, keys in the same order', () => {
    let kept = 0;
    let total = 0;
    for (const value of candidates()) {
      total++;
      if (!isKeptMessageRecord(value)) continue;
      kept++;
      const parsed = MessageRecord.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(JSON.stringify(value)).toBe(JSON.stringify(parsed.data));
      expect(value).toEqual(parsed.data);
    }
    expect(kept).toBeGreaterThan(total / 4);
    expect(kept).toBeLessThan(total);
  });

  it('leaves a record in another key order or without its defaults to the copy', () => {
    // gemini-cli writes `toolCalls` last; zod returns them after `content`.
    const gemini = fixtureMessages().filter((m) => m['toolCalls'] !== undefined);
    expect(gemini.length).toBeGreaterThan(0);
    for (const m of gemini) expect(isKeptMessageRecord(m), JSON.stringify(m)).toBe(false);
    expect(isKeptMessageRecord({ id: 'a', type: 'user' })).toBe(false); // content: '' is added
    expect(isKeptMessageRecord({ id: 'a', type: 'user', content: '' })).toBe(true);
    expect(isKeptMessageRecord({ type: 'user', id: 'a', content: '' })).toBe(false);
    expect(isKeptMessageRecord({ id: 'a', type: 'user', content: '', x: 1, model: 'm' })).toBe(
      false,
    );
    const call = { id: 'c', name: 'n', status: 's' }; // args: {} is added
    expect(isKeptMessageRecord({ id: 'a', type: 'gemini', content: '', toolCalls: [call] })).toBe(
      false,
    );
  });

  it('keeps every message this SDK writes, read back from its line', () => {
    const state: RecordWriterState = { lastModelMessage: undefined };
    let n = 0;
    const newId = (): string => `id-${++n}`;
    const approval: ToolCallApproval = { decision: 'allow', by: 'rule', timestamp: 't' };
    const entries = sampleSessionEntries();
    const records = [
      ...entries.flatMap((e) =>
        recordsFromEntry(
          e.kind === 'tool_results'
            ? { ...e, approvals: { add__add_1_0: approval } }
            : { ...e, ...(e.kind === 'model' ? { interrupted: true } : {}) },
          state,
          newId,
        ),
      ),
      ...recordsFromNote(
        { level: 'info', text: 'Compressed.', timestamp: 't', event: { kind: 'compression' } },
        newId,
      ),
    ];
    const messages = records
      .map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>)
      .filter((r) => typeof r['id'] === 'string');
    expect(messages.some((m) => Array.isArray(m['toolCalls']))).toBe(true);
    expect(messages.some((m) => m['interrupted'] === true)).toBe(true);
    for (const m of messages) expect(isKeptMessageRecord(m), JSON.stringify(m)).toBe(true);
  });
});

describe('fastSetRecord', () => {
  it('never accepts what SetRecord rejects, and builds exactly its output', () => {
    const base = { lastUpdated: 't1', summary: 's', startTime: 't0' };
    const values: unknown[] = [
      { $set: base },
      { $set: { lastUpdated: 't' } },
      { $set: {} },
      { $set: base, extra: 1 },
      { $set: { ...base, kind: 'main' } },
      { $set: { ...base, messages: [] } },
      JSON.parse('{"$set": {"__proto__": {"x": 1}, "lastUpdated": "t"}}'),
      { $set: { projectHash: 'p', sessionId: 's', lastUpdated: 't' } },
    ];
    for (const key of Object.keys(base)) {
      for (const odd of ODD) values.push({ $set: { ...base, [key]: odd } });
    }
    let accepted = 0;
    for (const value of values) {
      const fast = fastSetRecord(value);
      if (fast === undefined) continue;
      accepted++;
      const parsed = SetRecord.safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
    }
    expect(accepted).toBeGreaterThanOrEqual(5);
    expect(fastSetRecord({ $set: { lastUpdated: 't' } })).toEqual({ $set: { lastUpdated: 't' } });
    expect(classifyRecord({ $set: { lastUpdated: 7 } })).toBeUndefined();
  });
});
