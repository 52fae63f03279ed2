import type { Content } from '@google/genai';
import type { SessionLogEntry } from '../core/session-log.js';

/** When the sample conversation of {@link sampleSessionEntries} starts (its first message is 1 s later). */
export const SAMPLE_START = '2026-01-02T03:04:05.000Z';

/** A two-prompt conversation with parallel tool calls, as the loop would commit it. */
export function sampleSessionEntries(): SessionLogEntry[] {
  const at = (s: number) => new Date(Date.parse(SAMPLE_START) + s * 1000).toISOString();
  const calls: Content = {
    role: 'model',
    parts: [
      { text: 'Let me compute both.' },
      { functionCall: { id: 'add__add_1_0', name: 'add', args: { a: 5, b: 3 } } },
      { functionCall: { id: 'mul__call-xyz', name: 'mul', args: { a: 2, b: 4 } } },
    ],
  };
  const results: Content = {
    role: 'user',
    parts: [
      { functionResponse: { id: 'add__add_1_0', name: 'add', response: { output: '8' } } },
      {
        functionResponse: {
          id: 'mul__call-xyz',
          name: 'mul',
          response: { error: 'mul is broken' },
        },
      },
    ],
  };
  return [
    {
      kind: 'user',
      content: { role: 'user', parts: [{ text: 'What is 5+3 and 2*4?' }] },
      timestamp: at(1),
    },
    {
      kind: 'model',
      content: calls,
      timestamp: at(2),
      model: 'gemini-test',
      usage: { totalTokenCount: 7 },
    },
    {
      kind: 'tool_results',
      content: results,
      timestamp: at(3),
      responses: [
        { callId: 'add__add_1_0', name: 'add', responseParts: [results.parts![0]!] },
        {
          callId: 'mul__call-xyz',
          name: 'mul',
          responseParts: [results.parts![1]!],
          error: { message: 'mul is broken' },
        },
      ],
    },
    {
      kind: 'model',
      content: { role: 'model', parts: [{ text: '8, and mul failed.' }] },
      timestamp: at(4),
    },
    { kind: 'user', content: { role: 'user', parts: [{ text: 'Thanks!' }] }, timestamp: at(5) },
    {
      kind: 'model',
      content: { role: 'model', parts: [{ text: 'Welcome.', thoughtSignature: 'c2ln' }] },
      timestamp: at(6),
    },
  ];
}
