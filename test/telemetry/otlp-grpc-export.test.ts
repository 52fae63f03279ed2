/**
 * OTLP/gRPC end to end: `startTelemetry({ otlpProtocol: 'grpc' })` (gemini-cli's default protocol) exports with the
 * official `@opentelemetry/exporter-trace-otlp-grpc` to a real gRPC collector on 127.0.0.1 (`@grpc/grpc-js`,
 * requests decoded from protobuf against the OTLP schema); the decoded spans are checked field by field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiAgentError, GeminiCliAgent, startTelemetry, tool, z } from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn } from '../../src/testing/index.js';
import { OtlpGrpcReceiver, attributesOf, plain, type DecodedSpan } from './otlp-grpc-receiver.js';

const echo = tool(
  { name: 'echo', description: 'Echoes', inputSchema: z.object({ text: z.string() }) },
  ({ text }) => text,
);

describe('exporting spans over OTLP/gRPC to a real collector', () => {
  const receiver = new OtlpGrpcReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('the collector decodes the turn, both model calls and the approved tool call, nested and attributed', async () => {
    const exported = await startTelemetry({
      otlpEndpoint: `${receiver.url}/ignored/path`,
      otlpProtocol: 'grpc',
      outfile: undefined,
      resource: { 'session.id': 'grpc-1' },
    });
    expect(exported.destination).toBe(`OTLP/gRPC ${receiver.url}`);
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'echo', args: { text: 'hi' }, id: 'e1' }),
        modelTurn([{ text: 'done' }], {
          promptTokenCount: 42,
          candidatesTokenCount: 2,
          totalTokenCount: 44,
        }),
      ]),
      model: 'gemini-2.5-pro',
      builtinTools: false,
      persist: false,
      features: [{ name: 'more', tools: [echo] }],
      onApproval: async () => 'allow',
      telemetry: { tracerProvider: exported.tracerProvider },
    });
    for await (const _ of agent.session({ sessionId: 'grpc-1' }).sendStream('say hi')) void _;
    await agent.close();
    await exported.shutdown();

    expect(receiver.traces.length).toBeGreaterThan(0);
    // The official exporter's gRPC metadata: its user agent names the OpenTelemetry JS exporter.
    expect(String(receiver.metadata[0]?.get('user-agent')[0])).toContain(
      'OTel-OTLP-Exporter-JavaScript',
    );
    const decoded = receiver.spans();
    for (const { resource, scope } of decoded) {
      expect(resource['service.name']).toBe('gemini-agent');
      expect(resource['session.id']).toBe('grpc-1');
      expect(typeof resource['service.version']).toBe('string');
      expect(scope).toBe('gemini-agent-sdk');
    }
    const spans: DecodedSpan[] = decoded.map((d) => d.span);
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gemini-2.5-pro',
      'chat gemini-2.5-pro',
      'execute_tool echo',
      'invoke_agent gemini-agent',
    ]);
    const turn = spans.find((s) => s.name.startsWith('invoke_agent')) as DecodedSpan;
    expect(turn.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(turn.parentSpanId).toBe('');
    expect(turn.kind).toBe('SPAN_KIND_INTERNAL');
    for (const s of spans) {
      expect(s.traceId).toBe(turn.traceId);
      if (s !== turn) expect(s.parentSpanId).toBe(turn.spanId);
      expect(BigInt(s.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(s.startTimeUnixNano));
    }
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    for (const chat of chats) expect(chat.kind).toBe('SPAN_KIND_CLIENT');
    const last = chats
      .map((c) => attributesOf(c.attributes))
      .find((a) => a['gen_ai.usage.input_tokens'] === 42);
    expect(last).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.request.model': 'gemini-2.5-pro',
      'gen_ai.response.finish_reasons': ['STOP'],
    });
    const call = spans.find((s) => s.name === 'execute_tool echo') as DecodedSpan;
    expect(attributesOf(call.attributes)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'gen_ai.tool.call.id': 'echo__e1',
      'gemini_agent.tool.decision': 'accept',
      'gemini_agent.tool.decided_by': 'user',
    });
    expect(typeof attributesOf(call.attributes)['gemini_agent.tool.approval_wait_ms']).toBe(
      'number',
    );
    expect(call.status?.code ?? 'STATUS_CODE_UNSET').toBe('STATUS_CODE_UNSET');
    expect(attributesOf(turn.attributes)).toMatchObject({
      'gen_ai.conversation.id': 'grpc-1',
      'gen_ai.usage.output_tokens': 2,
      'gemini_agent.turn.model_calls': 2,
      'gemini_agent.turn.tool_calls': 1,
    });
  });

  it('a collector that is down: the turn is unaffected; shutdown rejects with a typed error naming the destination', async () => {
    const down = new OtlpGrpcReceiver();
    await down.start();
    const url = down.url;
    await down.stop();
    const exported = await startTelemetry({
      otlpEndpoint: url,
      otlpProtocol: 'grpc',
      outfile: undefined,
    });
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([modelTurn([{ text: 'ok' }])]),
      builtinTools: false,
      persist: false,
      telemetry: { tracerProvider: exported.tracerProvider },
    });
    const events: string[] = [];
    for await (const event of agent.session().sendStream('x')) events.push(event.type);
    await agent.close();
    expect(events).toContain('finished');
    const error = await exported.shutdown().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeminiAgentError);
    expect(error).toMatchObject({ code: 'TELEMETRY_EXPORT_FAILED' });
    expect((error as Error).message).toContain(`Could not export telemetry to OTLP/gRPC ${url}`);
    expect((error as Error).message).toContain('UNAVAILABLE');
  });
});

describe("gemini-cli's metrics and log records over OTLP/gRPC", () => {
  const receiver = new OtlpGrpcReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('startTelemetry exports gemini_cli.* metrics and log records the collector decodes', async () => {
    const exported = await startTelemetry({
      otlpEndpoint: receiver.url,
      otlpProtocol: 'grpc',
      outfile: undefined,
    });
    expect(exported.signals).toEqual(['traces', 'metrics', 'logs']);
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'echo', args: { text: 'hi' }, id: 'e1' }),
        modelTurn([{ text: 'done' }], {
          promptTokenCount: 42,
          candidatesTokenCount: 2,
          totalTokenCount: 44,
        }),
      ]),
      model: 'gemini-2.5-pro',
      builtinTools: false,
      persist: false,
      features: [{ name: 'more', tools: [echo] }],
      onApproval: async () => 'allow',
      telemetry: {
        tracerProvider: exported.tracerProvider,
        meterProvider: exported.meterProvider,
        loggerProvider: exported.loggerProvider,
      },
    });
    for await (const _ of agent.session({ sessionId: 'signals-1' }).sendStream('say hi')) void _;
    await agent.close();
    await exported.shutdown();

    const metrics = new Map(receiver.metricList().map((m) => [m.metric.name, m]));
    for (const { scope, resource } of metrics.values()) {
      expect(scope).toBe('gemini-cli');
      expect(resource['service.name']).toBe('gemini-agent');
    }
    const points = (name: string) =>
      (metrics.get(name)?.metric.sum?.dataPoints ?? []).map((p) => ({
        ...attributesOf(p.attributes),
        value: Number(p.asInt ?? p.asDouble),
      }));
    expect(points('gemini_cli.session.count')).toEqual([{ 'session.id': 'signals-1', value: 1 }]);
    expect(points('gemini_cli.api.request.count')).toEqual([
      { 'session.id': 'signals-1', model: 'gemini-2.5-pro', status_code: 'ok', value: 2 },
    ]);
    expect(points('gemini_cli.tool.call.count')).toEqual([
      {
        'session.id': 'signals-1',
        function_name: 'echo',
        success: true,
        decision: 'accept',
        tool_type: 'native',
        value: 1,
      },
    ]);
    expect(points('gemini_cli.token.usage')).toEqual(
      expect.arrayContaining([
        { 'session.id': 'signals-1', model: 'gemini-2.5-pro', type: 'input', value: 42 },
        { 'session.id': 'signals-1', model: 'gemini-2.5-pro', type: 'output', value: 2 },
      ]),
    );
    const latency = metrics.get('gemini_cli.api.request.latency')?.metric;
    expect(latency?.unit).toBe('ms');
    expect(Number(latency?.histogram?.dataPoints[0]?.count)).toBe(2);
    expect(metrics.get('gemini_cli.tool.call.latency')?.metric.histogram?.dataPoints).toHaveLength(
      1,
    );
    expect(metrics.has('gen_ai.client.operation.duration')).toBe(true);

    const records = receiver.logRecords().map((r) => ({
      event: r.record.eventName,
      body: plain(r.record.body),
      attributes: attributesOf(r.record.attributes),
      scope: r.scope,
    }));
    expect(records.map((r) => r.event)).toEqual([
      'gemini_cli.user_prompt',
      'gemini_cli.api_request',
      'gemini_cli.api_response',
      'gemini_cli.tool_call',
      'gemini_cli.api_request',
      'gemini_cli.api_response',
    ]);
    for (const r of records) {
      expect(r.scope).toBe('gemini-cli');
      expect(r.attributes['event.name']).toBe(r.event);
      expect(r.attributes['session.id']).toBe('signals-1');
    }
    expect(records[0]?.attributes).toMatchObject({
      prompt_length: 6,
      prompt_id: 'signals-1########1',
    });
    // Content is opt-in: no prompt text, no arguments, no response text without logPrompts.
    expect(records[0]?.attributes['prompt']).toBeUndefined();
    expect(records[3]?.attributes['function_args']).toBeUndefined();
    expect(records[3]?.body).toMatch(
      /^Tool call: echo\. Decision: accept\. Success: true\. Duration: \d+ms\.$/,
    );
    expect(records[5]?.attributes).toMatchObject({
      model: 'gemini-2.5-pro',
      input_token_count: 42,
      output_token_count: 2,
      total_token_count: 44,
      finish_reasons: ['STOP'],
    });
  });

  it('logPrompts puts the prompt, the arguments and the response text into the records', async () => {
    const exported = await startTelemetry({
      otlpEndpoint: receiver.url,
      otlpProtocol: 'grpc',
      outfile: undefined,
    });
    receiver.logs.length = 0;
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'echo', args: { text: 'secret' }, id: 'e2' }),
        modelTurn([{ text: 'the answer' }]),
      ]),
      builtinTools: false,
      persist: false,
      tools: [echo],
      telemetry: {
        tracerProvider: exported.tracerProvider,
        meterProvider: exported.meterProvider,
        loggerProvider: exported.loggerProvider,
        logPrompts: true,
      },
    });
    for await (const _ of agent.session({ sessionId: 'signals-2' }).sendStream('tell me')) void _;
    await agent.close();
    await exported.shutdown();
    const byEvent = (name: string) =>
      receiver
        .logRecords()
        .filter((r) => r.record.eventName === name)
        .map((r) => attributesOf(r.record.attributes));
    expect(byEvent('gemini_cli.user_prompt')[0]?.['prompt']).toBe('tell me');
    expect(byEvent('gemini_cli.tool_call')[0]?.['function_args']).toContain('secret');
    expect(byEvent('gemini_cli.tool_call')[0]?.['decision']).toBe('auto_accept');
    expect(byEvent('gemini_cli.api_response').at(-1)?.['response_text']).toBe('the answer');
  });

  it('without a registered SDK and without providers, the agent records no metrics or log records', async () => {
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([modelTurn([{ text: 'ok' }])]),
      builtinTools: false,
      persist: false,
      telemetry: { enabled: true },
    });
    const before = receiver.metrics.length + receiver.logs.length;
    for await (const _ of agent.session().sendStream('x')) void _;
    await agent.close();
    expect(receiver.metrics.length + receiver.logs.length).toBe(before);
  });
});
