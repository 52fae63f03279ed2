import { describe, expect, it } from 'vitest';
import type { ServerGeminiStreamEvent } from '../events.js';
import { ScriptedModel, callTurn, textTurn } from '../testing/scripted-model.js';
import type { Feature } from '../core/feature.js';
import { tool } from '../tools/tool.js';
import type { ToolGate } from '../policy/policy-gate.js';
import { z } from 'zod';
import { GeminiCliAgent } from './agent.js';
import { createAgentServices, type AgentServices } from './agent-services.js';
import { createMemoryPersistence } from '../sessions/session-persistence.js';
import { GeminiCliSession } from './session.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

/** A gate as a feature: its decision comes before the policy's (which still sees what the gate allows). */
function gateFeature(gate: ToolGate): Feature {
  return {
    name: 'gate',
    async interceptToolDecision(check, next) {
      const decision = await gate.check(check);
      return decision.outcome === 'allow' ? next(check) : decision;
    },
  };
}

function setup(model: ScriptedModel, change: (s: AgentServices) => void, options = {}) {
  const agent = new GeminiCliAgent({
    builtinTools: false,
    contentGenerator: model,
    retry: false,
    ...options,
  });
  const services = createAgentServices(agent.options);
  services.persistence = createMemoryPersistence();
  change(services);
  return new GeminiCliSession(agent, services, 'seam-session');
}

const echo = tool(
  { name: 'echo', description: 'echo', inputSchema: z.object({ s: z.string() }) },
  ({ s }) => s,
);

describe('seams', () => {
  it('tool and section providers are evaluated before every model call', async () => {
    let call = 0;
    let toolCalls = 0;
    const model = new ScriptedModel([
      callTurn({ name: 'echo', args: { s: 'x' } }),
      textTurn('done'),
    ]);
    const features: Feature[] = [
      { name: 'tools', tools: () => (toolCalls++ === 0 ? [echo] : []) },
      { name: 'section', systemSection: () => `# Section ${++call}` },
      { name: 'empty section', systemSection: () => undefined },
    ];
    const session = setup(model, () => undefined, {
      instructions: 'Be brief.',
      systemPrompt: 'none',
      features,
      // A feature's tool follows the policy like any other: headless, only an allowed one is offered.
      policy: { rules: [{ toolName: 'echo', decision: 'allow' }] },
    });
    await drain(session.sendStream('go'));
    expect(model.generateRequests.map((r) => r.config?.systemInstruction)).toEqual([
      '# Section 1\n\nBe brief.',
      '# Section 2\n\nBe brief.',
    ]);
    expect(model.generateRequests[0]?.config?.tools).toHaveLength(1);
    expect(model.generateRequests[1]?.config).not.toHaveProperty('tools');
  });

  it('a denying gate answers the model with the message; the tool does not run', async () => {
    let runs = 0;
    const counted = tool(
      { name: 'echo', description: 'e', inputSchema: z.object({ s: z.string() }) },
      ({ s }) => {
        runs++;
        return s;
      },
    );
    const gate: ToolGate = {
      check: ({ request }) => ({ outcome: 'deny', message: `No ${request.name}.` }),
    };
    const model = new ScriptedModel([callTurn({ name: 'echo', args: { s: 'x' } }), textTurn('ok')]);
    const session = setup(model, () => undefined, {
      tools: [counted],
      features: [gateFeature(gate)],
    });
    const events = await drain(session.sendStream('go'));
    expect(runs).toBe(0);
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.value).toMatchObject({
      error: { message: 'No echo.', type: 'policy_violation' },
    });
  });

  it('a pausing gate ends the stream with approval_required; resolveApprovals runs approved calls and continues', async () => {
    const ran: string[] = [];
    const rec = tool(
      { name: 'rec', description: 'r', inputSchema: z.object({ s: z.string() }) },
      ({ s }) => {
        ran.push(s);
        return s;
      },
    );
    const gate: ToolGate = {
      check: ({ request, args, emit }) => {
        if (args['s'] === 'safe') return { outcome: 'allow' };
        const details = {
          callId: request.callId,
          toolName: request.name,
          args,
          description: `rec ${String(args['s'])}`,
          kind: 'other',
        };
        emit({ type: 'tool_call_confirmation', value: { request, details } });
        return { outcome: 'pause', request: details };
      },
    };
    const model = new ScriptedModel([
      callTurn(
        { name: 'rec', args: { s: 'safe' } },
        { name: 'rec', args: { s: 'risky' } },
        { name: 'rec', args: { s: 'nope' } },
      ),
      (req) => {
        const responses = req.contents
          ? (
              req.contents as Array<{
                parts?: Array<{ functionResponse?: { response?: unknown } }>;
              }>
            )
              .at(-1)
              ?.parts?.map((p) => p.functionResponse?.response)
          : [];
        expect(responses).toEqual([
          { output: 'safe' },
          { output: 'risky' },
          { error: 'User denied execution. Too risky.' },
        ]);
        return textTurn('continued');
      },
    ]);
    const session = setup(model, () => undefined, { tools: [rec], features: [gateFeature(gate)] });
    const events = await drain(session.sendStream('go'));
    expect(events.map((e) => e.type).slice(-4)).toEqual([
      'tool_call_confirmation',
      'tool_call_confirmation',
      'tool_call_response',
      'approval_required',
    ]);
    expect(events.filter((e) => e.type === 'tool_call_confirmation')).toHaveLength(2);
    expect(events.at(-1)?.type).toBe('approval_required');
    expect(ran).toEqual(['safe']);
    const pending = session.pendingApprovals;
    expect(pending.map((p) => p.description)).toEqual(['rec risky', 'rec nope']);
    const more = await drain(
      session.resolveApprovals([
        { callId: pending[0]!.callId, outcome: 'allow' },
        { callId: pending[1]!.callId, outcome: 'deny', message: 'Too risky.' },
      ]),
    );
    expect(ran).toEqual(['safe', 'risky']);
    expect(more.filter((e) => e.type === 'tool_call_response')).toHaveLength(2);
    expect(more.at(-1)?.type).toBe('finished');
    expect(session.pendingApprovals).toEqual([]);
    model.assertComplete();
  });

  it('a new prompt while approvals are pending answers the paused calls first', async () => {
    const gate: ToolGate = {
      check: ({ request, args }) => ({
        outcome: 'pause',
        request: {
          callId: request.callId,
          toolName: request.name,
          args,
          description: 'd',
          kind: 'other',
        },
      }),
    };
    const model = new ScriptedModel([
      callTurn({ name: 'echo', args: { s: 'x' } }),
      (req) => {
        const last = JSON.stringify(req.contents);
        expect(last).toContain('not approved before the next message');
        return textTurn('moved on');
      },
    ]);
    const session = setup(model, () => undefined, { tools: [echo], features: [gateFeature(gate)] });
    await drain(session.sendStream('go'));
    expect(session.pendingApprovals).toHaveLength(1);
    expect((await session.send('never mind')).text).toBe('moved on');
  });

  it('every message is persisted before the next model call; resume restores it', async () => {
    const persistence = createMemoryPersistence();
    const stored = async (): Promise<number> =>
      (await persistence.storeFor().load('seam-session')).messages.length;
    const counts: number[] = [];
    const model = new ScriptedModel([
      async () => {
        counts.push(await stored());
        return callTurn({ name: 'echo', args: { s: 'x' } });
      },
      async () => {
        counts.push(await stored());
        return textTurn('done');
      },
    ]);
    const session = setup(model, (s) => (s.persistence = persistence), { tools: [echo] });
    await drain(session.sendStream('go'));
    // user; user, model (with its toolCalls), function responses.
    expect(counts).toEqual([1, 3]);
    const messages = (await persistence.storeFor().load('seam-session')).messages;
    expect(messages.map((m) => m.type)).toEqual(['user', 'gemini', 'user', 'gemini']);
    expect(messages[1]?.toolCalls?.[0]?.name).toBe('echo');
    await session.close();
    const log = await persistence.open('seam-session', { resume: true, cwd: process.cwd() });
    expect(log.history).toEqual(session.getHistory());
    await log.close();
  });

  it('retry backoffs of the model become retry events', async () => {
    let attempts = 0;
    const flaky = new ScriptedModel([]);
    const model = {
      generateContentStream: async (
        ...args: Parameters<ScriptedModel['generateContentStream']>
      ) => {
        if (attempts++ === 0) throw Object.assign(new Error('unavailable'), { status: 503 });
        return flaky.generateContentStream(...args);
      },
      generateContent: flaky.generateContent.bind(flaky),
      countTokens: flaky.countTokens.bind(flaky),
    };
    flaky.push(textTurn('after retry'));
    const agent = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    });
    const events = await drain(agent.session().sendStream('go'));
    expect(events.map((e) => e.type)).toEqual(['model_info', 'retry', 'content', 'finished']);
  });
});
