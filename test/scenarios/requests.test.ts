import type { Content, GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z, type ServerGeminiStreamEvent } from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from './history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const add = tool(
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: z.object({ a: z.number().describe('first'), b: z.number().describe('second') }),
  },
  ({ a, b }) => ({ sum: a + b }),
);

function agentWith(
  model: ScriptedModel,
  extra: ConstructorParameters<typeof GeminiCliAgent>[0] = {},
) {
  return new GeminiCliAgent({
    sessionContext: false,
    builtinTools: false,
    contentGenerator: model,
    retry: false,
    ...extra,
  });
}

describe('what the model receives', () => {
  it('by default, static instructions sit verbatim in the GEMINI.md slot after the core preamble', async () => {
    const instructions = 'You are a pirate.\n\nRespond   in <pirate> speak.';
    const model = new ScriptedModel([textTurn('Ahoy')]);
    await drain(agentWith(model, { instructions }).session().sendStream('Say hello.'));
    const system = String(model.generateRequests[0]?.config?.systemInstruction);
    expect(system.startsWith('You are an autonomous agent')).toBe(true);
    expect(system).toContain('# Using tools');
    expect(system.indexOf('# Using tools')).toBeLessThan(
      system.indexOf('# Contextual Instructions'),
    );
    expect(system).toContain('\n\n# Contextual Instructions (GEMINI.md)\n');
    expect(system.endsWith(`\n\n<loaded_context>\n${instructions}\n</loaded_context>`)).toBe(true);

    const bare = new ScriptedModel([textTurn('Hi')]);
    await drain(agentWith(bare).session().sendStream('Say hello.'));
    const preambleOnly = String(bare.generateRequests[0]?.config?.systemInstruction);
    expect(preambleOnly.startsWith('You are an autonomous agent')).toBe(true);
    expect(preambleOnly).not.toContain('loaded_context');
    expect(bare.generateRequests[0]?.config).not.toHaveProperty('tools');
  });

  it("systemPrompt: 'none' sends the instructions alone; nothing at all means no systemInstruction", async () => {
    const instructions = 'You are a pirate.\n\nRespond   in <pirate> speak.';
    const model = new ScriptedModel([textTurn('Ahoy')]);
    await drain(
      agentWith(model, { instructions, systemPrompt: 'none' }).session().sendStream('Say hello.'),
    );
    expect(model.generateRequests[0]?.config?.systemInstruction).toBe(instructions);

    const bare = new ScriptedModel([textTurn('Hi')]);
    await drain(agentWith(bare, { systemPrompt: 'none' }).session().sendStream('Say hello.'));
    expect(bare.generateRequests[0]?.config).not.toHaveProperty('systemInstruction');
  });

  it('a custom systemPrompt replaces the preamble; the instructions keep their slot', async () => {
    const model = new ScriptedModel([textTurn('Ahoy')]);
    const agent = agentWith(model, {
      systemPrompt: 'You are the release bot of ACME.',
      instructions: 'Only talk about releases.',
    });
    await drain(agent.session().sendStream('Say hello.'));
    const system = String(model.generateRequests[0]?.config?.systemInstruction);
    expect(system.startsWith('You are the release bot of ACME.\n\n# Contextual Instructions')).toBe(
      true,
    );
    expect(system).not.toContain('autonomous agent');
    expect(system.endsWith('<loaded_context>\nOnly talk about releases.\n</loaded_context>')).toBe(
      true,
    );
    expect(() => agentWith(model, { systemPrompt: 42 as never }).session()).toThrow(
      /systemPrompt option must be 'default', 'none' or your own prompt text/,
    );
  });

  it('dynamic instructions are recomputed, with a fresh context, before every model call of a tool loop', async () => {
    const transcriptLengths: number[] = [];
    let n = 0;
    const model = new ScriptedModel([
      callTurn({ name: 'add', args: { a: 1, b: 2 } }),
      callTurn({ name: 'add', args: { a: 3, b: 4 } }),
      textTurn('done'),
    ]);
    const agent = agentWith(model, {
      tools: [add],
      instructions: async (ctx) => {
        transcriptLengths.push(ctx.transcript.length);
        return `call ${++n}`;
      },
    });
    await drain(agent.session().sendStream('go'));
    const system = model.generateRequests.map((r) => r.config?.systemInstruction);
    expect(
      system.map((text) => String(text).match(/<loaded_context>\n(.*)\n<\/loaded_context>$/)?.[1]),
    ).toEqual(['call 1', 'call 2', 'call 3']);
    expect(transcriptLengths).toEqual([1, 3, 5]);
  });

  it('declarations carry name, description and the JSON Schema (no $schema)', async () => {
    const model = new ScriptedModel([textTurn('ok')]);
    await drain(
      agentWith(model, { tools: [add] })
        .session()
        .sendStream('hi'),
    );
    expect(model.generateRequests[0]?.config?.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'add',
            description: 'Adds two numbers',
            parametersJsonSchema: {
              type: 'object',
              properties: {
                a: { type: 'number', description: 'first' },
                b: { type: 'number', description: 'second' },
              },
              required: ['a', 'b'],
            },
          },
        ],
      },
    ]);
  });

  it('the request after a tool call carries the functionResponse; ids are prefixed locally, raw on the wire', async () => {
    const model = new ScriptedModel([
      callTurn(
        { name: 'add', args: { a: 2, b: 3 }, id: 'abc' },
        { name: 'add', args: { a: 1, b: 1 } },
      ),
      textTurn('5 and 2'),
    ]);
    const events = await drain(
      agentWith(model, { tools: [add] })
        .session()
        .sendStream('add'),
    );
    const requests = events.flatMap((e) => (e.type === 'tool_call_request' ? [e.value] : []));
    expect(requests[0]?.callId).toBe('add__abc');
    expect(requests[1]?.callId).toMatch(/^add__add_\d+_1$/);
    const contents = model.generateRequests[1]?.contents as GenerateContentParameters['contents'];
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'add' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'add', args: { a: 2, b: 3 }, id: 'abc' },
            thoughtSignature: 'skip_thought_signature_validator',
          },
          { functionCall: { name: 'add', args: { a: 1, b: 1 }, id: requests[1]?.callId.slice(5) } },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: { id: 'abc', name: 'add', response: { output: '{\n  "sum": 5\n}' } },
          },
          {
            functionResponse: {
              id: requests[1]?.callId.slice(5),
              name: 'add',
              response: { output: '{\n  "sum": 2\n}' },
            },
          },
        ],
      },
    ]);
    expectValidContents(contents as never);
  });

  it('three slow tool calls of one turn run in parallel and answer in call order', async () => {
    const spans: Record<string, { start: number; end: number }> = {};
    const slow = tool(
      {
        name: 'slow',
        description: 'waits',
        inputSchema: z.object({ id: z.string(), ms: z.number() }),
      },
      async ({ id, ms }) => {
        const start = performance.now();
        await new Promise((r) => setTimeout(r, ms));
        spans[id] = { start, end: performance.now() };
        return id;
      },
    );
    const model = new ScriptedModel([
      callTurn(
        { name: 'slow', args: { id: 'a', ms: 300 } },
        { name: 'slow', args: { id: 'b', ms: 200 } },
        { name: 'slow', args: { id: 'c', ms: 300 } },
      ),
      textTurn('all done'),
    ]);
    const events = await drain(
      agentWith(model, { tools: [slow] })
        .session()
        .sendStream('go'),
    );
    const all = Object.values(spans);
    expect(all).toHaveLength(3);
    expect(Math.max(...all.map((s) => s.start))).toBeLessThan(Math.min(...all.map((s) => s.end)));
    const outputs = events.flatMap((e) =>
      e.type === 'tool_call_response'
        ? [(e.value.responseParts[0]?.functionResponse?.response as { output: string }).output]
        : [],
    );
    expect(outputs).toEqual(['a', 'b', 'c']);
  });
});

describe('events', () => {
  it('orders a chunk as thought, content, tool_call_request, finished; parses the thought subject', async () => {
    const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    const model = new ScriptedModel([
      modelTurn(
        [
          { text: '**Planning** how to add', thought: true },
          { text: 'Let me compute.' },
          { functionCall: { name: 'add', args: { a: 1, b: 2 } } },
        ],
        usageMetadata,
      ),
      modelTurn([{ text: 'It is 3.' }], {
        promptTokenCount: 20,
        candidatesTokenCount: 2,
        totalTokenCount: 22,
      }),
    ]);
    const session = agentWith(model, { tools: [add], model: 'gemini-test' }).session();
    const events = await drain(session.sendStream('1+2?'));
    expect(events.map((e) => e.type)).toEqual([
      'model_info',
      'thought',
      'content',
      'tool_call_request',
      'finished',
      'tool_call_response',
      'content',
      'finished',
    ]);
    expect(events[0]).toEqual({ type: 'model_info', value: 'gemini-test' });
    expect(events[1]).toEqual({
      type: 'thought',
      value: { subject: 'Planning', description: 'how to add' },
    });
    expect(events[4]).toEqual({ type: 'finished', value: { reason: 'STOP', usageMetadata } });
    // Thoughts never go back to the model.
    expect(JSON.stringify(model.generateRequests[1]?.contents)).not.toContain('Planning');
    expect(session.usage).toMatchObject({
      modelCalls: 2,
      promptTokenCount: 30,
      totalTokenCount: 37,
    });

    // model_info once per session; send() sums this call's usage only.
    model.push(modelTurn([{ text: 'bye' }], { promptTokenCount: 40, totalTokenCount: 41 }));
    const result = await session.send('bye');
    expect(result.text).toBe('bye');
    expect(result.events.map((e) => e.type)).toEqual(['content', 'finished']);
    expect(result.usage).toMatchObject({
      modelCalls: 1,
      promptTokenCount: 40,
      totalTokenCount: 41,
    });
    expect(session.usage).toMatchObject({
      modelCalls: 3,
      promptTokenCount: 70,
      totalTokenCount: 78,
    });
    model.assertComplete();
  });

  it('accepts Part[] prompts', async () => {
    const model = new ScriptedModel([textTurn('ok')]);
    await drain(
      agentWith(model)
        .session()
        .sendStream([{ text: 'a' }, { text: 'b' }]),
    );
    expect(model.generateRequests[0]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
    ]);
  });

  it('merges streamed text into one model part in history', async () => {
    const chunk = (text: string, finish?: string) =>
      ({
        candidates: [
          {
            content: { role: 'model', parts: [{ text }] },
            ...(finish ? { finishReason: finish } : {}),
          },
        ],
      }) as unknown as GenerateContentResponse;
    const model = new ScriptedModel([
      [chunk('Hel'), chunk('lo'), chunk('', 'STOP')],
      textTurn('again'),
    ]);
    const session = agentWith(model).session();
    const events = await drain(session.sendStream('hi'));
    expect(events.filter((e) => e.type === 'content').map((e) => e.value)).toEqual(['Hel', 'lo']);
    await drain(session.sendStream('more'));
    expect((model.generateRequests[1]?.contents as Content[])[1]).toEqual({
      role: 'model',
      parts: [{ text: 'Hello' }],
    });
  });
});
