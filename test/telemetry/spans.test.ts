import { describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import {
  GeminiCliAgent,
  ModelVisibleError,
  tool,
  z,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

function tracing(): { provider: TracerProvider; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { provider, exporter };
}

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const byName = (spans: ReadableSpan[], name: string): ReadableSpan[] =>
  spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const found = byName(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

const usage = (input: number, output: number) => ({
  promptTokenCount: input,
  candidatesTokenCount: output,
  thoughtsTokenCount: 3,
  totalTokenCount: input + output + 3,
});

const wordCount = tool(
  { name: 'word_count', description: 'Counts words', inputSchema: z.object({ text: z.string() }) },
  ({ text }) => String(text.split(/\s+/).length),
);
const broken = tool(
  { name: 'broken', description: 'Always fails', inputSchema: z.object({}) },
  () => {
    throw new ModelVisibleError('disk on fire');
  },
);

describe('OpenTelemetry spans (in-memory exporter)', () => {
  it('a turn with a tool call: invoke_agent > chat, execute_tool, chat, with GenAI attributes and no content', async () => {
    const { provider, exporter } = tracing();
    const model = new ScriptedModel([
      [
        ...callTurn({ name: 'word_count', args: { text: 'secret words here' }, id: 'c1' }).map(
          (c) => ({
            ...c,
            usageMetadata: usage(100, 7),
            modelVersion: 'gemini-2.5-flash-001',
            responseId: 'resp-1',
          }),
        ),
      ] as never,
      modelTurn([{ text: 'Three SECRET-ANSWER words.' }], usage(130, 5)),
    ]);
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      model: 'gemini-2.5-flash',
      builtinTools: false,
      persist: false,
      tools: [wordCount],
      telemetry: { tracerProvider: provider },
    });
    const session = agent.session({ sessionId: 'otel-1' });
    await drain(session.sendStream('count: secret words here'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();

    const turn = one(spans, 'invoke_agent gemini-agent');
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'gemini-agent',
      'gen_ai.conversation.id': 'otel-1',
      'gen_ai.usage.input_tokens': 230,
      'gen_ai.usage.output_tokens': 12,
      'gemini_agent.turn.model_calls': 2,
      'gemini_agent.turn.tool_calls': 1,
    });
    expect(parentOf(turn)).toBeUndefined();

    const chats = byName(spans, 'chat gemini-2.5-flash');
    expect(chats).toHaveLength(2);
    const [first, second] = chats as [ReadableSpan, ReadableSpan];
    expect(first.kind).toBe(2); // SpanKind.CLIENT
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'gcp.gemini',
      'gen_ai.request.model': 'gemini-2.5-flash',
      'gen_ai.response.model': 'gemini-2.5-flash-001',
      'gen_ai.response.id': 'resp-1',
      'gen_ai.response.finish_reasons': ['STOP'],
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 7,
      'gemini_agent.usage.thoughts_tokens': 3,
      'gemini_agent.model.turn': 1,
      'gemini_agent.model.attempt': 1,
    });
    expect(second.attributes['gemini_agent.model.turn']).toBe(2);
    for (const chat of chats) expect(parentOf(chat)).toBe(turn.spanContext().spanId);

    const call = one(spans, 'execute_tool word_count');
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'word_count',
      'gen_ai.tool.call.id': 'word_count__c1',
      'gen_ai.tool.type': 'function',
      'gemini_agent.tool.decision': 'auto_accept',
      'gemini_agent.tool.decided_by': 'policy',
    });
    expect(call.status.code).not.toBe(2);
    expect(parentOf(call)).toBe(turn.spanContext().spanId);
    // One trace; the tool ran between the two model calls.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(call.startTime[0] * 1e9 + call.startTime[1]).toBeGreaterThanOrEqual(
      first.endTime[0] * 1e9 + first.endTime[1],
    );

    // Content is opt-in: nothing the user or the model wrote is on any span.
    const everything = JSON.stringify(spans.map((s) => s.attributes));
    expect(everything).not.toContain('secret');
    expect(everything).not.toContain('SECRET-ANSWER');
    expect(everything).not.toContain('gen_ai.input.messages');
  });

  it('logPrompts puts prompts, responses, system instructions, arguments and results on the spans', async () => {
    const { provider, exporter } = tracing();
    const model = new ScriptedModel([
      callTurn({ name: 'word_count', args: { text: 'alpha beta' }, id: 'c2' }),
      textTurn('Two words.'),
    ]);
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      tools: [wordCount],
      instructions: 'Count with care.',
      telemetry: { tracerProvider: provider, logPrompts: true, agentName: 'counter' },
    });
    await drain(agent.session({ sessionId: 'otel-2' }).sendStream('count alpha beta'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const turn = one(spans, 'invoke_agent counter');
    expect(String(turn.attributes['gen_ai.input.messages'])).toContain('count alpha beta');
    expect(String(turn.attributes['gen_ai.output.messages'])).toContain('Two words.');
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(String(chats[0]?.attributes['gen_ai.system_instructions'])).toContain(
      'Count with care.',
    );
    expect(String(chats[0]?.attributes['gen_ai.output.messages'])).toContain('word_count');
    expect(String(chats[1]?.attributes['gen_ai.output.messages'])).toContain('Two words.');
    const call = one(spans, 'execute_tool word_count');
    expect(JSON.parse(String(call.attributes['gen_ai.tool.call.arguments']))).toEqual({
      text: 'alpha beta',
    });
    expect(String(call.attributes['gen_ai.tool.call.result'])).toContain('2');
  });

  it('a failing tool, a denied call and an approval: error.type, decision, who decided and the wait', async () => {
    const { provider, exporter } = tracing();
    const model = new ScriptedModel([
      callTurn(
        { name: 'broken', args: {}, id: 'b1' },
        { name: 'word_count', args: { text: 'a b' }, id: 'w1' },
        { name: 'word_count', args: { text: 'c d' }, id: 'w2' },
        { name: 'no_such_tool', args: {}, id: 'n1' },
      ),
      textTurn('done'),
    ]);
    let asked = 0;
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      features: [
        {
          name: 'tools',
          tools: [broken, wordCount],
          policy: [
            {
              origin: { tier: 'default', source: 'test' },
              rules: [{ toolName: 'broken', decision: 'allow' }],
            },
          ],
        },
      ],
      onApproval: async (request) => {
        asked += 1;
        await new Promise((r) => setTimeout(r, 30));
        return request.args['text'] === 'a b' ? 'allow' : 'deny';
      },
      telemetry: { tracerProvider: provider },
    });
    await drain(agent.session({ sessionId: 'otel-3' }).sendStream('go'));
    expect(asked).toBe(2);
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const failed = one(spans, 'execute_tool broken');
    expect(failed.status.code).toBe(2); // ERROR
    expect(failed.attributes['error.type']).toBe('execution_failed');
    expect(failed.attributes['gemini_agent.tool.decision']).toBe('auto_accept');

    const counts = byName(spans, 'execute_tool word_count');
    const approved = counts.find((s) => s.attributes['gen_ai.tool.call.id'] === 'word_count__w1');
    const rejected = counts.find((s) => s.attributes['gen_ai.tool.call.id'] === 'word_count__w2');
    expect(approved?.attributes).toMatchObject({
      'gemini_agent.tool.decision': 'accept',
      'gemini_agent.tool.decided_by': 'user',
    });
    expect(
      Number(approved?.attributes['gemini_agent.tool.approval_wait_ms']),
    ).toBeGreaterThanOrEqual(20);
    expect(approved?.status.code).not.toBe(2);
    expect(rejected?.attributes).toMatchObject({
      'gemini_agent.tool.decision': 'reject',
      'gemini_agent.tool.decided_by': 'user',
    });
    expect(rejected?.status.code).toBe(2);

    const unknown = one(spans, 'execute_tool no_such_tool');
    expect(unknown.attributes['error.type']).toBe('tool_not_registered');
    const turn = one(spans, 'invoke_agent gemini-agent');
    for (const s of [failed, approved, rejected, unknown]) {
      expect(s && parentOf(s)).toBe(turn.spanContext().spanId);
    }
  });

  it('a model call that fails marks its chat span and the turn span as errors', async () => {
    const { provider, exporter } = tracing();
    const model = new ScriptedModel([]); // throws on the first request
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      retry: false,
      telemetry: { tracerProvider: provider },
    });
    await expect(drain(agent.session().sendStream('hi'))).rejects.toThrow();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((s) => s.name.startsWith('chat '));
    expect(chat?.status.code).toBe(2);
    expect(one(spans, 'invoke_agent gemini-agent').status.code).toBe(2);
  });

  it('a tool that runs another agent: the inner turn is a child of the outer execute_tool span', async () => {
    const { provider, exporter } = tracing();
    const inner = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([textTurn('inner answer')]),
      builtinTools: false,
      persist: false,
      telemetry: { tracerProvider: provider, agentName: 'helper' },
    });
    const delegate = tool(
      {
        name: 'delegate',
        description: 'Asks the helper',
        inputSchema: z.object({ q: z.string() }),
      },
      async ({ q }) => {
        let text = '';
        for await (const e of inner.session().sendStream(q))
          if (e.type === 'content') text += e.value;
        return text;
      },
    );
    await using outer = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'delegate', args: { q: 'x' } }),
        textTurn('ok'),
      ]),
      builtinTools: false,
      persist: false,
      tools: [delegate],
      telemetry: { tracerProvider: provider },
    });
    await drain(outer.session().sendStream('go'));
    await inner.close();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const call = one(spans, 'execute_tool delegate');
    const helper = one(spans, 'invoke_agent helper');
    expect(parentOf(helper)).toBe(call.spanContext().spanId);
    expect(helper.spanContext().traceId).toBe(call.spanContext().traceId);
    const innerChat = spans.find(
      (s) => s.name.startsWith('chat ') && parentOf(s) === helper.spanContext().spanId,
    );
    expect(innerChat).toBeDefined();
  });

  it('on the no-op global provider a turn makes no spans; a provider registered later records the next turn', async () => {
    const { provider, exporter } = tracing();
    const model = new ScriptedModel([
      callTurn({ name: 'word_count', args: { text: 'a b' } }),
      textTurn('two'),
      callTurn({ name: 'word_count', args: { text: 'a b c' } }),
      textTurn('three'),
    ]);
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      tools: [wordCount],
      builtinTools: false,
      persist: false,
      telemetry: {},
    });
    const session = agent.session();
    const first = await drain(session.sendStream('count a b'));
    expect(first.filter((e) => e.type === 'tool_call_response')).toHaveLength(1);
    expect(first.some((e) => e.type === 'error')).toBe(false);
    trace.setGlobalTracerProvider(provider);
    try {
      await drain(session.sendStream('count a b c'));
      await provider.forceFlush();
      const spans = exporter.getFinishedSpans();
      const turn = one(spans, 'invoke_agent gemini-agent');
      expect(byName(spans, 'execute_tool word_count').map(parentOf)).toEqual([
        turn.spanContext().spanId,
      ]);
      expect(spans.filter((s) => s.name.startsWith('chat ')).map(parentOf)).toEqual([
        turn.spanContext().spanId,
        turn.spanContext().spanId,
      ]);
    } finally {
      trace.disable();
    }
    model.assertComplete();
  });

  it('enabled: false adds no feature; a bad option is a ConfigurationError naming the key', async () => {
    const { provider, exporter } = tracing();
    await using agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([textTurn('hi')]),
      builtinTools: false,
      persist: false,
      telemetry: { enabled: false, tracerProvider: provider },
    });
    await drain(agent.session().sendStream('hi'));
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(
      () =>
        new GeminiCliAgent({
          contentGenerator: new ScriptedModel([]),
          telemetry: { tracerProvider: {} as never },
        }),
    ).toThrow(/telemetry\.tracerProvider.*getTracer/);
    expect(
      () =>
        new GeminiCliAgent({
          contentGenerator: new ScriptedModel([]),
          telemetry: { logPrompt: true } as never,
        }),
    ).toThrow(/telemetry/);
  });
});
