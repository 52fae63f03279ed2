import { describe, expect, it } from 'vitest';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import {
  GeminiCliAgent,
  subagent,
  tool,
  z,
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

describe('OpenTelemetry spans of paused approvals', () => {
  it('a held call ends its span with decision pause; resolveApprovals spans say a user accepted or rejected', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const ran: string[] = [];
    const rec = tool(
      { name: 'rec', description: 'Records', inputSchema: z.object({ s: z.string() }) },
      ({ s }) => {
        ran.push(s);
        return s;
      },
    );
    await using agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn(
          { name: 'rec', args: { s: 'one' }, id: 'r1' },
          { name: 'rec', args: { s: 'two' }, id: 'r2' },
        ),
        textTurn('continued'),
      ]),
      builtinTools: false,
      persist: false,
      // A feature's tool without an allow rule asks; with approvals: 'pause' the run holds it.
      features: [{ name: 'recorder', tools: [rec] }],
      approvals: 'pause',
      telemetry: { tracerProvider: provider },
    });
    const session = agent.session({ sessionId: 'otel-pause' });
    const first = await drain(session.sendStream('go'));
    expect(first.at(-1)?.type).toBe('approval_required');
    await provider.forceFlush();
    const held = exporter.getFinishedSpans().filter((s) => s.name === 'execute_tool rec');
    expect(held.map((s) => s.attributes['gemini_agent.tool.decision'])).toEqual(['pause', 'pause']);
    expect(held.every((s) => s.status.code !== 2)).toBe(true);
    exporter.reset();

    const [a, b] = session.pendingApprovals;
    await drain(
      session.resolveApprovals([
        { callId: a!.callId, outcome: 'allow' },
        { callId: b!.callId, outcome: 'deny', message: 'No.' },
      ]),
    );
    expect(ran).toEqual(['one']);
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const turn = spans.find((s) => s.name === 'invoke_agent gemini-agent') as ReadableSpan;
    expect(turn.attributes['gemini_agent.turn.resumed_approvals']).toBe(true);
    const calls = spans.filter((s) => s.name === 'execute_tool rec');
    const byId = (id: string) => calls.find((s) => s.attributes['gen_ai.tool.call.id'] === id);
    expect(byId('rec__r1')?.attributes).toMatchObject({
      'gemini_agent.tool.decision': 'accept',
      'gemini_agent.tool.decided_by': 'user',
    });
    expect(byId('rec__r2')?.attributes).toMatchObject({
      'gemini_agent.tool.decision': 'reject',
      'gemini_agent.tool.decided_by': 'user',
      'error.type': 'policy_violation',
    });
    for (const call of calls)
      expect(call.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
  });

  it("an invoke_agent call held by its subagent's approval ends its span held, not failed", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const rec = tool(
      { name: 'rec', description: 'Records', inputSchema: z.object({}) },
      () => 'recorded',
    );
    await using agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'invoke_agent', args: { agent_name: 'worker', prompt: 'p' }, id: 'i1' }),
        callTurn({ name: 'rec', id: 'r1' }),
      ]),
      builtinTools: false,
      persist: false,
      sessionContext: false,
      features: [{ name: 'recorder', tools: [rec] }],
      subagents: [subagent({ name: 'worker', description: 'd', instructions: 'Work.' })],
      approvals: 'pause',
      telemetry: { tracerProvider: provider },
    });
    const events = await drain(agent.session({ sessionId: 'otel-held' }).sendStream('go'));
    expect(events.at(-1)?.type).toBe('approval_required');
    await provider.forceFlush();
    const [invoke] = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'execute_tool invoke_agent');
    expect(invoke?.attributes['gemini_agent.tool.held']).toBe(true);
    expect(invoke?.status.code).not.toBe(2);
  });
});
