import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FileSessionStore,
  GeminiCliAgent,
  MemorySessionStore,
  subagent,
  tool,
  z,
  type ApprovalRequest,
  type ServerGeminiStreamEvent,
  type SessionStore,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn, type ScriptedTurn } from '../../src/testing/index.js';
import type { Content, GenerateContentParameters } from '@google/genai';
import {
  activities,
  completeTurn,
  declaredTools,
  drain,
  invokeTurn,
  lastResponses,
} from './helpers.js';

const worker = subagent({
  name: 'worker',
  description: 'Changes things',
  instructions: 'Work.',
  tools: ['risky'],
});

/** `risky` asks a human (a rule); each run is recorded in `runs` with the agent that ran it. */
function agentWith(
  model: ScriptedModel,
  where: string | SessionStore,
  runs: string[],
  label: string,
) {
  const risky = tool(
    {
      name: 'risky',
      description: 'Changes things',
      inputSchema: z.object({ what: z.string() }),
      kind: 'edit',
    },
    ({ what }) => {
      runs.push(`${label}:${what}`);
      return `changed ${what}`;
    },
  );
  return new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    systemPrompt: 'none',
    sessionContext: false,
    retry: false,
    subagents: [worker],
    tools: [risky],
    approvals: 'pause',
    policy: { rules: [{ toolName: 'risky', decision: 'ask_user' }] },
    sessionStore: typeof where === 'string' ? new FileSessionStore({ chatsDir: where }) : where,
  });
}

function pendingOf(events: readonly ServerGeminiStreamEvent[]): ApprovalRequest[] {
  const last = events.at(-1);
  expect(last?.type).toBe('approval_required');
  return last?.type === 'approval_required' ? last.value.pending : [];
}

function invokeCallId(events: readonly ServerGeminiStreamEvent[]): string | undefined {
  const request = events.find((e) => e.type === 'tool_call_request');
  return request?.type === 'tool_call_request' ? request.value.callId : undefined;
}

/** What a subagent is told about a call the human refused (gemini-cli's text). */
function rejected(message?: string): string {
  return (
    `User rejected this operation.${message ? ` ${message}` : ''} Please acknowledge this, rethink your ` +
    'strategy, and try a different approach. If you cannot proceed without the rejected operation, summarize ' +
    'the issue and use `complete_task` to report your findings and the blocker.'
  );
}

/** The parent's model call after the subagent finished: it gets gemini-cli's finished text. */
function expectFinished(result: string): ScriptedTurn {
  return (request) => {
    const [response] = lastResponses(request) as Array<{ output?: string }>;
    expect(response?.output).toBe(
      `Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\n${result}`,
    );
    return textTurn('all done');
  };
}

describe("durable approvals (approvals: 'pause') inside a subagent", () => {
  it('ends the parent turn with approval_required naming the subagent; allow runs the tool and finishes', async () => {
    const chatsDir = mkdtempSync(join(tmpdir(), 'subagent-pause-'));
    const runs: string[] = [];
    const model = new ScriptedModel([
      invokeTurn('worker', 'change a', 'inv'),
      callTurn({ name: 'risky', args: { what: 'a' } }),
      (request) => {
        expect(lastResponses(request)).toEqual([{ output: 'changed a' }]);
        return completeTurn({ result: 'a changed' });
      },
      expectFinished('a changed'),
    ]);
    await using agent = agentWith(model, chatsDir, runs, 'one');
    const session = agent.session();
    const first = await drain(session.sendStream('go'));
    const [pending] = pendingOf(first);
    const [run] = activities(first);
    expect(pending).toMatchObject({
      toolName: 'risky',
      args: { what: 'a' },
      subagent: 'worker',
      subagentRun: { agentId: run?.agentId, parentCallId: invokeCallId(first) },
    });
    expect(session.pendingApprovals).toEqual([pending]);
    expect(runs).toEqual([]);
    // The parent's call is neither answered nor failed while the subagent waits.
    expect(first.some((e) => e.type === 'tool_call_response')).toBe(false);

    const second = await drain(
      session.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]),
    );
    model.assertComplete();
    expect(runs).toEqual(['one:a']);
    expect(session.pendingApprovals).toEqual([]);
    const inner = activities(second).map((a) => a.event.type);
    expect(inner).toContain('tool_call_response');
    expect(activities(second).every((a) => a.agentId === run?.agentId)).toBe(true);
    const answered = second.find((e) => e.type === 'tool_call_response');
    expect(answered?.type === 'tool_call_response' && answered.value.name).toBe('invoke_agent');
    // The transcript holds the whole run: the held call, its result and complete_task.
    const transcript = readFileSync(join(chatsDir, session.id, `${run?.agentId}.jsonl`), 'utf8');
    expect(transcript).toContain('changed a');
    expect(transcript).toContain('complete_task');
  });

  it('a fresh agent over the same store continues the run from its transcript (allow, then deny)', async () => {
    const chatsDir = mkdtempSync(join(tmpdir(), 'subagent-pause-'));
    const runs: string[] = [];
    const before = new ScriptedModel([
      invokeTurn('worker', 'change a and b'),
      callTurn({ name: 'risky', args: { what: 'a' } }),
    ]);
    const first = agentWith(before, chatsDir, runs, 'old');
    const session = first.session();
    const [pendingA] = pendingOf(await drain(session.sendStream('go')));
    const id = session.id;
    await first.close();

    const after = new ScriptedModel([
      (request) => {
        expect(lastResponses(request)).toEqual([{ output: 'changed a' }]);
        return callTurn({ name: 'risky', args: { what: 'b' } });
      },
      (request) => {
        const [response] = lastResponses(request) as Array<{ error?: string }>;
        // gemini-cli's text for a refusal inside a subagent, as through onApproval.
        expect(response?.error).toBe(rejected('Not b.'));
        return completeTurn({ result: 'a only' });
      },
      expectFinished('a only'),
    ]);
    await using second = agentWith(after, chatsDir, runs, 'new');
    const resumed = await second.resumeSession(id);
    expect(resumed.pendingApprovals).toEqual([pendingA]);
    expect(pendingA).toMatchObject({ subagent: 'worker', args: { what: 'a' } });
    // The approved call runs the new agent's registered tool; the run then holds again for b.
    const [pendingB] = pendingOf(
      await drain(
        resumed.resolveApprovals([{ callId: pendingA?.callId ?? '', decision: 'allow' }]),
      ),
    );
    expect(runs).toEqual(['new:a']);
    expect(pendingB).toMatchObject({
      toolName: 'risky',
      args: { what: 'b' },
      subagent: 'worker',
      subagentRun: { agentId: pendingA?.subagentRun?.agentId },
    });
    await second.close();

    // Another process again: the deny is answered inside the subagent as the parent answers its own.
    await using third = agentWith(after, chatsDir, runs, 'third');
    const last = await third.resumeSession(id);
    expect(last.pendingApprovals).toEqual([pendingB]);
    const events = await drain(
      last.resolveApprovals([
        { callId: pendingB?.callId ?? '', decision: { decision: 'deny', message: 'Not b.' } },
      ]),
    );
    after.assertComplete();
    expect(runs).toEqual(['new:a']);
    expect(events.at(-1)?.type).not.toBe('approval_required');
    const history = last.getHistory();
    expect(JSON.stringify(history.at(-2))).toContain("Subagent 'worker' finished.");
  });

  it('a new prompt instead of a decision answers the held invoke_agent call as not approved', async () => {
    const chatsDir = mkdtempSync(join(tmpdir(), 'subagent-pause-'));
    const runs: string[] = [];
    const model = new ScriptedModel([
      invokeTurn('worker', 'change a'),
      callTurn({ name: 'risky', args: { what: 'a' } }),
      (request) => {
        // The answer to the held call, the request's filler model turn, then the prompt.
        const contents = request.contents as Content[];
        const answer = contents.at(-3)?.parts?.[0]?.functionResponse;
        expect(answer?.name).toBe('invoke_agent');
        expect(answer?.response).toEqual({
          error: 'The call was not approved before the next message was sent, so it did not run.',
        });
        return textTurn('fine');
      },
    ]);
    await using agent = agentWith(model, chatsDir, runs, 'one');
    const session = agent.session();
    pendingOf(await drain(session.sendStream('go')));
    await drain(session.sendStream('never mind'));
    model.assertComplete();
    expect(runs).toEqual([]);
    expect(session.pendingApprovals).toEqual([]);
  });

  it('two subagents waiting in one parent turn: each decision reaches its run', async () => {
    const chatsDir = mkdtempSync(join(tmpdir(), 'subagent-pause-'));
    const runs: string[] = [];
    /** Answers any model call of the turn, in whatever order the two runs make them. */
    const step = (request: GenerateContentParameters) => {
      if (declaredTools(request).includes('invoke_agent')) {
        const texts = (lastResponses(request) as Array<{ output?: string }>).map((r) => r.output);
        if (texts.length === 0) {
          return callTurn(
            { name: 'invoke_agent', args: { agent_name: 'worker', prompt: 'x' } },
            { name: 'invoke_agent', args: { agent_name: 'worker', prompt: 'y' } },
          );
        }
        expect(texts.sort()).toEqual([
          "Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\nx: changed x",
          `Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\ny: ${rejected()}`,
        ]);
        return textTurn('both done');
      }
      const task = JSON.stringify(request.contents).includes('"text":"x"') ? 'x' : 'y';
      const [response] = lastResponses(request) as Array<{ output?: string; error?: string }>;
      if (response === undefined) return callTurn({ name: 'risky', args: { what: task } });
      return completeTurn({ result: `${task}: ${response.output ?? response.error ?? ''}` });
    };
    const model = new ScriptedModel(Array.from({ length: 6 }, () => step));
    await using agent = agentWith(model, chatsDir, runs, 'one');
    const session = agent.session();
    const pending = pendingOf(await drain(session.sendStream('go')));
    expect(pending.map((p) => p.args['what']).sort()).toEqual(['x', 'y']);
    const agentIds = new Set(pending.map((p) => p.subagentRun?.agentId));
    expect(agentIds.size).toBe(2);
    const x = pending.find((p) => p.args['what'] === 'x');
    const y = pending.find((p) => p.args['what'] === 'y');
    await drain(
      session.resolveApprovals([
        { callId: x?.callId ?? '', decision: 'allow' },
        { callId: y?.callId ?? '', decision: 'deny' },
      ]),
    );
    model.assertComplete();
    expect(runs).toEqual(['one:x']);
  });

  it('works the same over a MemorySessionStore shared by two agents', async () => {
    const store = new MemorySessionStore();
    const runs: string[] = [];
    const first = agentWith(
      new ScriptedModel([
        invokeTurn('worker', 'change a'),
        callTurn({ name: 'risky', args: { what: 'a' } }),
      ]),
      store,
      runs,
      'old',
    );
    const session = first.session();
    const [pending] = pendingOf(await drain(session.sendStream('go')));
    await first.close();
    const model = new ScriptedModel([completeTurn({ result: 'done' }), expectFinished('done')]);
    await using second = agentWith(model, store, runs, 'new');
    const resumed = await second.resumeSession(session.id);
    await drain(resumed.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]));
    model.assertComplete();
    expect(runs).toEqual(['new:a']);
  });
});
