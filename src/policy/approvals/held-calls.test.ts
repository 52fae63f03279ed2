import type { FunctionCall } from '@google/genai';
import { describe, expect, it } from 'vitest';
import type { ResumableTool } from '../../core/held-call.js';
import { ConfigurationError } from '../../errors.js';
import type { ApprovalRequest, ToolCallRequestInfo } from '../../events.js';
import type { SessionContext } from '../../core/session-context.js';
import { resolvePause } from './approval-resolution.js';
import {
  closingResponses,
  NOT_APPROVED_MESSAGE,
  parsePausedTurn,
  pausedTurnRecord,
  pendingRequests,
} from './paused-turn.js';

const inner: ApprovalRequest = {
  callId: 'risky__r-1',
  toolName: 'risky',
  args: { what: 'a' },
  description: 'Changes a',
  kind: 'edit',
  subagent: 'worker',
  subagentRun: { agentId: 'run-1', parentCallId: 'invoke_agent__i-1' },
};
const request: ToolCallRequestInfo = {
  callId: 'invoke_agent__i-1',
  name: 'invoke_agent',
  args: { agent_name: 'worker', prompt: 'p' },
  isClientInitiated: false,
  prompt_id: 's',
};
const calls = new Map<string, FunctionCall>([
  [request.callId, { id: request.callId, name: request.name, args: request.args }],
]);
const resumed: unknown[] = [];
const invokeAgent: ResumableTool = {
  name: 'invoke_agent',
  displayName: 'Invoke Subagent',
  description: 'd',
  kind: 'other',
  parametersJsonSchema: { type: 'object' },
  validate: (args) => ({ ok: true, args }),
  describe: () => 'Delegating',
  execute: () => Promise.resolve({ llmContent: 'ran' }),
  resumeHeld: (hold) => {
    resumed.push(hold);
    return Promise.resolve({ llmContent: 'resumed' });
  },
};
const now = new Date(1_700_000_000_000);

/** A paused turn whose one call (invoke_agent) its tool holds for the subagent's `risky` call. */
function heldRecord() {
  const record = pausedTurnRecord(
    {
      outcomes: [
        {
          kind: 'held',
          held: {
            input: { request },
            tool: invokeAgent,
            args: request.args,
            hold: { approvals: [inner], state: { agentId: 'run-1' } },
          },
        },
      ],
    },
    now,
  );
  return parsePausedTurn(JSON.parse(JSON.stringify(record))) ?? record;
}

function resolveWith(decisions: Parameters<typeof resolvePause>[0]['decisions'], tool = true) {
  return resolvePause({
    record: heldRecord(),
    decisions,
    calls,
    toolFor: (name) => (tool && name === 'invoke_agent' ? invokeAgent : undefined),
    validatedArgs: new Map(),
    sessionId: 's',
    now,
  });
}

describe('calls held by their tool (a subagent waiting for approvals)', () => {
  it('are stored with their inner requests, which are what waits', () => {
    const record = heldRecord();
    expect(record.calls).toEqual([
      {
        state: 'held',
        callId: request.callId,
        toolName: 'invoke_agent',
        requests: [inner],
        data: { agentId: 'run-1' },
      },
    ]);
    expect(pendingRequests(record)).toEqual([inner]);
  });

  it("hand the inner decisions to the tool's resumeHeld; the decided record is resuming", async () => {
    resumed.length = 0;
    const resolution = resolveWith([{ callId: inner.callId, decision: 'allow' }]);
    expect(resolution.record.calls[0]?.state).toBe('resuming');
    expect(resolution.start.decisions).toEqual([{ callId: request.callId, outcome: 'allow' }]);
    expect(resolution.verdicts).toEqual([]);
    const [outcome] = resolution.start.paused.outcomes;
    if (outcome?.kind !== 'paused') throw new Error('expected the held call to continue');
    const signal = new AbortController().signal;
    const ctx = { signal } as unknown as SessionContext; // resumeHeld here reads nothing of it
    const result = await outcome.paused.tool.execute(request.args, ctx, {
      callId: request.callId,
      signal,
    });
    expect(result).toEqual({ llmContent: 'resumed' });
    expect(resumed).toEqual([
      { state: { agentId: 'run-1' }, decisions: [{ callId: inner.callId, decision: 'allow' }] },
    ]);
  });

  it('closing: undecided → not approved; resuming when the process died → interrupted, never run again', () => {
    const [open] = closingResponses(heldRecord(), calls, 's');
    expect(open).toMatchObject({ callId: request.callId, errorType: 'cancelled' });
    expect(open?.error?.message).toBe(NOT_APPROVED_MESSAGE);
    const decided = resolveWith([{ callId: inner.callId, decision: 'allow' }]).record;
    const [died] = closingResponses(decided, calls, 's');
    expect(died).toMatchObject({ callId: request.callId, errorType: 'interrupted' });
  });

  it('fail closed: an unknown id throws; a tool that is gone denies every inner request', () => {
    expect(() => resolveWith([{ callId: 'nope', decision: 'allow' }])).toThrow(ConfigurationError);
    const gone = resolveWith([{ callId: inner.callId, decision: 'allow' }], false);
    expect(gone.denied[0]?.error?.message).toBe(
      'Tool execution denied: the tool "invoke_agent" is no longer available.',
    );
    expect(gone.verdicts).toMatchObject([{ request: inner, decision: 'deny' }]);
    expect(gone.start.decisions).toEqual([]);
  });
});
