import type { FunctionCall } from '@google/genai';
import { ConfigurationError, InternalError } from '../../errors.js';
import type { ApprovalRequest, ToolCallResponseInfo } from '../../events.js';
import type { ApprovalOutcome, LoopStart, PausedTurn } from '../../loop/loop-types.js';
import {
  normalizeApprovalResponse,
  type ApprovalDecision,
  type ApprovalScope,
  type ApprovalResponse,
} from './approval-response.js';
import {
  resolvePendingApprovals,
  type ApprovalResolution,
  type ResolvedApproval,
} from './pending-approvals.js';
import type { ToolCallOutcome } from '../../tools/tool-scheduler.js';
import { errorResponse } from '../../tools/tool-response.js';
import type { AgentTool } from '../../core/agent-tool.js';
import {
  heldCallRequest,
  heldToolRequest,
  type PausedCall,
  type PausedTurnRecord,
} from './paused-turn.js';
import { isResumableTool } from '../../core/held-call.js';

/**
 * One decision passed to `session.resolveApprovals()`: `{ callId, decision }` where `decision` is `'allow'`,
 * `'allow_always'`, `'deny'` or `{ decision, message }`, optionally with the `argsHash` the human saw; the
 * earlier `{ callId, outcome: 'allow' | 'deny', message? }` form is accepted too.
 */
export type SessionApprovalDecision = ApprovalResolution | ApprovalOutcome;

/** What the model is told about a held call that got no decision in `resolveApprovals`. */
export const NO_DECISION_MESSAGE = 'Tool execution denied: no decision was given for this call.';

/** What resolving a paused turn produced. */
export interface PauseResolution {
  /** The record with every call decided (`resolvedAt` set): store it before running anything. */
  record: PausedTurnRecord;
  /** Responses of the calls refused now (by the human, or failing closed), in call order. */
  denied: ToolCallResponseInfo[];
  /** How the loop continues: the approved calls run, the rest are answered. */
  start: Extract<LoopStart, { kind: 'approvals' }>;
  /**
   * What to record in the session's approval log, per held call: the human's decision, or `deny` with the reason
   * when the call failed closed (`allow_always` only when the call was actually allowed).
   */
  verdicts: Array<{
    request: ApprovalRequest;
    decision: ApprovalDecision;
    message?: string;
    /** `'server'` when an `allow_always` covers the MCP tool's whole server. */
    scope?: ApprovalScope;
    /** True when the human gave no decision for the call (it is denied by default). */
    undecided?: true;
  }>;
}

/** Inputs of {@link resolvePause}. */
export interface ResolvePauseInput {
  record: PausedTurnRecord;
  decisions: readonly SessionApprovalDecision[];
  /** The function calls of the paused model turn, from the (persisted) history. */
  calls: ReadonlyMap<string, FunctionCall>;
  /** The tool that would run a call now, by name (undefined when it is no longer offered). */
  toolFor(name: string): AgentTool | undefined;
  /** Each held call's arguments from `calls`, validated as its tool would receive them (raw when invalid). */
  validatedArgs: ReadonlyMap<string, Record<string, unknown>>;
  sessionId: string;
  now: Date;
  /** Approvals older than this are denied. */
  approvalTtlMs?: number;
}

/** The tool an approved call runs with, or why the call is refused. */
function decide(
  verdict: ResolvedApproval | undefined,
  toolName: string,
  toolFor: (name: string) => AgentTool | undefined,
): { tool: AgentTool } | { tool?: undefined; refusal: string } {
  if (verdict === undefined || verdict.outcome === 'pending')
    return { refusal: NO_DECISION_MESSAGE };
  if (verdict.outcome === 'deny') return { refusal: verdict.message };
  const tool = toolFor(toolName);
  if (tool === undefined) {
    return { refusal: `Tool execution denied: the tool "${toolName}" is no longer available.` };
  }
  return { tool };
}

function decisionCallId(decision: SessionApprovalDecision): string {
  const callId = (decision as { callId?: unknown } | null)?.callId;
  return typeof callId === 'string' ? callId : '';
}

/**
 * A held call's part of the resolution: its tool continues it with the decisions of its inner requests (a
 * subagent decides them against its own transcript), or — its tool or call gone — it is refused.
 */
function resumeHeldCall(
  call: Extract<PausedCall, { state: 'held' }>,
  decisions: readonly SessionApprovalDecision[],
  input: ResolvePauseInput,
): {
  outcome: ToolCallOutcome;
  decided: PausedCall;
  verdicts: PauseResolution['verdicts'];
} {
  const model = input.calls.get(call.callId);
  const request = heldToolRequest(call, model, input.sessionId);
  const tool = input.toolFor(request.name);
  const { state: _held, ...fields } = call;
  if (model === undefined || !isResumableTool(tool)) {
    const message =
      model === undefined
        ? 'Tool execution denied: the call is no longer part of the conversation.'
        : `Tool execution denied: the tool "${request.name}" is no longer available.`;
    const response = errorResponse(request, message, 'policy_violation');
    return {
      outcome: { kind: 'done', response },
      decided: { state: 'done', response },
      verdicts: call.requests.map((r) => ({ request: r, decision: 'deny', message })),
    };
  }
  const state = call.data;
  const resumer: AgentTool = {
    ...tool,
    execute: (args, ctx, info) => tool.resumeHeld({ state, decisions }, args, ctx, info),
  };
  return {
    outcome: {
      kind: 'paused',
      paused: {
        input: { request },
        tool: resumer,
        args: request.args,
        approval: call.requests[0] as ApprovalRequest,
      },
    },
    decided: { state: 'resuming', ...fields },
    verdicts: [],
  };
}

function toResolution(decision: SessionApprovalDecision): ApprovalResolution {
  if (typeof decision === 'object' && decision !== null && 'outcome' in decision) {
    const answer: ApprovalResponse =
      decision.message === undefined
        ? decision.outcome
        : { decision: decision.outcome, message: decision.message };
    return { callId: decision.callId, decision: answer };
  }
  return decision;
}

/**
 * Applies human decisions to a paused turn, failing closed (see `resolvePendingApprovals`): a decision naming no
 * waiting call throws before anything changes; a call whose arguments changed since it paused (the stored hash
 * against the arguments in the persisted history, validated as the tool would receive them, and against the
 * `argsHash` the human saw), whose approval expired, whose tool is gone, or that got no decision is denied.
 *
 * @throws ConfigurationError for an invalid decision or an unknown call id (nothing is run or recorded).
 */
export function resolvePause(input: ResolvePauseInput): PauseResolution {
  const { record, calls, toolFor, sessionId, now } = input;
  const pending = record.calls.flatMap((c) => (c.state === 'pending' ? [c.approval] : []));
  // Decisions about a held call's inner requests go to its tool, which decides them where they wait.
  const innerOwner = new Map<string, string>();
  for (const c of record.calls) {
    if (c.state === 'held') for (const r of c.requests) innerOwner.set(r.callId, c.callId);
  }
  const innerDecisions = new Map<string, SessionApprovalDecision[]>();
  const own: SessionApprovalDecision[] = [];
  for (const d of input.decisions) {
    const owner = innerOwner.get(decisionCallId(d));
    if (owner === undefined) own.push(d);
    else innerDecisions.set(owner, [...(innerDecisions.get(owner) ?? []), d]);
  }
  const currentArgs = (callId: string): Record<string, unknown> | undefined => {
    const call = calls.get(callId);
    if (call === undefined) return undefined;
    return (
      input.validatedArgs.get(callId) ?? (call.args as Record<string, unknown> | undefined) ?? {}
    );
  };
  const result = resolvePendingApprovals(pending, own.map(toResolution), now.getTime(), {
    currentArgs,
    ...(input.approvalTtlMs === undefined ? {} : { approvalTtlMs: input.approvalTtlMs }),
  });
  if (result.unknownIds.length > 0) {
    throw new ConfigurationError(
      `No call with id ${result.unknownIds.map((id) => JSON.stringify(id)).join(', ')} is waiting for approval ` +
        `in session ${sessionId}. Waiting: ${[...pending.map((p) => p.callId), ...innerOwner.keys()].map((id) => JSON.stringify(id)).join(', ')} ` +
        '(session.pendingApprovals). Nothing was run or recorded.',
      { code: 'APPROVAL_UNKNOWN_CALL' },
    );
  }
  const byId = new Map<string, ResolvedApproval>(result.results.map((r) => [r.callId, r]));
  const humanMessage = new Map<string, string | undefined>();
  for (const d of own.map(toResolution)) {
    humanMessage.set(d.callId, normalizeApprovalResponse(d.decision).message);
  }
  const verdicts: PauseResolution['verdicts'] = [];

  const outcomes: ToolCallOutcome[] = [];
  const decided: PausedCall[] = [];
  const denied: ToolCallResponseInfo[] = [];
  const allowed: ApprovalOutcome[] = [];
  for (const call of record.calls) {
    if (call.state === 'done') {
      outcomes.push({ kind: 'done', response: call.response });
      decided.push(call);
      continue;
    }
    if (call.state === 'held') {
      const held = resumeHeldCall(call, innerDecisions.get(call.callId) ?? [], input);
      outcomes.push(held.outcome);
      decided.push(held.decided);
      verdicts.push(...held.verdicts);
      if (held.outcome.kind === 'done') denied.push(held.outcome.response);
      else allowed.push({ callId: call.callId, outcome: 'allow' });
      continue;
    }
    if (call.state !== 'pending') {
      throw new InternalError('A paused turn that was already resolved cannot be resolved again.');
    }
    const { approval } = call;
    const request = heldCallRequest(approval, calls.get(approval.callId), sessionId);
    const verdict = decide(byId.get(approval.callId), request.name, toolFor);
    const resolved = byId.get(approval.callId);
    if (verdict.tool === undefined) {
      const userDeny = resolved?.outcome === 'deny' && resolved.reason === 'user';
      const message = userDeny ? humanMessage.get(approval.callId) : verdict.refusal;
      const undecided = resolved === undefined || resolved.outcome === 'pending';
      verdicts.push({
        request: approval.request,
        decision: 'deny',
        ...(message === undefined ? {} : { message }),
        ...(undecided ? { undecided: true as const } : {}),
      });
      const response = errorResponse(request, verdict.refusal, 'policy_violation');
      outcomes.push({ kind: 'done', response });
      decided.push({ state: 'denied', approval, response });
      denied.push(response);
      continue;
    }
    const { tool } = verdict;
    const args = currentArgs(approval.callId) ?? approval.request.args;
    outcomes.push({
      kind: 'paused',
      paused: { input: { request }, tool, args, approval: approval.request },
    });
    decided.push({ state: 'allowed', approval });
    const always = resolved?.outcome === 'allow' && resolved.always;
    verdicts.push({
      request: approval.request,
      decision: always ? 'allow_always' : 'allow',
      ...(always && resolved.scope !== undefined ? { scope: resolved.scope } : {}),
    });
    allowed.push({ callId: approval.callId, outcome: 'allow' });
  }
  const paused: PausedTurn = { outcomes };
  return {
    record: { ...record, resolvedAt: now.toISOString(), calls: decided },
    denied,
    start: { kind: 'approvals', paused, decisions: allowed },
    verdicts,
  };
}
