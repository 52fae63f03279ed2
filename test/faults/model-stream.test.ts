/**
 * Fault catalogue — the model stream: every way a response can be unusable (blocked, empty, cut off, a malformed
 * call), resets mid-stream, and oversized responses, through the real @google/genai client against
 * FakeGeminiServer. Each fault is retried as gemini-cli does, then surfaces as an event naming the reason and a
 * typed rejection; the prompt keeps its own turn and the stored history stays complete and valid.
 */
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  InvalidStreamError,
  ModelApiError,
  ResponseTooLargeError,
  tool,
  z,
} from '../../src/index.js';
import { INTERRUPTED_PLACEHOLDER } from '../../src/loop/request-contents.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import {
  chunk,
  collect,
  expectStoredHistory,
  fakeGemini,
  instantRetry,
  ofType,
  sessionFileRecords,
  tempProject,
} from './fault-helpers.js';

const interruptedTurn = (...seen: string[]) => ({
  role: 'model',
  parts: [...seen.map((text) => ({ text })), { text: INTERRUPTED_PLACEHOLDER }],
});

async function agentFor(baseUrl: string, extra: Record<string, unknown> = {}) {
  const cwd = await tempProject();
  const { retry, delays } = instantRetry();
  const agent = new GeminiCliAgent({
    cwd,
    apiKey: 'test-key',
    baseUrl,
    builtinTools: false,
    skillDiscovery: false,
    // These tests compare the request contents with the stored history, which never holds <session_context>.
    sessionContext: false,
    retry,
    ...extra,
  });
  return { agent, cwd, delays };
}

describe('unusable responses are retried as gemini-cli does, then named', () => {
  it.each<[string, object[], string]>([
    [
      'a blocked prompt (promptFeedback.blockReason)',
      [{ promptFeedback: { blockReason: 'SAFETY' } }],
      'PROMPT_BLOCKED',
    ],
    [
      'a response with no candidates',
      [{ usageMetadata: { totalTokenCount: 3 } }],
      'NO_FINISH_REASON',
    ],
    ['an empty candidate list', [{ candidates: [] }], 'NO_FINISH_REASON'],
    ['SAFETY with no parts', [chunk([], 'SAFETY')], 'SAFETY_BLOCKED'],
    ['RECITATION with no parts', [chunk([], 'RECITATION')], 'RECITATION_BLOCKED'],
    ['PROHIBITED_CONTENT with no parts', [chunk([], 'PROHIBITED_CONTENT')], 'OTHER_BLOCKED'],
    ['BLOCKLIST with no parts', [chunk([], 'BLOCKLIST')], 'OTHER_BLOCKED'],
    ['SPII with no parts', [chunk([], 'SPII')], 'OTHER_BLOCKED'],
    [
      'MALFORMED_FUNCTION_CALL',
      [chunk([{ text: 'Let me call' }], 'MALFORMED_FUNCTION_CALL')],
      'MALFORMED_FUNCTION_CALL',
    ],
    [
      'a stream cut off without a finish reason',
      [chunk([{ text: 'The answer is' }])],
      'NO_FINISH_REASON',
    ],
    ['an empty 200 body', [], 'NO_FINISH_REASON'],
    [
      'an answer of thoughts only',
      [chunk([{ text: '**Plan** think', thought: true }], 'STOP')],
      'THINKING_ONLY_RESPONSE',
    ],
    ['an empty STOP answer', [chunk([{ text: ' \u200b<!-- x -->' }], 'STOP')], 'NO_RESPONSE_TEXT'],
  ])('%s → invalid_stream after 4 attempts; send() rejects typed', async (_name, chunks, type) => {
    const server = await fakeGemini(
      ...Array.from({ length: 8 }, () => ({ chunks: chunks as never })),
    );
    const { agent, cwd, delays } = await agentFor(server.baseUrl);
    const session = agent.session({ sessionId: `invalid-${type.toLowerCase()}` });
    const { events, error } = await collect(session.sendStream('Tell me.'));

    expect(server.requests).toHaveLength(4);
    expect(delays).toEqual([1000, 2000, 4000]);
    const retries = ofType(events, 'retry').map((e) => e.value);
    expect(retries.map((r) => [r.attempt, r.phase, r.reason])).toEqual([
      [1, 'stream', type],
      [2, 'stream', type],
      [3, 'stream', type],
    ]);
    const invalid = ofType(events, 'invalid_stream');
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.value.type).toBe(type);
    expect(events.at(-1)?.type).toBe('invalid_stream');
    expect(error).toBeInstanceOf(InvalidStreamError);
    expect(error).toMatchObject({ code: 'INVALID_STREAM', type });
    await expect(agent.session().send('Again?')).rejects.toBeInstanceOf(InvalidStreamError);
    expect(server.requests).toHaveLength(8);

    const history = [{ role: 'user', parts: [{ text: 'Tell me.' }] }, interruptedTurn()];
    expect(session.getHistory()).toEqual(history);
    await session.close();
    await expectStoredHistory(cwd, session.id, history);
  });

  it('a blocked prompt names the block reason in the event', async () => {
    const blocked = {
      chunks: [
        { promptFeedback: { blockReason: 'PROHIBITED_CONTENT', blockReasonMessage: 'no' } },
      ] as never,
    };
    const server = await fakeGemini(blocked, blocked, blocked, blocked);
    const { agent } = await agentFor(server.baseUrl);
    const { events } = await collect(agent.session().sendStream('x'));
    expect(ofType(events, 'invalid_stream')[0]?.value.message).toContain(
      'promptFeedback.blockReason PROHIBITED_CONTENT: no',
    );
  });

  it('a thoughts-only answer is re-sent with gemini-cli nudge and the good answer is kept alone', async () => {
    const server = await fakeGemini(
      { chunks: [chunk([{ text: '**Hmm**', thought: true }], 'STOP')] as never },
      { chunks: [chunk([{ text: 'Half an ans' }])] as never },
      { chunks: [chunk([{ text: 'The answer.' }], 'STOP')] as never },
    );
    const { agent, cwd } = await agentFor(server.baseUrl, { instructions: 'Be brief.' });
    const session = agent.session();
    const result = await session.send('Q?');
    expect(result.text).toBe('The answer.');
    expect(ofType(result.events, 'retry').map((e) => e.value.reason)).toEqual([
      'THINKING_ONLY_RESPONSE',
      'NO_FINISH_REASON',
    ]);
    const system = (i: number) =>
      JSON.stringify(
        (server.requests[i]?.body as { systemInstruction?: unknown }).systemInstruction,
      );
    expect(system(0)).not.toContain('[System:');
    expect(system(1)).toContain('You previously generated thoughts but failed to provide');
    expect(system(2)).not.toContain('[System:');
    const history = [
      { role: 'user', parts: [{ text: 'Q?' }] },
      { role: 'model', parts: [{ text: 'The answer.' }] },
    ];
    expect(session.getHistory()).toEqual(history);
    await session.close();
    await expectStoredHistory(cwd, session.id, history);
  });

  it('an empty answer after tool results ends the tool loop (as gemini-cli), no retry', async () => {
    const server = await fakeGemini(
      { chunks: [chunk([{ functionCall: { name: 'ping', args: {} } }], 'STOP')] as never },
      { chunks: [chunk([], 'STOP')] as never },
    );
    const ping = tool({ name: 'ping', description: 'p', inputSchema: z.object({}) }, () => 'pong');
    const { agent } = await agentFor(server.baseUrl, { tools: [ping] });
    const { events, error } = await collect(agent.session().sendStream('ping'));
    expect(error).toBeUndefined();
    expect(ofType(events, 'retry')).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('resets mid-stream', () => {
  it('a reset after the first chunk is retried; the partial answer is dropped', async () => {
    const server = await fakeGemini(
      {
        chunks: [chunk([{ text: 'partial ' }]), chunk([{ text: 'x' }], 'STOP')] as never,
        resetAfterChunks: 1,
      },
      { chunks: [chunk([{ text: 'Complete answer.' }], 'STOP')] as never },
    );
    const { agent, cwd } = await agentFor(server.baseUrl);
    const session = agent.session();
    const result = await session.send('Go.');
    expect(result.text).toBe('Complete answer.');
    const [retry] = ofType(result.events, 'retry');
    expect(retry?.value).toMatchObject({
      attempt: 1,
      maxAttempts: 4,
      delayMs: 1000,
      phase: 'stream',
      endpoint: server.baseUrl,
    });
    expect(retry?.value.code).toMatch(/^(UND_ERR_SOCKET|ECONNRESET)$/);
    const history = [
      { role: 'user', parts: [{ text: 'Go.' }] },
      { role: 'model', parts: [{ text: 'Complete answer.' }] },
    ];
    expect(session.getHistory()).toEqual(history);
    await session.close();
    await expectStoredHistory(cwd, session.id, history);
  });

  it('resets on every attempt end in an error event and a typed rejection; the session goes on', async () => {
    const reset = {
      chunks: [chunk([{ text: 'partial' }]), chunk([{ text: '!' }], 'STOP')] as never,
      resetAfterChunks: 1,
    };
    const server = await fakeGemini(reset, reset, reset, reset, {
      chunks: [chunk([{ text: 'Back.' }], 'STOP')] as never,
    });
    const { agent, cwd, delays } = await agentFor(server.baseUrl);
    const session = agent.session();
    const { events, error } = await collect(session.sendStream('Go.'));
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(error).toBeInstanceOf(ModelApiError);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect((await session.send('Again.')).text).toBe('Back.');
    const history = [
      { role: 'user', parts: [{ text: 'Go.' }] },
      interruptedTurn(),
      { role: 'user', parts: [{ text: 'Again.' }] },
      { role: 'model', parts: [{ text: 'Back.' }] },
    ];
    expect(session.getHistory()).toEqual(history);
    await session.close();
    await expectStoredHistory(cwd, session.id, history);
  });

  it('a malformed chunk fails typed (not retried, as gemini-cli), the history stays valid', async () => {
    const server = await fakeGemini(
      { chunks: [chunk([{ text: 'ok so far' }])] as never, malformed: { afterChunks: 1 } },
      { chunks: [chunk([{ text: 'Fine.' }], 'STOP')] as never },
    );
    const { agent, cwd } = await agentFor(server.baseUrl);
    const session = agent.session();
    const { events, error } = await collect(session.sendStream('Go.'));
    expect(error).toBeInstanceOf(ModelApiError);
    expect((error as Error).message).toContain('malformed data');
    expect(ofType(events, 'error')).toHaveLength(1);
    expect((await session.send('Again.')).text).toBe('Fine.');
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });
});

describe('an abort mid-stream', () => {
  it('keeps the cancelled prompt as its own turn, marked interrupted on disk, never merged into the next', async () => {
    const server = await fakeGemini(
      {
        chunks: [chunk([{ text: 'one ' }]), chunk([{ text: 'two' }], 'STOP')] as never,
        chunkDelayMs: 200,
      },
      { chunks: [chunk([{ text: 'c1 answer' }], 'STOP')] as never },
    );
    const { agent, cwd } = await agentFor(server.baseUrl);
    const session = agent.session();
    const controller = new AbortController();
    const { events } = await collect(
      (async function* () {
        for await (const e of session.sendStream('one', controller.signal)) {
          if (e.type === 'content') controller.abort();
          yield e;
        }
      })(),
    );
    expect(events.map((e) => e.type)).toEqual(['model_info', 'content', 'user_cancelled']);
    expect((await session.send('c1')).text).toBe('c1 answer');
    const sent = (server.requests[1]?.body as { contents: unknown[] }).contents;
    expect(sent).toEqual([
      { role: 'user', parts: [{ text: 'one' }] },
      interruptedTurn('one '),
      { role: 'user', parts: [{ text: 'c1' }] },
    ]);
    const records = await sessionFileRecords(process.env['GEMINI_CLI_HOME'] as string, session.id);
    const interrupted = records.filter((r) => r['interrupted'] === true);
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]).toMatchObject({ type: 'gemini' });
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });
});

describe('oversized responses', () => {
  it('a response past limits.maxResponseBytes is aborted as it arrives; the session stays usable', async () => {
    const big = 'x'.repeat(4096);
    const server = await fakeGemini(
      { chunks: Array.from({ length: 40 }, () => chunk([{ text: big }])) as never },
      { chunks: [chunk([{ text: 'Short.' }], 'STOP')] as never },
    );
    const { agent, cwd } = await agentFor(server.baseUrl, {
      limits: { maxResponseBytes: 64 * 1024 },
    });
    const session = agent.session();
    const { events, error } = await collect(session.sendStream('Write a lot.'));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', limitBytes: 64 * 1024 });
    expect(ofType(events, 'retry')).toEqual([]);
    expect(ofType(events, 'error')[0]?.value.error.code).toBe('RESPONSE_TOO_LARGE');
    expect((await session.send('Short, then.')).text).toBe('Short.');
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('one giant chunk is cut at the HTTP layer, never buffered whole', async () => {
    const server = await fakeGemini(
      { chunks: [chunk([{ text: 'y'.repeat(2 * 1024 * 1024) }], 'STOP')] as never },
      { chunks: [chunk([{ text: 'Small.' }], 'STOP')] as never },
    );
    const { agent } = await agentFor(server.baseUrl, { limits: { maxResponseBytes: 256 * 1024 } });
    const session = agent.session();
    await expect(session.send('Huge?')).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect((await session.send('Small?')).text).toBe('Small.');
  });

  it('the same cap holds for any ContentGenerator (here a ScriptedModel)', async () => {
    const cwd = await tempProject();
    const model = new ScriptedModel([
      [chunk([{ text: 'z'.repeat(10_000) }]), chunk([{ text: 'z'.repeat(10_000) }], 'STOP')],
      textTurn('ok'),
    ]);
    const session = new GeminiCliAgent({
      cwd,
      contentGenerator: model,
      builtinTools: false,
      skillDiscovery: false,
      retry: false,
      limits: { maxResponseBytes: 15_000 },
    }).session();
    await expect(session.send('big')).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect((await session.send('small')).text).toBe('ok');
  });
});
