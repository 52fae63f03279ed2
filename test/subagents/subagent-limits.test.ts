import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  subagent,
  tool,
  z,
  type ApprovalRequest,
  type SessionContext,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';
import {
  activities,
  completeTurn,
  drain,
  invokeTurn,
  lastResponses,
  turnWithUsage,
} from './helpers.js';

/** A tool that runs until its call is aborted (the subagent's deadline, or the parent's abort). */
function blockingTool(started?: () => void) {
  return tool(
    { name: 'wait_forever', description: 'Waits', inputSchema: z.object({}) },
    (_args: Record<string, never>, ctx: SessionContext) =>
      new Promise<string>((_, reject) => {
        started?.();
        ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
  );
}

function finishedText(request: Parameters<typeof lastResponses>[0]): string {
  const [response] = lastResponses(request) as Array<{ output?: string }>;
  return response?.output ?? '';
}

function parent(model: ScriptedModel, agent: ReturnType<typeof subagent>, extra = {}) {
  return new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    persist: false,
    systemPrompt: 'none',
    sessionContext: false,
    subagents: [agent],
    ...extra,
  });
}

describe('subagent termination modes and the grace turn', () => {
  it('no complete_task: the grace turn recovers (GOAL)', async () => {
    const worker = subagent({ name: 'worker', description: 'd', instructions: 'Work.' });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      textTurn('I think I am done.'),
      (request) => {
        const last = request.contents as Array<{ parts: Array<{ text?: string }> }>;
        expect(last.at(-1)?.parts[0]?.text).toBe(
          'You have stopped calling tools without finishing. You have one final chance to complete the task ' +
            'with a short grace period. You MUST call `complete_task` immediately with your best answer and ' +
            'explain that your investigation was interrupted. Do not call any other tools.',
        );
        return completeTurn({ result: 'late answer' });
      },
      (request) => {
        expect(finishedText(request)).toBe(
          "Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\nlate answer",
        );
        return textTurn('ok');
      },
    ]);
    await using agent = parent(model, worker);
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    const kinds = activities(events).map((a) =>
      a.event.type === 'thought' ? `thought:${a.event.value.subject}` : a.event.type,
    );
    expect(kinds).toContain('error');
    expect(kinds).toContain(
      'thought:Execution limit reached (ERROR_NO_COMPLETE_TASK_CALL). Attempting one final recovery turn with a grace period.',
    );
    expect(kinds).toContain('thought:Graceful recovery succeeded.');
  });

  it("no complete_task twice: ERROR_NO_COMPLETE_TASK_CALL with gemini-cli's result", async () => {
    const worker = subagent({ name: 'worker', description: 'd', instructions: 'Work.' });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      textTurn('done?'),
      textTurn('still no tool'),
      (request) => {
        expect(finishedText(request)).toBe(
          "Subagent 'worker' finished.\nTermination Reason: ERROR_NO_COMPLETE_TASK_CALL\nResult:\n" +
            "Agent stopped calling tools but did not call 'complete_task'.",
        );
        return textTurn('ok');
      },
    ]);
    await using agent = parent(model, worker);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('maxTurns reached and the grace turn fails: MAX_TURNS', async () => {
    const echo = tool(
      { name: 'echo', description: 'Echo', inputSchema: z.object({ n: z.number() }) },
      ({ n }) => String(n),
    );
    const worker = subagent({
      name: 'worker',
      description: 'd',
      instructions: 'Work.',
      tools: [echo],
      maxTurns: 2,
    });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      callTurn({ name: 'echo', args: { n: 1 } }),
      callTurn({ name: 'echo', args: { n: 2 } }),
      (request) => {
        const last = request.contents as Array<{ parts: Array<{ text?: string }> }>;
        expect(last.at(-1)?.parts[0]?.text).toMatch(
          /^You have exceeded the maximum number of turns\./,
        );
        return callTurn({ name: 'echo', args: { n: 3 } });
      },
      (request) => {
        expect(finishedText(request)).toBe(
          "Subagent 'worker' finished.\nTermination Reason: MAX_TURNS\nResult:\nAgent reached max turns limit (2).",
        );
        return textTurn('ok');
      },
    ]);
    await using agent = parent(model, worker);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('the time limit ends the run; the grace turn answers (GOAL after TIMEOUT)', async () => {
    const worker = subagent({
      name: 'worker',
      description: 'd',
      instructions: 'Work.',
      tools: [blockingTool()],
      timeoutMs: 50,
    });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      callTurn({ name: 'wait_forever' }),
      (request) => {
        const last = request.contents as Array<{ parts: Array<{ text?: string }> }>;
        expect(last.at(-1)?.parts[0]?.text).toMatch(/^You have exceeded the time limit\./);
        return completeTurn({ result: 'partial findings' });
      },
      (request) => {
        expect(finishedText(request)).toBe(
          "Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\npartial findings",
        );
        return textTurn('ok');
      },
    ]);
    await using agent = parent(model, worker);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('aborting the parent aborts the running subagent; the parent history stays answered', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const worker = subagent({
      name: 'worker',
      description: 'd',
      instructions: 'Work.',
      tools: [blockingTool(started)],
    });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      callTurn({ name: 'wait_forever' }),
    ]);
    await using agent = parent(model, worker);
    const session = agent.session();
    const controller = new AbortController();
    void running.then(() => controller.abort());
    const events = await drain(session.sendStream('go', controller.signal));
    expect(events.at(-1)?.type).toBe('user_cancelled');
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.type === 'tool_call_response' && response.value.errorType).toBe('cancelled');
    const history = session.getHistory();
    const answered = history.at(-1)?.parts?.[0]?.functionResponse;
    expect(answered?.name).toBe('invoke_agent');
  });
});

describe('several invoke_agent calls in one turn', () => {
  it('run concurrently, each with its own id and transcript', async () => {
    const arrived: string[] = [];
    let release!: () => void;
    const both = new Promise<void>((resolve) => (release = resolve));
    const meet = tool(
      {
        name: 'meet',
        description: 'Waits for the other subagent',
        inputSchema: z.object({ who: z.string() }),
      },
      async ({ who }) => {
        arrived.push(who);
        if (arrived.length === 2) release();
        // Sequential runs would never get here for the first one: the test then fails by its timeout.
        await both;
        return `${who} met`;
      },
    );
    const a = subagent({
      name: 'alpha',
      description: 'A',
      instructions: 'I am alpha.',
      tools: [meet],
    });
    const b = subagent({
      name: 'beta',
      description: 'B',
      instructions: 'I am beta.',
      tools: [meet],
    });
    const byAgent = (request: Parameters<typeof lastResponses>[0]): string =>
      JSON.stringify(request.config?.systemInstruction).includes('I am alpha.') ? 'alpha' : 'beta';
    const inner = (request: Parameters<typeof lastResponses>[0]) =>
      lastResponses(request).length === 0
        ? callTurn({ name: 'meet', args: { who: byAgent(request) } })
        : completeTurn({ result: `${byAgent(request)} done` });
    const model = new ScriptedModel([
      callTurn(
        { name: 'invoke_agent', args: { agent_name: 'alpha', prompt: 'a' } },
        { name: 'invoke_agent', args: { agent_name: 'beta', prompt: 'b' } },
      ),
      inner,
      inner,
      inner,
      inner,
      (request) => {
        const texts = (lastResponses(request) as Array<{ output: string }>).map((r) => r.output);
        expect(texts).toEqual([
          "Subagent 'alpha' finished.\nTermination Reason: GOAL\nResult:\nalpha done",
          "Subagent 'beta' finished.\nTermination Reason: GOAL\nResult:\nbeta done",
        ]);
        return textTurn('ok');
      },
    ]);
    await using agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      persist: false,
      sessionContext: false,
      subagents: [a, b],
    });
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(arrived.sort()).toEqual(['alpha', 'beta']);
    const ids = new Map(activities(events).map((x) => [x.agentName, x.agentId]));
    expect(ids.size).toBe(2);
    expect(ids.get('alpha')).not.toBe(ids.get('beta'));
  });
});

describe('policy and approvals inside a subagent', () => {
  const risky = tool(
    { name: 'risky', description: 'Changes things', inputSchema: z.object({}), kind: 'edit' },
    () => 'changed',
  );

  it("an approval reaches the parent's onApproval with the subagent's name; a refusal asks it to rethink", async () => {
    const asked: ApprovalRequest[] = [];
    const worker = subagent({
      name: 'worker',
      description: 'd',
      instructions: 'Work.',
      tools: ['risky'],
    });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task', 'inv-1'),
      callTurn({ name: 'risky' }),
      (request) => {
        const [response] = lastResponses(request) as Array<{ error?: string }>;
        expect(response?.error).toBe(
          'User rejected this operation. Please acknowledge this, rethink your strategy, and try a different ' +
            'approach. If you cannot proceed without the rejected operation, summarize the issue and use ' +
            '`complete_task` to report your findings and the blocker.',
        );
        return completeTurn({ result: 'blocked' });
      },
      textTurn('ok'),
    ]);
    await using agent = parent(model, worker, {
      tools: [risky],
      policy: { rules: [{ toolName: 'risky', decision: 'ask_user' }] },
      onApproval: (request: ApprovalRequest) => {
        asked.push(request);
        return 'deny';
      },
    });
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(asked).toHaveLength(1);
    const [run] = activities(events);
    const invoke = events.find((e) => e.type === 'tool_call_request');
    const invokeId = invoke?.type === 'tool_call_request' ? invoke.value.callId : undefined;
    expect(invokeId).toContain('inv-1');
    expect(asked[0]).toMatchObject({
      toolName: 'risky',
      subagent: 'worker',
      subagentRun: { agentId: run?.agentId, parentCallId: invokeId },
    });
    expect(run?.agentId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rules scoped with subagent = "<name>" apply to that subagent only; agent_name aliases invoke_agent', async () => {
    const worker = subagent({
      name: 'worker',
      description: 'd',
      instructions: 'Work.',
      tools: ['risky'],
    });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task', 'inv-1'),
      callTurn({ name: 'risky' }),
      (request) => {
        const [response] = lastResponses(request) as Array<{ error?: string }>;
        expect(response?.error).toMatch(/denied by policy/i);
        return completeTurn({ result: 'denied inside' });
      },
      (request) => {
        expect(JSON.stringify(lastResponses(request))).toContain('denied inside');
        return callTurn({ name: 'risky' });
      },
      (request) => {
        expect(lastResponses(request)).toEqual([{ output: 'changed' }]);
        return invokeTurn('worker', 'again');
      },
      (request) => {
        // toolName = "worker" matches invoke_agent calls with agent_name "worker".
        const [response] = lastResponses(request) as Array<{ error?: string }>;
        expect(response?.error).toMatch(/denied by policy/i);
        return textTurn('ok');
      },
    ]);
    const state = { calls: 0 };
    await using agent = parent(model, worker, {
      tools: [risky],
      policy: {
        rules: [
          { toolName: 'risky', subagent: 'worker', decision: 'deny' },
          { toolName: 'risky', decision: 'allow' },
          {
            toolName: 'worker',
            decision: 'deny',
            argsPattern: '"prompt":"again"',
          },
        ],
      },
      onApproval: () => {
        state.calls++;
        return 'allow';
      },
    });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(state.calls).toBe(0);
  });
});

describe('budget.perSubagent', () => {
  const noop = tool(
    { name: 'noop', description: 'Does nothing', inputSchema: z.object({}) },
    () => 'done',
  );
  const worker = () =>
    subagent({ name: 'worker', description: 'd', instructions: 'Work.', tools: ['noop'] });
  const RESULT =
    /^Subagent 'worker' finished\.\nTermination Reason: BUDGET_EXCEEDED\nResult:\nAgent stopped: its budget does not allow another model call \(total_tokens: \d+ tokens would exceed the limit of 3000 tokens\)\.$/;

  it('a run that would cross its own limit ends with BUDGET_EXCEEDED (no grace turn); its usage counts in the session', async () => {
    const model = new ScriptedModel([
      turnWithUsage(invokeTurn('worker', 'task'), 100),
      turnWithUsage(callTurn({ name: 'noop', args: {} }), 5000),
      (request) => {
        expect(finishedText(request)).toMatch(RESULT);
        return textTurn('ok');
      },
      turnWithUsage(invokeTurn('worker', 'again'), 100),
      // A new run starts from nothing spent: its first call fits again.
      turnWithUsage(completeTurn({ result: 'small' }), 200),
      (request) => {
        expect(finishedText(request)).toContain('Termination Reason: GOAL');
        return textTurn('done');
      },
    ]);
    await using agent = parent(model, worker(), {
      tools: [noop],
      budget: { perSubagent: { maxTotalTokens: 3000 } },
    });
    const session = agent.session();
    const events = await drain(session.sendStream('go'));
    expect(events.some((e) => e.type === 'budget_exceeded')).toBe(false);
    const errors = activities(events).filter((a) => a.event.type === 'error');
    expect(errors).toHaveLength(1);
    await drain(session.sendStream('go on'));
    model.assertComplete();
    expect(session.budget?.spent.inputTokens).toBeGreaterThanOrEqual(99 + 4999 + 99 + 199);
    expect(session.budget?.limits.perSubagent).toEqual({ maxTotalTokens: 3000 });
  });

  it("the session's own limit stops a run too; the parent then pauses and resumes after extendBudget", async () => {
    const model = new ScriptedModel([
      turnWithUsage(invokeTurn('worker', 'task'), 100),
      turnWithUsage(callTurn({ name: 'noop', args: {} }), 5000),
      (request) => {
        expect(finishedText(request)).toMatch(RESULT);
        return textTurn('resumed');
      },
    ]);
    await using agent = parent(model, worker(), {
      tools: [noop],
      budget: { maxTotalTokens: 3000 },
    });
    const session = agent.session();
    const events = await drain(session.sendStream('go'));
    const paused = events.find((e) => e.type === 'budget_exceeded');
    expect(paused?.type === 'budget_exceeded' && paused.value.reason).toBe('total_tokens');
    await session.extendBudget({ maxTotalTokens: 10_000, perSubagent: { maxCostUsd: 1 } });
    expect(session.budget?.limits).toEqual({
      maxTotalTokens: 13_000,
      perSubagent: { maxCostUsd: 1 },
    });
    const resumed = await drain(session.resumeTurn());
    expect(resumed.some((e) => e.type === 'content')).toBe(true);
    model.assertComplete();
  });

  it('a bad perSubagent value fails at construction', () => {
    expect(() => new GeminiCliAgent({ budget: { perSubagent: { maxTotalTokens: -1 } } })).toThrow(
      /budget\.perSubagent\.maxTotalTokens/,
    );
  });
});
