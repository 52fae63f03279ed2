import { describe, expect, it } from 'vitest';
import { ConversationBuilder, parseSessionText } from './conversation.js';

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

/** The fold as it was before the shortcuts: every line `JSON.parse`-d and applied in order. */
function referenceFold(text: string): unknown {
  const builder = new ConversationBuilder();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    builder.apply(json);
  }
  const result = builder.result();
  return result === undefined ? undefined : JSON.parse(JSON.stringify(result));
}

/** Lines of every kind the parser's shortcuts must not change the fold of. */
const LINE_POOL = [
  meta,
  '{"sessionId":"s1","projectHash":"h","summary":"later","messages":[{"id":"c","type":"user","content":"embedded"}]}',
  '{"id":"a","type":"user","content":"a1"}',
  '{"id":"a","type":"user","content":"a2","extra":1}',
  '{"id":"a","type":"bogus","content":"invalid a"}',
  '{"id":"b","type":"gemini","content":"b1","toolCalls":[{"id":"t","name":"n","status":"success"}]}',
  '{"id":"b","type":"gemini","content":"b2"}',
  '{"id":"b","type":"gemini","tokens":{"input":1}}',
  '{"id":"c","type":"info","content":"c1"}',
  // Kept as parsed (the schema's key order) and copied (another order: gemini-cli writes toolCalls last).
  '{"id":"b","type":"gemini","content":"b3","toolCalls":[{"id":"t","name":"n","args":{"p":1},"status":"success"}],"tokens":{"input":1,"output":2,"cached":0,"total":3},"sdkFormat":2}',
  '{"id":"b","type":"gemini","content":"b4","model":"m","toolCalls":[{"id":"t","name":"n","args":{},"status":"success"}]}',
  '{"id":"a","content":"a3","type":"user"}',
  '{"id":"a","type":"user","content":"dup key","id":"b"}',
  '{"$rewindTo":"a","id":"b","type":"user"}',
  '{"$rewindTo":"b"}',
  '{"$rewindTo":"unknown"}',
  '{"$set":{"lastUpdated":"2026-01-01T00:01:00.000Z"}}',
  '{"$set":{"lastUpdated":"2026-01-01T00:02:00.000Z"}}',
  '{"$set":{"lastUpdated":""}}',
  '{"$set":{"lastUpdated":"esc\\u0041ped \\"q\\""}}',
  '{"$set":{"lastUpdated":"a\\u0041b"}}',
  '{"$set":{"lastUpdated":"tab\there"}}',
  '{"$set":{"lastUpdated":"x"} }',
  '{"$set":{"lastUpdated":"}}',
  '{"$set":{"lastUpdated":"x","lastUpdated":"y"}}',
  '{"$set":{"lastUpdated":7}}',
  '{"$set":{"lastUpdated":"s","summary":"sum"}}',
  '{"$set":{"messages":[{"id":"b","type":"user","content":"checkpoint"}]}}',
  '{"id":5,"type":"user"}',
  '{"id":"a","type":"us',
  'not json',
  '',
  '   ',
];

/** A deterministic pseudo-random generator (mulberry32), so a failure names its seed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseSessionText shortcuts (runs of one message, the lastUpdated line)', () => {
  it('folds exactly as applying every line in order, over 3,000 random files', () => {
    for (let seed = 1; seed <= 3_000; seed++) {
      const random = prng(seed);
      const lines = [meta];
      const count = 1 + Math.floor(random() * 14);
      for (let i = 0; i < count; i++) {
        lines.push(LINE_POOL[Math.floor(random() * LINE_POOL.length)] as string);
      }
      const text = `${lines.join('\n')}${random() < 0.8 ? '\n' : ''}`;
      const parsed = parseSessionText(text).conversation;
      expect(
        parsed === undefined ? undefined : JSON.parse(JSON.stringify(parsed)),
        `seed ${seed}:\n${text}`,
      ).toEqual(referenceFold(text));
      // The same key order too (a rewritten file holds these records as they are).
      expect(JSON.stringify(parsed), `seed ${seed}`).toBe(JSON.stringify(referenceFold(text)));
    }
  });

  it('keeps the last valid line of a run, and the earlier one when the last is invalid', () => {
    const text = [
      meta,
      '{"id":"u","type":"user","content":"q"}',
      '{"id":"m","type":"gemini","content":"first"}',
      '{"$set":{"lastUpdated":"2026-01-01T00:01:00.000Z"}}',
      '{"id":"m","type":"gemini","content":"second"}',
      '{"id":"x","type":"user","content":"next"}',
      '{"id":"m2","type":"gemini","content":"valid"}',
      'torn{',
      '{"id":"m2","type":"bogus","content":"invalid rewrite"}',
      '',
    ].join('\n');
    const parsed = parseSessionText(text);
    expect(parsed.conversation?.messages.map((m) => [m.id, m.content])).toEqual([
      ['u', 'q'],
      ['m', 'second'],
      ['x', 'next'],
      ['m2', 'valid'],
    ]);
    expect(parsed.conversation?.metadata.lastUpdated).toBe('2026-01-01T00:01:00.000Z');
    // The torn line and the invalid rewrite.
    expect(parsed.skippedLines).toBe(2);
  });

  it('places a message whose first line is invalid where its first valid line is', () => {
    const text = [
      meta,
      '{"id":"m","type":"bogus"}',
      '{"id":"other","type":"user","content":"between"}',
      '{"id":"m","type":"gemini","content":"valid"}',
      '',
    ].join('\n');
    expect(parseSessionText(text).conversation?.messages.map((m) => m.id)).toEqual(['other', 'm']);
  });

  it('reads the lastUpdated value exactly as JSON.parse does, or leaves the line to it', () => {
    for (const value of ['2026-01-01T00:00:00.000Z', '', 'a b', 'é', 'a\\u0041', 'q\\"', '\\\\']) {
      const line = `{"$set":{"lastUpdated":"${value}"}}`;
      const parsed = parseSessionText(`${meta}\n${line}\n`);
      expect(parsed.conversation?.metadata.lastUpdated).toBe(
        (JSON.parse(line) as { $set: { lastUpdated: string } }).$set.lastUpdated,
      );
    }
    const raw = parseSessionText(`${meta}\n{"$set":{"lastUpdated":"tab\there"}}\n`);
    expect(raw.conversation?.metadata.lastUpdated).toBeUndefined();
    expect(raw.skippedLines).toBe(1);
  });
});
