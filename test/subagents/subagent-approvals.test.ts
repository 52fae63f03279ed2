import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FileSessionStore,
  GeminiCliAgent,
  subagent,
  tool,
  z,
  type ApprovalRequest,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn, type ScriptedTurn } from '../../src/testing/index.js';
import { activities, completeTurn, drain, invokeTurn, lastResponses } from './helpers.js';

const worker = subagent({
  name: 'worker',
  description: 'Changes things',
  instructions: 'Work.',
  tools: ['risky'],
});

/** `risky` asks a human (a rule); each run is recorded in `runs` with the agent that ran it. */
function agentWith(model: ScriptedModel, chatsDir: string, runs: string[], label: string) {
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
    sessionStore: new FileSessionStore({ chatsDir }),
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
        expect(response?.error).toBe('User denied execution. Not b.');
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
});
