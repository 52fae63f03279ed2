import { describe, expect, it } from 'vitest';
import { CallIdFactory, stripCallIdPrefix } from './call-ids.js';
import { ConversationHistory } from './conversation-history.js';
import { ToolCallLoopDetector } from './loop-detector.js';
import {
  buildRequestContents,
  INTERRUPTED_PLACEHOLDER,
  SKIP_THOUGHT_SIGNATURE,
} from './request-contents.js';
import { parseThought } from './thought.js';

describe('parseThought', () => {
  it('takes the first bold span as subject', () => {
    expect(parseThought('**Planning the fix** I will read the file.')).toEqual({
      subject: 'Planning the fix',
      description: 'I will read the file.',
    });
    expect(parseThought('no subject here ')).toEqual({
      subject: '',
      description: 'no subject here',
    });
    expect(parseThought('**unclosed')).toEqual({ subject: '', description: '**unclosed' });
  });
});

describe('call ids', () => {
  it('prefixes with the name, synthesises missing ids, keeps already-prefixed ids', () => {
    const ids = new CallIdFactory(() => 1700);
    expect(ids.next('add', 'abc')).toBe('add__abc');
    expect(ids.next('add', undefined)).toBe('add__add_1700_1');
    expect(ids.next('add', 'add__x')).toBe('add__x');
    expect(stripCallIdPrefix('add', 'add__add_1700_1')).toBe('add_1700_1');
    expect(stripCallIdPrefix('add', 'other')).toBe('other');
  });

  it('never makes the same id twice in a process, even for turns in the same millisecond', () => {
    const clock = () => 5000;
    const made = new Set<string>();
    for (let turn = 0; turn < 50; turn++) {
      const ids = new CallIdFactory(clock);
      for (let call = 0; call < 3; call++) made.add(ids.next('risky', undefined));
    }
    expect(made.size).toBe(150);
    // The counter still starts at 0 in each turn, as gemini-cli's does.
    expect(new CallIdFactory(() => 9_000_000).next('risky', undefined)).toBe(
      'risky__risky_9000000_0',
    );
  });
});

describe('ToolCallLoopDetector', () => {
  it('fires on the 5th identical consecutive call, ignoring key order; a different call resets', () => {
    const d = new ToolCallLoopDetector();
    expect([1, 2, 3, 4].map(() => d.record('a', { x: 1, y: 2 }))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(d.record('a', { y: 2, x: 1 })).toBe(true);
    const e = new ToolCallLoopDetector();
    for (let i = 0; i < 4; i++) e.record('a', {});
    e.record('b', {});
    expect(e.record('a', {})).toBe(false);
  });
});

describe('buildRequestContents', () => {
  it('never merges a prompt into the one before: a placeholder model turn goes between, as after dangling tool results', () => {
    const out = buildRequestContents([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: 'b' }] },
      { role: 'model', parts: [{ functionCall: { id: 'f__1', name: 'f', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'f__1', name: 'f', response: { output: '' } } }],
      },
      { role: 'user', parts: [{ text: 'c' }] },
    ]);
    expect(out.map((c) => c.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
    expect(out[0]?.parts).toEqual([{ text: 'a' }]);
    expect(out[1]?.parts).toEqual([{ text: INTERRUPTED_PLACEHOLDER }]);
    expect(out[2]?.parts).toEqual([{ text: 'b' }]);
    expect(out[3]?.parts?.[0]?.functionCall?.id).toBe('1');
    expect(out[4]?.parts?.[0]?.functionResponse?.id).toBe('1');
    expect(out[5]?.parts).toEqual([{ text: INTERRUPTED_PLACEHOLDER }]);
  });

  it('drops thought parts and turns left empty; keeps an existing thought signature', () => {
    const out = buildRequestContents([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: 'hmm', thought: true }] },
      { role: 'user', parts: [{ text: 'again' }] },
      {
        role: 'model',
        parts: [
          { text: 'think', thought: true },
          { functionCall: { id: 'g__2', name: 'g', args: {} }, thoughtSignature: 'sig' },
        ],
      },
    ]);
    expect(out).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: INTERRUPTED_PLACEHOLDER }] },
      { role: 'user', parts: [{ text: 'again' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: '2', name: 'g', args: {} }, thoughtSignature: 'sig' }],
      },
    ]);
  });
  it('never writes to the history: a deeply frozen history gives the same request, reusing unchanged parts', () => {
    const history = [
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'f__1', name: 'f', args: { n: 1 } } },
          { functionCall: { name: 'g', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'f__1', name: 'f', response: { output: 'x' } } }],
      },
    ];
    const expected = structuredClone(history);
    const out = buildRequestContents(deepFreeze(history));
    expect(history).toEqual(expected);
    expect(out).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { id: '1', name: 'f', args: { n: 1 } },
            thoughtSignature: SKIP_THOUGHT_SIGNATURE,
          },
          { functionCall: { name: 'g', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: '1', name: 'f', response: { output: 'x' } } }],
      },
    ]);
    // Parts that need no change are the history's own objects; everything changed is a fresh copy.
    expect(out[0]?.parts?.[0]).toBe(history[0]?.parts[0]);
    expect(out[1]?.parts?.[1]).toBe(history[1]?.parts[1]);
    expect(out[1]?.parts?.[0]).not.toBe(history[1]?.parts[0]);
    // The request's containers are its own: changing them leaves the history alone.
    out[1]?.parts?.push({ text: 'extra' });
    expect(history[1]?.parts).toHaveLength(2);
  });

  it('reuses the cleaned and signed parts of earlier calls; a part outside the active loop loses its signature', () => {
    const call = { functionCall: { id: 'f__1', name: 'f', args: {} } };
    const history = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { id: 'f__1', name: 'f', response: {} } }] },
    ];
    const first = buildRequestContents(history);
    const second = buildRequestContents(history);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second[1]?.parts?.[0]).toBe(first[1]?.parts?.[0]);
    expect(second[2]?.parts?.[0]).toBe(first[2]?.parts?.[0]);
    // A new prompt starts a new loop: the earlier call is sent cleaned but without the placeholder signature.
    const later = buildRequestContents([
      ...history,
      { role: 'model', parts: [{ text: 'ok' }] },
      { role: 'user', parts: [{ text: 'again' }] },
    ]);
    expect(later[1]?.parts?.[0]).toEqual({ functionCall: { id: '1', name: 'f', args: {} } });
    expect(call).toEqual({ functionCall: { id: 'f__1', name: 'f', args: {} } });
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('ConversationHistory.unansweredCalls', () => {
  it('lists calls of the last model turn with no response', () => {
    const h = new ConversationHistory([
      { role: 'user', parts: [{ text: 'q' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'a__1', name: 'a', args: {} } },
          { functionCall: { id: 'b__2', name: 'b', args: {} } },
        ],
      },
    ]);
    expect(h.unansweredCalls().map((c) => c.id)).toEqual(['a__1', 'b__2']);
    h.push({
      role: 'user',
      parts: [{ functionResponse: { id: 'a__1', name: 'a', response: {} } }],
    });
    expect(h.unansweredCalls().map((c) => c.id)).toEqual(['b__2']);
  });
});
