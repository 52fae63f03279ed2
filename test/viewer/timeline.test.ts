import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSessionText } from '../../src/sessions/conversation.js';
import { buildTimeline } from '../../src/viewer/build-timeline.js';
import { estimateCost, priceOf } from '../../src/viewer/model-prices.js';

const FIXTURE = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'sessions',
  'session-2026-11-30T22-49-6e93d57f.jsonl',
);

describe('the viewer timeline of a session file', () => {
  it('a file gemini-cli wrote: turns, model calls with latency and tokens, the tool call once, notes', async () => {
    const conversation = parseSessionText(await readFile(FIXTURE, 'utf8')).conversation;
    expect(conversation).toBeDefined();
    const view = await buildTimeline(conversation!);
    expect(view.sessionId).toBe('6e93d57f-1c2b-4e8a-9a57-3f1d2c4b5a69');
    const first = view.turns[0]!;
    expect(first.prompt).toBe('What is 5 + 3?');
    expect(first.items.map((i) => i.kind)).toEqual([
      'note',
      'model',
      'tool',
      'note',
      'model',
      'note',
    ]);
    const [, model, tool] = first.items as [
      unknown,
      Extract<(typeof first.items)[number], { kind: 'model' }>,
      Extract<(typeof first.items)[number], { kind: 'tool' }>,
    ];
    expect(model).toMatchObject({
      model: 'gemini-3.1-pro-preview',
      latencyMs: 1000,
      text: 'Let me compute.',
      thoughts: [
        { subject: 'Adding numbers', description: 'The user wants a sum; I will call add.' },
      ],
      tokens: { input: 120, output: 12, thoughts: 30 },
    });
    expect(tool).toMatchObject({
      name: 'add',
      args: { a: 5, b: 3 },
      status: 'success',
      decision: 'ran',
      result: '8',
      error: undefined,
    });
    // The injected <session_context> turn is not a prompt.
    expect(view.turns.map((t) => t.prompt)).not.toContain(
      expect.stringContaining('session_context'),
    );
    const calls = view.turns.flatMap((t) => t.items.filter((i) => i.kind === 'tool'));
    expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length); // each call once
    expect(view.totals.toolCalls).toBe(calls.length);
    expect(calls.every((c) => c.result !== undefined || c.error !== undefined)).toBe(true);
    expect(view.totals.turns).toBe(view.turns.length);
  });

  it('decisions from the stored error text; cost from the price table', async () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const view = await buildTimeline({
      metadata: { sessionId: 's', projectHash: 'h', startTime: at(0), lastUpdated: at(9) },
      messages: [
        { id: 'u1', type: 'user', timestamp: at(0), content: [{ text: 'go' }] },
        {
          id: 'g1',
          type: 'gemini',
          timestamp: at(2),
          model: 'gemini-2.5-pro',
          tokens: { input: 1_000_000, output: 100_000, cached: 0, total: 1_100_000 },
          content: [
            { functionCall: { id: 'a__1', name: 'a', args: {} } },
            { functionCall: { id: 'b__2', name: 'b', args: {} } },
            { functionCall: { id: 'c__3', name: 'c', args: {} } },
          ],
        },
        {
          id: 'u2',
          type: 'user',
          timestamp: at(5),
          content: [
            {
              functionResponse: {
                id: 'a__1',
                name: 'a',
                response: { error: 'User denied execution.' },
              },
            },
            {
              functionResponse: {
                id: 'b__2',
                name: 'b',
                response: { error: 'Tool execution denied by policy.' },
              },
            },
            { functionResponse: { id: 'c__3', name: 'c', response: { output: 'fine' } } },
          ],
        },
      ],
    });
    const tools = view.turns[0]!.items.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => [t.name, t.decision, t.status, t.durationMs])).toEqual([
      ['a', 'denied by user', 'error', 3000],
      ['b', 'denied by policy', 'error', 3000],
      ['c', 'ran', 'success', 3000],
    ]);
    expect(view.totals.errors).toBe(2);
    expect(view.totals.costUsd).toBeCloseTo(1.25 + 1.0, 6);
    expect(priceOf('gemini-2.5-flash-lite')?.input).toBe(0.1);
    expect(estimateCost('some-local-model', { input: 1, output: 1, cached: 0 })).toBeUndefined();
  });
});
