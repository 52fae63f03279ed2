import { describe, expect, it } from 'vitest';
import type { RetryEventInfo, ServerGeminiStreamEvent } from '../sdk.js';
import { JsonWriter } from './json-writer.js';
import { RunStatsCollector } from './run-stats.js';
import { StreamJsonWriter } from './stream-json-writer.js';
import { TextWriter } from './text-writer.js';

const usage = {
  promptTokenCount: 100,
  candidatesTokenCount: 7,
  totalTokenCount: 107,
  cachedContentTokenCount: 40,
};

const events: ServerGeminiStreamEvent[] = [
  { type: 'model_info', value: 'gemini-2.5-pro' },
  {
    type: 'tool_call_request',
    value: {
      callId: 'add__1',
      name: 'add',
      args: { a: 1, b: 2 },
      isClientInitiated: false,
      prompt_id: 's',
    },
  },
  { type: 'finished', value: { reason: undefined, usageMetadata: usage } },
  {
    type: 'tool_call_response',
    value: {
      callId: 'add__1',
      name: 'add',
      responseParts: [{ functionResponse: { id: '1', name: 'add', response: { output: '3' } } }],
      resultDisplay: '3',
      durationMs: 5,
    },
  },
  {
    type: 'tool_call_request',
    value: { callId: 'x__2', name: 'x', args: {}, isClientInitiated: false, prompt_id: 's' },
  },
  {
    type: 'tool_call_response',
    value: {
      callId: 'x__2',
      name: 'x',
      responseParts: [],
      resultDisplay: 'Tool "x" not found.',
      error: { message: 'Tool "x" not found.', type: 'tool_not_registered' },
    },
  },
  { type: 'content', value: 'The sum ' },
  { type: 'content', value: 'is 3.' },
  { type: 'finished', value: { reason: undefined, usageMetadata: usage } },
];

function collect(): {
  out: string[];
  err: string[];
  sinkOut: (t: string) => void;
  sinkErr: (t: string) => void;
} {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, sinkOut: (t) => out.push(t), sinkErr: (t) => err.push(t) };
}

function statsOf(list: ServerGeminiStreamEvent[]) {
  let now = 1000;
  const collector = new RunStatsCollector('configured-model', () => (now += 10));
  for (const event of list) collector.observe(event);
  return collector.snapshot();
}

describe('StreamJsonWriter', () => {
  it("writes one line per event with gemini-cli's types and fields", () => {
    const { out, sinkOut } = collect();
    const writer = new StreamJsonWriter(sinkOut, () => new Date('2026-01-02T03:04:05.000Z'));
    writer.start({ sessionId: 'sid', model: 'gemini-2.5-pro', prompt: 'add 1 and 2' });
    for (const event of events) writer.event(event);
    writer.finish({ status: 'success', stats: statsOf(events) });
    const lines = out
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['type'])).toEqual([
      'init',
      'message',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'message',
      'message',
      'result',
    ]);
    expect(lines.every((l) => l['timestamp'] === '2026-01-02T03:04:05.000Z')).toBe(true);
    expect(lines[0]).toMatchObject({ session_id: 'sid', model: 'gemini-2.5-pro' });
    expect(lines[1]).toMatchObject({ role: 'user', content: 'add 1 and 2' });
    expect(lines[2]).toMatchObject({
      tool_name: 'add',
      tool_id: 'add__1',
      parameters: { a: 1, b: 2 },
    });
    expect(lines[3]).toEqual({
      type: 'tool_result',
      timestamp: '2026-01-02T03:04:05.000Z',
      tool_id: 'add__1',
      status: 'success',
      output: '3',
    });
    expect(lines[5]).toMatchObject({
      status: 'error',
      output: 'Tool "x" not found.',
      error: { type: 'tool_not_registered', message: 'Tool "x" not found.' },
    });
    expect(lines[6]).toMatchObject({ role: 'assistant', content: 'The sum ', delta: true });
    expect(lines[8]).toMatchObject({
      status: 'success',
      stats: {
        total_tokens: 214,
        input_tokens: 200,
        output_tokens: 14,
        cached: 80,
        input: 120,
        tool_calls: 2,
        models: { 'gemini-2.5-pro': { total_tokens: 214, input_tokens: 200 } },
      },
    });
  });

  it('reports loop detection as a warning and turn exhaustion as an error', () => {
    const { out, sinkOut } = collect();
    const writer = new StreamJsonWriter(sinkOut);
    writer.event({ type: 'loop_detected' });
    writer.event({ type: 'max_session_turns' });
    const lines = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      type: 'error',
      severity: 'warning',
      message: 'Loop detected, stopping execution',
    });
    expect(lines[1]).toMatchObject({
      type: 'error',
      severity: 'error',
      message: 'Maximum session turns exceeded',
    });
  });
});

describe('JsonWriter', () => {
  it('prints one pretty object with session_id, response, stats and error', () => {
    const { out, sinkOut } = collect();
    const writer = new JsonWriter(sinkOut);
    writer.start({ sessionId: 'sid', model: 'm', prompt: 'p' });
    for (const event of events) writer.event(event);
    writer.finish({
      status: 'error',
      error: { type: 'TurnLimitError', message: 'limit', code: 53 },
      stats: statsOf(events),
    });
    expect(out).toHaveLength(1);
    const text = out[0] ?? '';
    expect(text).toContain('\n  "session_id": "sid",');
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toMatchObject({
      session_id: 'sid',
      response: 'The sum is 3.',
      error: { type: 'TurnLimitError', message: 'limit', code: 53 },
      stats: {
        models: {
          'gemini-2.5-pro': { api: { totalRequests: 2 }, tokens: { prompt: 200, input: 120 } },
        },
        tools: {
          totalCalls: 2,
          totalSuccess: 1,
          totalFail: 1,
          // The unknown tool was refused before any decision (gemini-cli counts none for it).
          totalDecisions: { accept: 1, reject: 0, modify: 0, auto_accept: 0 },
          byName: { add: { count: 1, success: 1 }, x: { count: 1, fail: 1 } },
        },
        files: { totalLinesAdded: 0, totalLinesRemoved: 0 },
      },
    });
  });

  it("answers with the last model call's text only, as gemini prints it", () => {
    const { out, sinkOut } = collect();
    const writer = new JsonWriter(sinkOut);
    writer.start({ sessionId: 's', model: 'm', prompt: 'p' });
    writer.event({ type: 'content', value: 'Let me look.' });
    for (const event of events) writer.event(event);
    writer.finish({ status: 'success', stats: statsOf([]) });
    expect((JSON.parse(out[0] ?? '{}') as { response: string }).response).toBe('The sum is 3.');
  });

  it('drops the partial text of a retried model call', () => {
    const { out, sinkOut } = collect();
    const writer = new JsonWriter(sinkOut);
    writer.start({ sessionId: 's', model: 'm', prompt: 'p' });
    writer.event({ type: 'content', value: 'Hel' });
    writer.event({ type: 'finished', value: { reason: undefined, usageMetadata: undefined } });
    writer.event({ type: 'retry', value: retryInfo('stream') });
    writer.event({ type: 'content', value: 'Hello.' });
    writer.event({ type: 'finished', value: { reason: undefined, usageMetadata: undefined } });
    writer.finish({ status: 'success', stats: statsOf([]) });
    expect((JSON.parse(out[0] ?? '{}') as { response: string }).response).toBe('Hello.');
  });
});

function retryInfo(phase: 'connect' | 'stream'): RetryEventInfo {
  return {
    attempt: 1,
    maxAttempts: 4,
    delayMs: 1000,
    phase,
    reason: 'NO_FINISH_REASON',
    message: 'x',
  };
}

describe('TextWriter', () => {
  it('prints only the answer on stdout and ends the line', () => {
    const { out, err, sinkOut, sinkErr } = collect();
    const writer = new TextWriter(sinkOut, sinkErr);
    writer.start();
    for (const event of events.slice(0, -1)) writer.event(event);
    expect(writer.midLine).toBe(true);
    writer.finish({ status: 'success', stats: statsOf(events) });
    expect(out.join('')).toBe('The sum is 3.\n');
    expect(err).toEqual([]);
  });

  it("ends each model call's line before its tools run, as gemini does", () => {
    const { out, sinkOut, sinkErr } = collect();
    const writer = new TextWriter(sinkOut, sinkErr);
    writer.event({ type: 'content', value: 'Let me look.' });
    for (const event of events) writer.event(event);
    writer.finish({ status: 'success', stats: statsOf(events) });
    expect(out.join('')).toBe('Let me look.\nThe sum is 3.\n');
  });

  it('prints the final error on stderr', () => {
    const { out, err, sinkOut, sinkErr } = collect();
    const writer = new TextWriter(sinkOut, sinkErr);
    writer.finish({
      status: 'error',
      error: { type: 'E', message: 'went wrong' },
      stats: statsOf([]),
    });
    expect(out).toEqual([]);
    expect(err.join('')).toBe('Error: went wrong\n');
  });
});

describe('RunStatsCollector cost', () => {
  it('prices each model at DEFAULT_PRICES, cached input at its own price; a model without a price is null', () => {
    const stats = statsOf([
      ...events,
      { type: 'model_info', value: 'my-tuned-model' },
      { type: 'finished', value: { reason: undefined, usageMetadata: usage } },
    ]);
    // gemini-2.5-pro: 60 input at $1.25, 40 cached at $0.31, 7 output at $10 per million; twice.
    const pro = (2 * (60 * 1.25 + 40 * 0.31 + 7 * 10)) / 1e6;
    expect(stats.session.cost.byModel).toEqual({ 'gemini-2.5-pro': pro, 'my-tuned-model': null });
    expect(stats.session.cost.totalUsd).toBeCloseTo(pro, 12);
    expect(stats.stream.cost_usd).toBeCloseTo(pro, 12);
    expect(stats.stream.models['my-tuned-model']?.cost_usd).toBeNull();
    expect(stats.stream.models['gemini-2.5-pro']?.cost_usd).toBeCloseTo(pro, 12);
  });
});
