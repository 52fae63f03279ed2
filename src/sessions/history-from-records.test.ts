import { describe, expect, it } from 'vitest';
import type { SessionLogEntry } from '../core/session-log.js';
import { parseSessionText } from './conversation.js';
import {
  interruptedToolMessage,
  rebuildHistory,
  recordsToHistory,
} from './history-from-records.js';
import type { MessageRecord } from './records.js';
import { recordsFromEntry, type RecordWriterState } from './records-from-entry.js';
import { sampleSessionEntries } from '../testing/sample-session-entries.js';

let n = 0;
const newId = () => `id-${++n}`;
const t = '2026-01-01T00:00:00.000Z';

function write(entries: SessionLogEntry[]): MessageRecord[] {
  const state: RecordWriterState = { lastModelMessage: undefined };
  const lines = entries
    .flatMap((e) => recordsFromEntry(e, state, newId))
    .map((r) => JSON.stringify(r));
  return parseSessionText(`{"sessionId":"s","projectHash":"h"}\n${lines.join('\n')}\n`).conversation
    ?.messages as MessageRecord[];
}

describe('recordsToHistory', () => {
  it('round-trips the entries the loop committed, byte for byte', () => {
    const entries = sampleSessionEntries();
    expect(recordsToHistory(write(entries))).toEqual(entries.map((e) => e.content));
  });

  it('keeps thought parts, signatures and empty model turns of our own messages as they were', () => {
    const entries: SessionLogEntry[] = [
      {
        kind: 'user',
        content: { role: 'user', parts: [{ text: '/not-a-command-for-us' }] },
        timestamp: t,
      },
      {
        kind: 'model',
        content: {
          role: 'model',
          parts: [
            { text: '**Plan** think', thought: true, thoughtSignature: 'abc' },
            { functionCall: { id: 'f__1', name: 'f', args: {} } },
          ],
        },
        timestamp: t,
      },
      {
        kind: 'tool_results',
        content: {
          role: 'user',
          parts: [
            { functionResponse: { id: 'f__1', name: 'f', response: { output: 'img' } } },
            { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          ],
        },
        timestamp: t,
      },
      { kind: 'model', content: { role: 'model', parts: [] }, timestamp: t },
    ];
    const messages = write(entries);
    expect(messages[1]?.thoughts).toEqual([
      { subject: 'Plan', description: 'think', timestamp: t },
    ]);
    expect(recordsToHistory(messages)).toEqual(entries.map((e) => e.content));
  });

  it('answers calls with no stored result as interrupted; only a trailing one is reported for repair', () => {
    const calls = (id: string): MessageRecord => ({
      id,
      type: 'gemini',
      content: [{ functionCall: { id: `x__${id}`, name: 'x', args: {} } }],
      sdkFormat: 1,
    });
    const user = (id: string): MessageRecord => ({
      id,
      type: 'user',
      content: [{ text: id }],
      sdkFormat: 1,
    });
    const rebuilt = rebuildHistory([user('u1'), calls('c1'), user('u2'), calls('c2')]);
    const interrupted = (id: string) => ({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: `x__${id}`,
            name: 'x',
            response: { error: interruptedToolMessage('x') },
          },
        },
      ],
    });
    expect(rebuilt.history.map((c) => c.role)).toEqual([
      'user',
      'model',
      'user',
      'user',
      'model',
      'user',
    ]);
    expect(rebuilt.history[2]).toEqual(interrupted('c1'));
    expect(rebuilt.history[5]).toEqual(interrupted('c2'));
    expect(rebuilt.interruptedTail).toMatchObject({
      messageId: 'c2',
      calls: [{ id: 'x__c2', name: 'x' }],
    });
    expect(rebuildHistory([user('u1'), calls('c1'), user('u2')]).interruptedTail).toBeUndefined();
  });

  it('drops function responses that answer no call (the reference SDK loses functionCall parts)', () => {
    const messages: MessageRecord[] = [
      { id: 'a', type: 'user', content: [{ text: 'What is 5 + 3?' }] },
      { id: 'b', type: 'gemini', content: 'Let me compute.' },
      {
        id: 'c',
        type: 'user',
        content: [{ functionResponse: { id: 'add__1', name: 'add', response: { output: '8' } } }],
      },
      { id: 'd', type: 'gemini', content: '8' },
    ];
    expect(recordsToHistory(messages)).toEqual([
      { role: 'user', parts: [{ text: 'What is 5 + 3?' }] },
      { role: 'model', parts: [{ text: 'Let me compute.' }] },
      { role: 'model', parts: [{ text: '8' }] },
    ]);
  });

  it('pairs responses without ids by name, and rebuilds string results from toolCalls', () => {
    const messages: MessageRecord[] = [
      { id: 'a', type: 'user', content: 'hi' },
      {
        id: 'b',
        type: 'gemini',
        content: '',
        toolCalls: [
          { id: 'r__1', name: 'read', args: { p: 1 }, result: 'file text', status: 'success' },
          { id: 'r__2', name: 'read', args: { p: 2 }, result: null, status: 'cancelled' },
        ],
      },
      { id: 'w', type: 'warning', content: 'slow' },
      { id: 'e', type: 'error', content: 'boom' },
    ];
    const history = recordsToHistory(messages);
    expect(history[1]?.parts?.map((p) => p.functionCall?.id)).toEqual(['r__1', 'r__2']);
    expect(history[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'r__1', name: 'read', response: { output: 'file text' } } },
        {
          functionResponse: {
            id: 'r__2',
            name: 'read',
            response: { error: interruptedToolMessage('read') },
          },
        },
      ],
    });
    const noIds: MessageRecord[] = [
      { id: 'b', type: 'gemini', content: [{ functionCall: { name: 'f', args: {} } }] },
      {
        id: 'c',
        type: 'user',
        content: [{ functionResponse: { name: 'f', response: { output: '1' } } }],
      },
    ];
    expect(recordsToHistory(noIds)).toHaveLength(2);
  });
});
