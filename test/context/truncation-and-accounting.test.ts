import { readFile } from 'node:fs/promises';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z, type ServerGeminiStreamEvent } from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { formatTruncatedToolOutput } from '../../src/context/tool-output-truncation.js';
import { ContextTracker } from '../../src/loop/context-window.js';
import { expectValidContents } from '../scenarios/history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

function outputOf(contents: Content[] | undefined): string {
  const part = contents?.at(-1)?.parts?.find((p) => p.functionResponse);
  return String((part?.functionResponse?.response as { output?: unknown } | undefined)?.output);
}

/** A line-numbered text of `lines` lines, so head and tail are recognisable. */
function bigText(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n');
}

describe('tool-output truncation', () => {
  it("cuts a huge result to gemini-cli's head, tail and pointer, and saves the full text to that file", async () => {
    const text = bigText(5000); // ~245,000 characters
    const dump = tool({ name: 'dump', description: 'd', inputSchema: z.object({}) }, () => text);
    const model = new ScriptedModel([callTurn({ name: 'dump', id: 'c1' }), textTurn('done')]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [dump],
      context: { truncateToolOutputThreshold: 1000 },
    }).session();
    const events = await drain(session.sendStream('dump it'));
    const sent = outputOf(model.generateRequests[1]?.contents as Content[]);
    const file = /For full output see: (\S+)\n/.exec(sent)?.[1];
    expect(file).toMatch(/tool-outputs[/\\]session-[\w-]+[/\\]dump__c1\.txt$/);
    expect(sent).toBe(formatTruncatedToolOutput(text, file!, 1000));
    expect(sent.startsWith('Output too large. Showing first 200 and last 800 characters.')).toBe(
      true,
    );
    expect(sent).toContain('line 1 ');
    expect(sent).toContain('line 5000 ');
    expect(sent).toContain(
      `... [${(text.length - 1000).toLocaleString('en-US')} characters omitted] ...`,
    );
    expect(await readFile(file!, 'utf8')).toBe(text);
    expect(
      events.some((e) => e.type === 'warning' && e.value.code === 'TOOL_OUTPUT_TRUNCATED'),
    ).toBe(true);
    // The stored history holds the cut text too (the session file does not grow by the whole output).
    expect(outputOf(session.getHistory().slice(0, -1))).toBe(sent);
    expectValidContents(session.getHistory());
  });

  it('leaves results within the threshold, errors, and (threshold 0) everything alone', async () => {
    const text = 'y'.repeat(5000);
    const dump = tool({ name: 'dump', description: 'd', inputSchema: z.object({}) }, () => text);
    for (const threshold of [5000, 0]) {
      const model = new ScriptedModel([callTurn({ name: 'dump' }), textTurn('ok')]);
      const session = new GeminiCliAgent({
        builtinTools: false,
        contentGenerator: model,
        retry: false,
        tools: [dump],
        context: { truncateToolOutputThreshold: threshold },
      }).session();
      await drain(session.sendStream('go'));
      expect(outputOf(model.generateRequests[1]?.contents as Content[])).toBe(text);
    }
  });

  it('cuts to what the context window has left when that is less than the threshold', async () => {
    const text = bigText(400); // ~18,000 characters
    const dump = tool({ name: 'dump', description: 'd', inputSchema: z.object({}) }, () => text);
    // The first call reports 14,000 of 20,000 tokens used: half of the 6,000 left is 12,000 characters.
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'dump', args: {} } }], {
        promptTokenCount: 14_000,
        totalTokenCount: 14_010,
      }),
      textTurn('ok'),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [dump],
      context: { tokenLimit: 20_000, compressionThreshold: false },
    }).session();
    await drain(session.sendStream('go'));
    const sent = outputOf(model.generateRequests[1]?.contents as Content[]);
    expect(sent).toMatch(/^Output too large\. Showing first [\d,]+ and last [\d,]+ characters\./);
    expect(sent.length).toBeGreaterThan(11_000);
    expect(sent.length).toBeLessThan(12_300);
  });

  it('rejects a bad context option with the field and what it expects', () => {
    expect(() => new GeminiCliAgent({ context: { truncateToolOutputThreshold: -1 } })).toThrow(
      /context\.truncateToolOutputThreshold: expected a number of characters ≥ 0/,
    );
    expect(() => new GeminiCliAgent({ context: { compressionThreshold: 2 } })).toThrow(
      /context\.compressionThreshold/,
    );
    expect(() => new GeminiCliAgent({ context: { tokenlimit: 5 } as never })).toThrow(
      /context\.tokenlimit: unknown option \(did you mean "tokenLimit"\?\)/,
    );
  });
});

describe('context accounting', () => {
  it('estimates from the last real count plus what was added since, and tracks it on the session', async () => {
    const model = new ScriptedModel([
      modelTurn([{ text: 'hello' }], { promptTokenCount: 1234, totalTokenCount: 1240 }),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
    }).session();
    expect(session.contextWindow).toBeUndefined();
    await drain(session.sendStream('hi'));
    const window = session.contextWindow!;
    expect(window.tokenLimit).toBe(1_048_576);
    expect(window.lastPromptTokenCount).toBe(1234);
    expect(window.compressionThreshold).toBe(0.5);
    // The count covered the prompt; the model's answer ("hello") is estimated on top.
    expect(window.estimatedTokens).toBe(1234 + 1);
  });

  it('the tracker costs only the turns added since the last estimate', () => {
    const tracker = new ContextTracker();
    const history: Content[] = [];
    for (let i = 0; i < 100; i++)
      history.push({ role: 'user', parts: [{ text: 'abcd'.repeat(10) }] });
    expect(tracker.estimate(history)).toBe(1000);
    history.push({ role: 'model', parts: [{ text: 'abcd'.repeat(5) }] });
    expect(tracker.estimate(history)).toBe(1005);
    tracker.calibrate(history.length, 50);
    history.push({ role: 'user', parts: [{ text: 'abcd'.repeat(3) }] });
    expect(tracker.estimate(history)).toBe(53);
    expect(tracker.sinceCount(history)).toBe(3);
  });

  it('ends a turn with context_window_will_overflow, without a model call, when tool results cannot fit', async () => {
    const text = 'z'.repeat(30_000); // ~7,500 tokens
    const dump = tool({ name: 'dump', description: 'd', inputSchema: z.object({}) }, () => text);
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'dump', args: {} } }], {
        promptTokenCount: 5000,
        totalTokenCount: 5010,
      }),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [dump],
      context: { tokenLimit: 10_000, compressionThreshold: false, truncateToolOutputThreshold: 0 },
    }).session();
    const events = await drain(session.sendStream('go'));
    const overflow = events.find((e) => e.type === 'context_window_will_overflow');
    // Since the count: the model's call and the 30,000-character response (~7,500 tokens); left then: 5,000.
    expect(overflow?.value).toMatchObject({ remainingTokenCount: 5000 });
    const estimated = (overflow?.value as { estimatedRequestTokenCount: number })
      .estimatedRequestTokenCount;
    expect(estimated).toBeGreaterThan(7500);
    expect(estimated).toBeLessThan(7600);
    expect(model.generateRequests).toHaveLength(1);
    model.assertComplete();
    expectValidContents(session.getHistory());
  });
});
