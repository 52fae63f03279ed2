import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiCliAgent, startTelemetry, tool, z } from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn } from '../../src/testing/index.js';
import { OtlpReceiver, attrs, spansOf, type OtlpSpan } from './otlp-receiver.js';

const echo = tool(
  { name: 'echo', description: 'Echoes', inputSchema: z.object({ text: z.string() }) },
  ({ text }) => text,
);

describe('exporting spans with the official OTLP exporter', () => {
  const receiver = new OtlpReceiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('OTLP/HTTP to a loopback receiver: the decoded request holds the turn, the model calls and the tool call', async () => {
    const exported = await startTelemetry({
      otlpEndpoint: receiver.url,
      otlpProtocol: 'http',
      outfile: undefined,
      resource: { 'session.id': 'otlp-1' },
    });
    expect(exported.destination).toBe(`OTLP/HTTP ${receiver.url}/v1/traces`);
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
      tools: [echo],
      telemetry: { tracerProvider: exported.tracerProvider },
    });
    for await (const _ of agent.session({ sessionId: 'otlp-1' }).sendStream('say hi')) void _;
    await agent.close();
    await exported.shutdown();

    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.path).toBe('/v1/traces');
      expect(request.contentType).toContain('application/json');
    }
    const decoded = spansOf(receiver);
    for (const { resource, scope } of decoded) {
      expect(resource['service.name']).toBe('gemini-agent');
      expect(resource['session.id']).toBe('otlp-1');
      expect(scope).toBe('gemini-agent-sdk');
    }
    const spans: OtlpSpan[] = decoded.map((d) => d.span);
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gemini-2.5-pro',
      'chat gemini-2.5-pro',
      'execute_tool echo',
      'invoke_agent gemini-agent',
    ]);
    const turn = spans.find((s) => s.name.startsWith('invoke_agent')) as OtlpSpan;
    for (const s of spans) {
      expect(s.traceId).toBe(turn.traceId);
      if (s !== turn) expect(s.parentSpanId).toBe(turn.spanId);
    }
    const tool = spans.find((s) => s.name === 'execute_tool echo') as OtlpSpan;
    expect(attrs(tool)).toMatchObject({
      'gen_ai.tool.call.id': 'echo__e1',
      'gen_ai.tool.name': 'echo',
    });
    const last = spans
      .filter((s) => s.name.startsWith('chat '))
      .map(attrs)
      .find((a) => a['gen_ai.usage.input_tokens'] === 42);
    expect(last).toMatchObject({
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.request.model': 'gemini-2.5-pro',
    });
    expect(attrs(turn)['gen_ai.conversation.id']).toBe('otlp-1');
  });

  it('outfile: one JSON span a line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otel-file-'));
    try {
      const file = join(dir, 'telemetry.log');
      const exported = await startTelemetry({
        otlpEndpoint: 'http://localhost:4317',
        otlpProtocol: 'grpc',
        outfile: file,
      });
      const agent = new GeminiCliAgent({
        contentGenerator: new ScriptedModel([modelTurn([{ text: 'ok' }])]),
        builtinTools: false,
        persist: false,
        telemetry: { tracerProvider: exported.tracerProvider },
      });
      for await (const _ of agent.session().sendStream('x')) void _;
      await agent.close();
      await exported.shutdown();
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { name: string; attributes: Record<string, unknown> });
      expect(lines.map((l) => l.name).sort()).toEqual(
        ['chat gemini-2.5-pro', 'invoke_agent gemini-agent'].sort(),
      );
      expect(
        lines.find((l) => l.name.startsWith('chat'))?.attributes['gen_ai.operation.name'],
      ).toBe('chat');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
