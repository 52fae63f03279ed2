import { describe, expect, it } from 'vitest';
import { parseSessionText } from './conversation.js';

const meta = '{"sessionId":"s1","projectHash":"h","startTime":"2026-01-01T00:00:00.000Z"}';

describe('parseSessionText', () => {
  it('folds JSONL in one pass: blank, CRLF, unknown and broken lines are skipped', () => {
    const text = [
      meta,
      '',
      '{"id":"a","type":"user","content":"hi"}\r',
      'not json',
      '{"something":"else"}',
      '{"id":"b","type":"gemini","content":"yo"}',
      '{"$set":{"lastUpdated":"2026-01-01T00:01:00.000Z","sessionId":"s1"}}',
      '{"id":"bad","type":"bogus","content":"?"}',
      '',
    ].join('\n');
    const parsed = parseSessionText(text);
    expect(parsed.tornTail).toBe(false);
    expect(parsed.skippedLines).toBe(3);
    expect(parsed.conversation?.messages.map((m) => m.id)).toEqual(['a', 'b']);
    expect(parsed.conversation?.metadata.lastUpdated).toBe('2026-01-01T00:01:00.000Z');
  });

  it('reports a torn tail, and keeps a last record that is complete but lacks its newline', () => {
    const torn = parseSessionText(
      `${meta}\n{"id":"a","type":"user","content":"hi"}\n{"id":"b","ty`,
    );
    expect(torn.tornTail).toBe(true);
    expect(torn.conversation?.messages.map((m) => m.id)).toEqual(['a']);
    const complete = parseSessionText(`${meta}\n{"id":"a","type":"user","content":"hi"}`);
    expect(complete.conversation?.messages.map((m) => m.id)).toEqual(['a']);
  });

  it('merges later metadata lines and reads messages embedded in a metadata line', () => {
    const text = `${meta}\n{"sessionId":"s1","projectHash":"h","summary":"S","messages":[{"id":"m","type":"user","content":"x"}]}\n`;
    const parsed = parseSessionText(text);
    expect(parsed.conversation?.metadata).toMatchObject({ sessionId: 's1', summary: 'S' });
    expect(parsed.conversation?.metadata).not.toHaveProperty('messages');
    expect(parsed.conversation?.messages.map((m) => m.id)).toEqual(['m']);
  });

  it('falls back to a legacy whole-file JSON session, and finds nothing in foreign text', () => {
    const legacy = JSON.stringify(
      { sessionId: 'old', projectHash: 'h', messages: [{ id: 'm', type: 'user', content: 'x' }] },
      null,
      2,
    );
    const parsed = parseSessionText(legacy);
    expect(parsed.legacy).toBe(true);
    expect(parsed.conversation?.messages.map((m) => m.id)).toEqual(['m']);
    expect(parseSessionText('{"hello":1}\n').conversation).toBeUndefined();
    expect(parseSessionText('').conversation).toBeUndefined();
  });
});
