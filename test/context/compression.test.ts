import type { Content, GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  CompressionStatus,
  GeminiCliAgent,
  hook,
  SessionBusyError,
  tool,
  z,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { findCompressSplitPoint } from '../../src/context/chat-compression.js';
import {
  COMPRESSION_PROMPT,
  SNAPSHOT_ACK,
  SNAPSHOT_PROBE,
} from '../../src/context/compression-prompt.js';
import { estimateTokens } from '../../src/loop/context-window.js';
import { expectValidContents } from '../scenarios/history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

function isCompression(request: GenerateContentParameters): boolean {
  const si = request.config?.systemInstruction as { text?: string } | undefined;
  return si?.text === COMPRESSION_PROMPT;
}

/** A model turn that reports the request's estimated tokens as its promptTokenCount (a real model's count). */
function counted(parts: Parameters<typeof modelTurn>[0]) {
  return (request: GenerateContentParameters): GenerateContentResponse[] => {
    const tokens = estimateTokens((request.contents as Content[]).flatMap((c) => c.parts ?? []));
    return modelTurn(parts, { promptTokenCount: tokens, totalTokenCount: tokens + 5 });
  };
}

const snapshot = (n: number) =>
  textTurn(`<state_snapshot><overall_goal>goal ${n}</overall_goal></state_snapshot>`);

describe('findCompressSplitPoint', () => {
  const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
  const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
  const call: Content = {
    role: 'model',
    parts: [{ functionCall: { name: 't', args: {}, id: 't__1' } }],
  };
  const response: Content = {
    role: 'user',
    parts: [{ functionResponse: { name: 't', id: 't__1', response: { output: 'x'.repeat(500) } } }],
  };

  it('splits on a user prompt past the fraction, never between a call and its response', () => {
    const history = [user('a'.repeat(100)), call, response, model('done'), user('b'), model('ok')];
    const split = findCompressSplitPoint(history, 0.7);
    expect(split).toBe(4);
    expect(history[split]?.role).toBe('user');
    // Only a function-response user turn past the fraction: the last prompt before it.
    expect(findCompressSplitPoint([user('a'), call, response], 0.5)).toBe(0);
    // Ending with a model answer, everything may go.
    expect(findCompressSplitPoint([user('a'), model('b'.repeat(100))], 0.99)).toBe(2);
    expect(() => findCompressSplitPoint([], 1)).toThrow(RangeError);
  });
});

describe('compression', () => {
  it('compresses automatically at the threshold: snapshot, probe, "Got it", chat_compressed, stored for resume', async () => {
    const requests: GenerateContentParameters[] = [];
    const model = new ScriptedModel([
      counted([{ text: 'first answer ' + 'a'.repeat(3200) }]),
      counted([{ text: 'second answer ' + 'b'.repeat(2000) }]),
      // The second call counted ~800 of 1,500 tokens (≥ 0.5): the third prompt compresses first.
      (r) => (requests.push(r), snapshot(1)),
      (r) => (requests.push(r), snapshot(2)),
      counted([{ text: 'third answer' }]),
    ]);
    const agent = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      sessionContext: false,
      context: { tokenLimit: 1500 },
    });
    const session = agent.session();
    await drain(session.sendStream('one'));
    await drain(session.sendStream('two'));
    const events = await drain(session.sendStream('three'));
    const compressed = events.find((e) => e.type === 'chat_compressed');
    expect(compressed?.value).toMatchObject({ compressionStatus: CompressionStatus.COMPRESSED });
    const info = compressed!.value as { originalTokenCount: number; newTokenCount: number };
    expect(info.originalTokenCount).toBeGreaterThan(750);
    expect(info.newTokenCount).toBeLessThan(info.originalTokenCount);
    // The summarizer got the oldest part and gemini-cli's two asks; the probe got the first summary back.
    expect((requests[0]?.contents as Content[]).at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          text: 'Generate a new <state_snapshot> based on the provided history.\n\nFirst, reason in your scratchpad. Then, generate the updated <state_snapshot>.',
        },
      ],
    });
    expect((requests[1]?.contents as Content[]).at(-1)?.parts?.[0]?.text).toBe(SNAPSHOT_PROBE);
    expect((requests[1]?.contents as Content[]).at(-2)?.parts?.[0]?.text).toContain('goal 1');
    // The next request starts from the snapshot (the probe's, improved) and the ack.
    const sent = model.generateRequests.at(-1)?.contents as Content[];
    expect(sent[0]?.parts?.[0]?.text).toContain('goal 2');
    expect(sent[1]).toEqual({ role: 'model', parts: [{ text: SNAPSHOT_ACK }] });
    expect(sent.at(-1)?.parts?.[0]?.text).toBe('three');
    expectValidContents(sent);
    const history = session.getHistory();
    await session.close();

    // A resume (a new agent, as a new process would) sees the compressed history.
    const resumed = await new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
    }).resumeSession(session.id);
    expect(resumed.getHistory()).toEqual(history);
    await resumed.close();
    model.assertComplete();
  });

  it('session.compress() compresses under the threshold, fires PreCompress (manual) first, and is refused while streaming', async () => {
    const fired: string[] = [];
    const preCompress = hook({ event: 'PreCompress', name: 'note' }, (input, ctx) => {
      fired.push(`${input.trigger} ${ctx.transcript.length}`);
      return undefined;
    });
    const model = new ScriptedModel([
      textTurn('answer one ' + 'x'.repeat(800)),
      textTurn('answer two'),
      snapshot(1),
      snapshot(2),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      hooks: [preCompress],
    }).session();
    await drain(session.sendStream('one'));
    await drain(session.sendStream('two'));
    const info = await session.compress();
    expect(info.compressionStatus).toBe(CompressionStatus.COMPRESSED);
    expect(fired).toEqual(['manual 4']);
    const history = session.getHistory();
    expect(history[0]?.parts?.[0]?.text).toContain('goal 2');
    expect(history[1]?.parts?.[0]?.text).toBe(SNAPSHOT_ACK);
    expect(history.at(-1)?.parts?.[0]?.text).toBe('answer two');

    const slow = new ScriptedModel([textTurn('late')], { chunkDelayMs: 50 });
    const busy = new GeminiCliAgent({ builtinTools: false, contentGenerator: slow }).session();
    const stream = busy.sendStream('x');
    const first = stream.next();
    await expect(busy.compress()).rejects.toBeInstanceOf(SessionBusyError);
    await first;
    await drain(stream);
  });

  it('an empty summary leaves the history unchanged (4); an inflated one too (2), and automatic ones then only cut (6)', async () => {
    const model = new ScriptedModel([textTurn('a'), textTurn(''), textTurn('')]);
    const session = new GeminiCliAgent({ builtinTools: false, contentGenerator: model }).session();
    await drain(session.sendStream('one'));
    const before = session.getHistory();
    expect((await session.compress()).compressionStatus).toBe(
      CompressionStatus.COMPRESSION_FAILED_EMPTY_SUMMARY,
    );
    expect(session.getHistory()).toEqual(before);

    const big = textTurn('<state_snapshot>' + 'y'.repeat(40_000) + '</state_snapshot>');
    const dump = tool({ name: 'dump', description: 'd', inputSchema: z.object({}) }, () =>
      'o'.repeat(250_000),
    );
    const inflating = new ScriptedModel([
      counted([{ text: 'short' }]),
      big,
      big,
      callTurn({ name: 'dump', id: 'd1' }),
      callTurn({ name: 'dump', id: 'd2' }),
      counted([{ text: 'fine' }]),
    ]);
    const s2 = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: inflating,
      retry: false,
      tools: [dump],
      context: {
        tokenLimit: 1_000_000,
        compressionThreshold: 0.0001,
        truncateToolOutputThreshold: 300_000,
      },
    }).session();
    await drain(s2.sendStream('hello'));
    // Second prompt: the threshold is reached, the summary is bigger than the history: status 2, unchanged.
    const events = await drain(s2.sendStream('now dump twice'));
    expect(events.some((e) => e.type === 'chat_compressed')).toBe(false);
    expectValidContents(s2.getHistory());
    // The two dumps (~125,000 tokens) went through without another summary call (the script had none left).
    inflating.assertComplete();
  });

  it("one prompt's long tool loop (nothing to summarize) gets its old outputs cut instead of overflowing", async () => {
    const dump = tool(
      { name: 'dump', description: 'd', inputSchema: z.object({ n: z.number() }) },
      ({ n }) => `${n} ${'q'.repeat(120_000)}`, // ~30,000 tokens each, never cut when it arrives (threshold 0)
    );
    let n = 0;
    const turns = Array.from({ length: 6 }, () =>
      counted([{ functionCall: { name: 'dump', args: { n: ++n }, id: `d${n}` } }]),
    );
    const model = new ScriptedModel([...turns, counted([{ text: 'all done' }])]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [dump],
      context: { tokenLimit: 100_000, truncateToolOutputThreshold: 0 },
    }).session();
    const events = await drain(session.sendStream('dump six times'));
    expect(events.some((e) => e.type === 'context_window_will_overflow')).toBe(false);
    expect(events.filter((e) => e.type === 'tool_call_response')).toHaveLength(6);
    model.assertComplete();
    const history = session.getHistory();
    expectValidContents(history);
    const outputs = history.flatMap((c) =>
      (c.parts ?? []).flatMap((p) =>
        p.functionResponse ? [String(p.functionResponse.response?.['output'])] : [],
      ),
    );
    expect(outputs.filter((o) => o.startsWith('Output too large.')).length).toBeGreaterThanOrEqual(
      3,
    );
    expect(outputs.at(-1)?.length).toBeGreaterThan(120_000); // the newest stays whole
  });

  it('a long session: 2M tokens of tool output over 200 prompts ends valid, compressed, and resumes the same', async () => {
    const dump = tool(
      { name: 'dump', description: 'd', inputSchema: z.object({ n: z.number() }) },
      ({ n }) => `${n}: ${'log line '.repeat(4_440)}`, // ~40,000 characters: ~10,000 tokens each
    );
    let calls = 0;
    let summaries = 0;
    const respond = (request: GenerateContentParameters): GenerateContentResponse[] => {
      if (isCompression(request)) return (summaries++, snapshot(summaries));
      const last = (request.contents as Content[]).at(-1);
      const answered = last?.parts?.some((p) => p.functionResponse) ?? false;
      const parts = answered
        ? [{ text: `noted ${calls}` }]
        : [{ functionCall: { name: 'dump', args: { n: ++calls }, id: `c${calls}` } }];
      return counted(parts)(request);
    };
    const model = new ScriptedModel(Array.from({ length: 800 }, () => respond));
    const agent = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [dump],
    });
    const session = agent.session();
    let compressions = 0;
    for (let i = 0; i < 200; i++) {
      const events = await drain(session.sendStream(`prompt ${i}`));
      expect(
        events.some((e) => e.type === 'error' || e.type === 'context_window_will_overflow'),
      ).toBe(false);
      compressions += events.filter((e) => e.type === 'chat_compressed').length;
    }
    expect(calls).toBe(200);
    expect(compressions).toBeGreaterThanOrEqual(3);
    const history = session.getHistory();
    expectValidContents(history);
    expect(history[0]?.parts?.[0]?.text).toContain('<state_snapshot>');
    expect(session.contextWindow!.estimatedTokens).toBeLessThan(600_000);
    await session.close();
    const resumed = await new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
    }).resumeSession(session.id);
    expect(resumed.getHistory()).toEqual(history);
    await resumed.close();
  }, 120_000);
});
