import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, modelTurn } from '../../src/testing/index.js';
import { expectValidContents } from '../scenarios/history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const usage = (input: number, output: number) => ({
  promptTokenCount: input,
  candidatesTokenCount: output,
  totalTokenCount: input + output,
});

describe('budgets', () => {
  it('pauses before the call that would cross the limit; a resume in a new agent extends and continues', async () => {
    let runs = 0;
    const step = tool(
      { name: 'step', description: 's', inputSchema: z.object({}) },
      () => `ran ${++runs}`,
    );
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'step', args: {}, id: 's1' } }], usage(900, 50)),
      modelTurn([{ text: 'finished' }], usage(950, 5)),
    ]);
    const options: GeminiCliAgentOptions = {
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [step],
      budget: { maxTotalTokens: 1000 },
    };
    const session = new GeminiCliAgent(options).session();
    const events = await drain(session.sendStream('go'));
    const exceeded = events.find((e) => e.type === 'budget_exceeded');
    expect(exceeded?.value).toMatchObject({
      reason: 'total_tokens',
      limit: 1000,
      spent: { inputTokens: 900, outputTokens: 50, modelCalls: 1 },
    });
    expect(events.at(-1)).toBe(exceeded);
    expect(runs).toBe(1); // the tool ran, its result is stored; the model has not seen it yet
    expect(session.budget?.paused?.reason).toBe('total_tokens');
    expectValidContents(session.getHistory());
    await session.close();

    // Another agent (as another process would) sees the pause and the spending.
    const resumed = await new GeminiCliAgent(options).resumeSession(session.id);
    await resumed.initialize();
    expect(resumed.budget?.paused?.reason).toBe('total_tokens');
    expect(resumed.budget?.spent.inputTokens).toBe(900);
    await resumed.extendBudget({ maxTotalTokens: 5000 });
    expect(resumed.budget?.limits.maxTotalTokens).toBe(6000);
    const rest = await drain(resumed.resumeTurn());
    expect(rest.filter((e) => e.type === 'content').map((e) => e.value)).toEqual(['finished']);
    expect(runs).toBe(1);
    model.assertComplete();
    expect(resumed.budget?.paused).toBeUndefined();
    expect(resumed.budget?.spent.modelCalls).toBe(2);
    await expect(drain(resumed.resumeTurn())).rejects.toBeInstanceOf(ConfigurationError);
    expectValidContents(resumed.getHistory());
    await resumed.close();
  });

  it('counts cost from the price table; a model without a price cannot hold a cost budget', async () => {
    const model = new ScriptedModel([
      modelTurn([{ text: 'a' }], usage(1_000_000, 100_000)),
      modelTurn([{ text: 'b' }], usage(10, 1)),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      model: 'gemini-2.5-flash',
      budget: { maxCostUsd: 0.5 },
    }).session();
    await drain(session.sendStream('one'));
    // 1M input at $0.30 + 100k output at $2.50 = $0.55.
    expect(session.budget?.spent.costUsd).toBeCloseTo(0.55, 6);
    const events = await drain(session.sendStream('two'));
    expect(events.find((e) => e.type === 'budget_exceeded')?.value).toMatchObject({
      reason: 'cost',
      limit: 0.5,
    });

    const unknown = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: new ScriptedModel([]),
      model: 'my-model',
      budget: { maxCostUsd: 1 },
    }).session();
    await expect(drain(unknown.sendStream('x'))).rejects.toThrow(/No price for model "my-model"/);
    expect(() => new GeminiCliAgent({ budget: { maxCostUsd: -1 } })).toThrow(/budget\.maxCostUsd/);
  });
});

describe('per-session budgets', () => {
  it("session({ budget }) and resumeSession(id, { budget }) override the agent's limits; a bad one throws", async () => {
    const step = tool({ name: 'step', description: 's', inputSchema: z.object({}) }, () => 'ran');
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'step', args: {}, id: 's1' } }], usage(900, 50)),
      modelTurn([{ text: 'finished' }], usage(950, 5)),
    ]);
    const options: GeminiCliAgentOptions = {
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [step],
      budget: { maxTotalTokens: 1_000_000 },
    };
    const agent = new GeminiCliAgent(options);
    expect(() => agent.session({ budget: { maxCostUsd: -1 } })).toThrow(ConfigurationError);
    const session = agent.session({ budget: { maxTotalTokens: 1000 } });
    const events = await drain(session.sendStream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'budget_exceeded', value: { limit: 1000 } });
    await session.close();
    const other = new GeminiCliAgent(options);
    await expect(
      other.resumeSession(session.id, { budget: { maxTotalTokens: 0 } }),
    ).rejects.toThrow(ConfigurationError);
    const resumed = await other.resumeSession(session.id, { budget: { maxTotalTokens: 5000 } });
    const rest = await drain(resumed.resumeTurn());
    expect(rest.some((e) => e.type === 'content' && e.value === 'finished')).toBe(true);
    expect(resumed.budget?.limits.maxTotalTokens).toBe(5000);
    await resumed.close();
  });
});
