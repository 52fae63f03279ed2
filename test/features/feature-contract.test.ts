import { FinishReason, type Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  tool,
  z,
  type Feature,
  type ModelChunk,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The function responses the model got in its last request. */
function lastResponses(contents: unknown): unknown[] {
  const last = (contents as Content[]).at(-1);
  return (last?.parts ?? []).map((p) => p.functionResponse?.response);
}

describe('a feature added from outside through the public API', () => {
  it('its tool, section, model interceptor and tool interceptor take effect; its dispose runs on close', async () => {
    const log: string[] = [];
    const clock = tool(
      { name: 'clock', description: 'The time', inputSchema: z.object({ zone: z.string() }) },
      ({ zone }) => `12:00 ${zone}`,
    );
    const feature: Feature = {
      name: 'clock',
      tools: [clock],
      systemSection: 'Use the clock tool for the time.',
      policy: [
        {
          origin: { tier: 'default', source: 'clock feature' },
          rules: [{ toolName: 'clock', decision: 'allow' }],
        },
      ],
      async interceptModel(call, next) {
        log.push(`model call ${call.turn}`);
        const config = { ...call.request.config, temperature: 0.25 };
        return next({ ...call, request: { ...call.request, config } });
      },
      async interceptTool(run, next) {
        const result = await next();
        return { ...result, llmContent: `${String(result.llmContent)} (checked)` };
      },
      initialize(session) {
        log.push(`init ${session.sessionId} resumed=${session.resumed}`);
        return () => {
          log.push(`dispose ${session.sessionId}`);
        };
      },
      dispose() {
        log.push('agent dispose');
      },
    };
    const model = new ScriptedModel([
      callTurn({ name: 'clock', args: { zone: 'UTC' } }),
      (request) => {
        expect(lastResponses(request.contents)).toEqual([{ output: '12:00 UTC (checked)' }]);
        return textTurn('It is noon.');
      },
    ]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      systemPrompt: 'none',
      instructions: 'Be brief.',
      features: [feature],
    });
    const session = agent.session({ sessionId: 'feature-session' });
    const events = await drain(session.sendStream('What time is it?'));

    expect(events.find((e) => e.type === 'tool_call_response')?.value).toMatchObject({
      name: 'clock',
      resultDisplay: '12:00 UTC',
    });
    expect(events.at(-1)?.type).toBe('finished');
    const [first, second] = model.generateRequests;
    expect(first?.config?.tools?.[0]).toMatchObject({
      functionDeclarations: [expect.objectContaining({ name: 'clock' })],
    });
    expect(first?.config?.systemInstruction).toBe('Use the clock tool for the time.\n\nBe brief.');
    expect(first?.config?.temperature).toBe(0.25);
    expect(second?.config?.temperature).toBe(0.25);
    expect(log).toEqual(['init feature-session resumed=false', 'model call 1', 'model call 2']);

    await session.close();
    expect(log.at(-1)).toBe('dispose feature-session');
    await agent.close();
    expect(log.at(-1)).toBe('agent dispose');
    expect(() => agent.session()).toThrow(expect.objectContaining({ code: 'AGENT_CLOSED' }));
    model.assertComplete();
  });

  it('composes interceptors in feature order, the first outermost, around every seam', async () => {
    const order: string[] = [];
    const tracer = (name: string): Feature => ({
      name,
      async *interceptTurn(turn, next) {
        order.push(`${name} turn in`);
        yield* next();
        order.push(`${name} turn out`);
      },
      async interceptModel(call, next) {
        order.push(`${name} model in`);
        const stream = await next();
        order.push(`${name} model out`);
        return stream;
      },
      async interceptToolDecision(check, next) {
        order.push(`${name} decide in`);
        const decision = await next();
        order.push(`${name} decide out`);
        return decision;
      },
      async interceptTool(run, next) {
        order.push(`${name} tool in`);
        const result = await next();
        order.push(`${name} tool out`);
        return result;
      },
    });
    const echo = tool(
      { name: 'echo', description: 'e', inputSchema: z.object({ s: z.string() }) },
      ({ s }) => {
        order.push('tool runs');
        return s;
      },
    );
    const model = new ScriptedModel([callTurn({ name: 'echo', args: { s: 'x' } }), textTurn('ok')]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      tools: [echo],
      features: [tracer('A'), tracer('B')],
    });
    await drain(agent.session().sendStream('go'));
    expect(order).toEqual([
      'A turn in',
      'B turn in',
      'A model in',
      'B model in',
      'B model out',
      'A model out',
      'A decide in',
      'B decide in',
      'B decide out',
      'A decide out',
      'A tool in',
      'B tool in',
      'tool runs',
      'B tool out',
      'A tool out',
      'A model in',
      'B model in',
      'B model out',
      'A model out',
      'B turn out',
      'A turn out',
    ]);
  });

  it('a model interceptor can answer without calling the model, and replace the chunks it streams', async () => {
    const model = new ScriptedModel([textTurn('from the model')]);
    const synthetic: Feature = {
      name: 'cache',
      async interceptModel(call) {
        async function* chunks(): AsyncGenerator<ModelChunk> {
          yield {
            candidates: [
              {
                content: { role: 'model', parts: [{ text: 'cached' }] },
                finishReason: FinishReason.STOP,
              },
            ],
          };
        }
        return call.turn === 1 ? chunks() : { [Symbol.asyncIterator]: () => chunks() };
      },
    };
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      features: [synthetic],
    });
    const session = agent.session();
    const result = await session.send('hello');
    expect(result.text).toBe('cached');
    expect(model.generateRequests).toHaveLength(0);
    expect(session.getHistory().at(-1)).toEqual({ role: 'model', parts: [{ text: 'cached' }] });

    const upper: Feature = {
      name: 'upper',
      async interceptModel(_call, next) {
        const stream = await next();
        return (async function* () {
          for await (const chunk of stream) {
            const parts = chunk.candidates?.[0]?.content?.parts ?? [];
            yield {
              ...chunk,
              candidates: [
                {
                  ...chunk.candidates?.[0],
                  content: {
                    role: 'model',
                    parts: parts.map((p) => ({ text: p.text?.toUpperCase() })),
                  },
                },
              ],
            };
          }
        })();
      },
    };
    const other = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      features: [upper],
    });
    expect((await other.session().send('hi')).text).toBe('FROM THE MODEL');
  });
});
