/**
 * The scripted scenarios — tools, parallel calls, tool errors, resume, approvals — once per provider: the same
 * neutral script, served by each provider's loopback fake in its own wire format, must give the same events and
 * the model must see the same conversation.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  ModelVisibleError,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, textTurn } from '../../src/testing/index.js';
import { PROVIDERS, type ProviderHarness, type SeenEntry } from './provider-harness.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}
const text = (events: ServerGeminiStreamEvent[]) =>
  events
    .filter((e) => e.type === 'content')
    .map((e) => e.value)
    .join('');
const withoutText = (entries: SeenEntry[]) => entries.filter((e) => e.kind !== 'text');

/** A barrier two parallel calls must both reach; sequential calls give up after a while (and the test fails). */
function barrier(parties: number) {
  let arrived = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let maxActive = 0;
  let active = 0;
  return {
    get maxActive() {
      return maxActive;
    },
    async arrive(): Promise<void> {
      active++;
      maxActive = Math.max(maxActive, active);
      if (++arrived === parties) open();
      await Promise.race([opened, new Promise((r) => setTimeout(r, 3000).unref())]);
      active--;
    },
  };
}

const add = tool(
  { name: 'add', description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => a + b,
);

describe.each(PROVIDERS)('scripted scenarios — $name', ({ create }) => {
  let harness: ProviderHarness;
  afterEach(async () => {
    await harness.dispose();
  });
  const agentFor = async (
    turns: Parameters<ProviderHarness['start']>[0],
    options: GeminiCliAgentOptions = {},
  ): Promise<GeminiCliAgent> => {
    harness = create();
    const reach = await harness.start(turns);
    return new GeminiCliAgent({ builtinTools: false, retry: false, ...reach, ...options });
  };

  it('text answer', async () => {
    const agent = await agentFor([textTurn('Plain answer.')]);
    const events = await drain(agent.session().sendStream('Hello?'));
    expect(text(events)).toBe('Plain answer.');
    expect(events.at(-1)).toMatchObject({ type: 'finished', value: { reason: 'STOP' } });
    expect(harness.requestCount()).toBe(1);
    expect(harness.seen(0).at(-1)).toMatchObject({
      role: 'user',
      kind: 'text',
      text: expect.stringContaining('Hello?'),
    });
  });

  it('a tool call round trip', async () => {
    const agent = await agentFor(
      [callTurn({ name: 'add', args: { a: 2, b: 3 }, id: 'c1' }), textTurn('5')],
      {
        tools: [add],
      },
    );
    const events = await drain(agent.session().sendStream('2+3?'));
    expect(text(events)).toBe('5');
    expect(events.filter((e) => e.type === 'tool_call_response')).toHaveLength(1);
    expect(withoutText(harness.seen(1))).toEqual([
      { role: 'model', kind: 'call', name: 'add', args: { a: 2, b: 3 } },
      { role: 'user', kind: 'response', name: 'add', data: '5' },
    ]);
  });

  it('parallel calls run together and are answered in call order', async () => {
    const gate = barrier(2);
    const slow = tool(
      { name: 'slow', description: 'Waits', inputSchema: z.object({ label: z.string() }) },
      async ({ label }) => {
        await gate.arrive();
        return `done ${label}`;
      },
    );
    const agent = await agentFor(
      [
        callTurn(
          { name: 'slow', args: { label: 'a' }, id: 'p1' },
          { name: 'slow', args: { label: 'b' }, id: 'p2' },
        ),
        textTurn('both'),
      ],
      { tools: [slow] },
    );
    expect(text(await drain(agent.session().sendStream('go')))).toBe('both');
    expect(gate.maxActive).toBe(2);
    expect(withoutText(harness.seen(1)).filter((e) => e.kind === 'response')).toEqual([
      { role: 'user', kind: 'response', name: 'slow', data: 'done a' },
      { role: 'user', kind: 'response', name: 'slow', data: 'done b' },
    ]);
  });

  it('a tool error reaches the model as an error response', async () => {
    const failing = tool({ name: 'fail', description: 'Fails', inputSchema: z.object({}) }, () => {
      throw new ModelVisibleError('Tool failed visibly');
    });
    const agent = await agentFor([callTurn({ name: 'fail', id: 'f1' }), textTurn('It failed.')], {
      tools: [failing],
    });
    expect(text(await drain(agent.session().sendStream('try')))).toBe('It failed.');
    expect(withoutText(harness.seen(1)).at(-1)).toEqual({
      role: 'user',
      kind: 'response',
      name: 'fail',
      data: JSON.stringify({ error: 'Tool failed visibly' }),
    });
  });

  it('a resumed session sends the whole stored conversation', async () => {
    const agent = await agentFor(
      [
        callTurn({ name: 'add', args: { a: 1, b: 1 }, id: 'r1' }),
        textTurn('2'),
        textTurn('still 2'),
      ],
      { tools: [add] },
    );
    const first = agent.session({ sessionId: 'provider-resume' });
    expect(text(await drain(first.sendStream('1+1?')))).toBe('2');
    await first.close();
    const resumed = await new GeminiCliAgent({
      builtinTools: false,
      retry: false,
      tools: [add],
      ...reachAgain(agent),
    }).resumeSession('provider-resume');
    expect(text(await drain(resumed.sendStream('and now?')))).toBe('still 2');
    const seen = harness.seen(2);
    expect(
      // The first turn's <session_context> is a part of its own for Gemini, the same message's text for OpenAI.
      seen
        .map((e) => ({
          ...e,
          text: e.text?.replace(/<session_context>[\s\S]*?<\/session_context>/, '').trim(),
        }))
        .filter((e) => e.kind !== 'text' || e.text !== '')
        .map((e) => `${e.role}:${e.kind}:${e.name ?? e.text}`),
    ).toEqual([
      'user:text:1+1?',
      'model:call:add',
      'user:response:add',
      'model:text:2',
      'user:text:and now?',
    ]);
  });

  it('approvals: a denied call is reported to the model; a paused one runs after resolveApprovals', async () => {
    const runs: string[] = [];
    const note = tool(
      { name: 'note', description: 'Notes', inputSchema: z.object({ text: z.string() }) },
      ({ text: t }) => {
        runs.push(t);
        return 'noted';
      },
    );
    const policy = { rules: [{ toolName: 'note', decision: 'ask_user' as const }] };
    const agent = await agentFor(
      [
        callTurn({ name: 'note', args: { text: 'x' }, id: 'a1' }),
        textTurn('refused'),
        callTurn({ name: 'note', args: { text: 'y' }, id: 'a2' }),
        textTurn('noted it'),
      ],
      { tools: [note], policy, onApproval: () => 'deny' },
    );
    expect(text(await drain(agent.session().sendStream('note x')))).toBe('refused');
    expect(runs).toEqual([]);
    expect(withoutText(harness.seen(1)).at(-1)).toMatchObject({
      kind: 'response',
      name: 'note',
      data: expect.stringContaining('denied'),
    });

    const pausing = new GeminiCliAgent({
      builtinTools: false,
      retry: false,
      tools: [note],
      policy,
      approvals: 'pause',
      ...reachAgain(agent),
    });
    const session = pausing.session();
    const paused = await drain(session.sendStream('note y'));
    expect(paused.at(-1)?.type).toBe('approval_required');
    const pending = session.pendingApprovals[0];
    expect(pending?.toolName).toBe('note');
    const resumed = await drain(
      session.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]),
    );
    expect(text(resumed)).toBe('noted it');
    expect(runs).toEqual(['y']);
    expect(withoutText(harness.seen(3)).at(-1)).toEqual({
      role: 'user',
      kind: 'response',
      name: 'note',
      data: 'noted',
    });
  });
});

/** The options of an agent that reach the same fakes (provider, key, base URL), for a second agent. */
function reachAgain(agent: GeminiCliAgent): GeminiCliAgentOptions {
  const { provider, apiKey, baseUrl } = agent.options;
  return {
    ...(provider ? { provider } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  };
}
