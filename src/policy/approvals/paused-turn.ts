import type { FunctionCall, Part } from '@google/genai';
import { z } from 'zod';
import type { ApprovalRequest, ToolCallRequestInfo, ToolCallResponseInfo } from '../../events.js';
import { TODO_STATUSES } from '../../core/agent-tool.js';
import type { PausedTurn } from '../../loop/loop-types.js';
import { createPendingApproval, PendingApproval } from './pending-approvals.js';
import { interruptedToolMessage } from '../../sessions/history-from-records.js';
import { errorResponse } from '../../tools/tool-response.js';

/** Version of {@link PausedTurnRecord}, the paused-turn record stored with a session. */
export const PAUSED_TURN_VERSION = 1;

const PartObject = z.custom<Part>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'expected a Part object',
);

/** A call's response as stored in a paused turn (a `ToolCallResponseInfo`). */
export const StoredToolResponse = z.object({
  callId: z.string(),
  name: z.string(),
  responseParts: z.array(PartObject),
  // Text, or gemini-cli's TodoList of a write_todos call.
  resultDisplay: z
    .union([
      z.string(),
      z.object({
        todos: z.array(z.object({ description: z.string(), status: z.enum(TODO_STATUSES) })),
      }),
    ])
    .optional(),
  error: z.object({ message: z.string(), type: z.string().optional() }).optional(),
  errorType: z.string().optional(),
  durationMs: z.number().optional(),
});
/** A call's response as stored in a paused turn. */
export type StoredToolResponse = z.infer<typeof StoredToolResponse>;

const Request = z.custom<ApprovalRequest>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApprovalRequest).callId === 'string',
  'expected an approval request',
);

/** A call whose tool holds it for approvals inside it (a subagent's), as stored: `held`, then `resuming`. */
const HeldCallFields = {
  callId: z.string().min(1),
  toolName: z.string().min(1),
  /** The inner requests the human decides (their call ids are the inner calls'). */
  requests: z.array(Request).min(1),
  /** What the tool needs to continue (`ToolHold.state`). */
  data: z.record(z.string(), z.unknown()),
};

/**
 * One call of a paused model turn, in call order:
 * - `done`: answered before the pause (it ran, or was refused), response kept until the turn resumes;
 * - `pending`: waits for a human, bound to the hash of its arguments;
 * - `allowed` / `denied`: decided by `resolveApprovals`, stored before any approved tool starts, so a crash after
 *   deciding can never run a tool twice (an `allowed` call whose result was not stored is answered as interrupted).
 */
export const PausedCall = z.discriminatedUnion('state', [
  z.object({ state: z.literal('done'), response: StoredToolResponse }),
  z.object({ state: z.literal('pending'), approval: PendingApproval }),
  z.object({ state: z.literal('allowed'), approval: PendingApproval }),
  z.object({
    state: z.literal('denied'),
    approval: PendingApproval,
    response: StoredToolResponse,
  }),
  // Held by its tool (its inner requests wait), then decided: its tool continues it (`resumeHeld`).
  z.object({ state: z.literal('held'), ...HeldCallFields }),
  z.object({ state: z.literal('resuming'), ...HeldCallFields }),
]);
/** One call of a paused model turn. */
export type PausedCall = z.infer<typeof PausedCall>;

/** A model turn held for approvals, as stored with the session (`approvals: 'pause'`). */
export const PausedTurnRecord = z.object({
  version: z.literal(PAUSED_TURN_VERSION),
  /** ISO time the turn paused. */
  pausedAt: z.string(),
  /** ISO time `resolveApprovals` decided every call; set before any approved tool runs. */
  resolvedAt: z.string().optional(),
  calls: z.array(PausedCall).min(1),
});
/** A model turn held for approvals, as stored with the session. */
export type PausedTurnRecord = z.infer<typeof PausedTurnRecord>;

/** The record of a turn the loop just paused: answered calls keep their responses, held calls bind their args. */
export function pausedTurnRecord(paused: PausedTurn, now: Date): PausedTurnRecord {
  return {
    version: PAUSED_TURN_VERSION,
    pausedAt: now.toISOString(),
    calls: paused.outcomes.map((o): PausedCall => {
      if (o.kind === 'done') return { state: 'done', response: o.response };
      if (o.kind === 'held') {
        const { request } = o.held.input;
        return {
          state: 'held',
          callId: request.callId,
          toolName: request.name,
          requests: [...o.held.hold.approvals],
          data: { ...o.held.hold.state },
        };
      }
      return {
        state: 'pending',
        approval: createPendingApproval(o.paused.approval, now.getTime()),
      };
    }),
  };
}

/** Validates a stored paused turn; undefined when it is not one (then nothing waits for approval). */
export function parsePausedTurn(data: unknown): PausedTurnRecord | undefined {
  const parsed = PausedTurnRecord.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}

/** What the human is asked about: the calls still waiting, in call order. */
export function pendingRequests(record: PausedTurnRecord): ApprovalRequest[] {
  return record.calls.flatMap((c) => {
    if (c.state === 'pending') return [c.approval.request];
    return c.state === 'held' ? c.requests : [];
  });
}

/** The function calls of the last model turn of a history, by call id. */
export function lastModelCalls(history: readonly { role?: string; parts?: Part[] }[]) {
  const calls = new Map<string, FunctionCall>();
  const model = [...history].reverse().find((c) => c.role === 'model');
  for (const part of model?.parts ?? []) {
    const call = part.functionCall;
    if (call?.id !== undefined) calls.set(call.id, call);
  }
  return calls;
}

/** The `tool_call_request` value of a held call: its name and arguments as the model sent them (history). */
export function heldCallRequest(
  approval: PendingApproval,
  call: FunctionCall | undefined,
  sessionId: string,
): ToolCallRequestInfo {
  return heldToolRequest(approval, call, sessionId, approval.request.args);
}

/**
 * The `tool_call_request` value of a call held for approvals (by the policy, or by its tool): its name and
 * arguments as the model sent them, else as stored (`args`).
 */
export function heldToolRequest(
  held: { callId: string; toolName: string },
  call: FunctionCall | undefined,
  sessionId: string,
  args: Record<string, unknown> = {},
): ToolCallRequestInfo {
  return {
    callId: held.callId,
    name: call?.name ?? held.toolName,
    args: (call?.args as Record<string, unknown> | undefined) ?? args,
    isClientInitiated: false,
    prompt_id: sessionId,
  };
}

/** What the model is told about a held call that was never decided because a new prompt came first. */
export const NOT_APPROVED_MESSAGE =
  'The call was not approved before the next message was sent, so it did not run.';

/**
 * The responses that close a paused turn without resuming it, in call order: answered calls keep their response,
 * decided denials theirs; a call still pending did not run (`cancelled`); an `allowed` call whose result was never
 * stored is `interrupted` — the process died while it ran, so whether it ran is unknown, and it is not run again.
 */
export function closingResponses(
  record: PausedTurnRecord,
  calls: ReadonlyMap<string, FunctionCall>,
  sessionId: string,
): ToolCallResponseInfo[] {
  return record.calls.map((c) => {
    if (c.state === 'done' || c.state === 'denied') return c.response;
    const request =
      c.state === 'held' || c.state === 'resuming'
        ? heldToolRequest(c, calls.get(c.callId), sessionId)
        : heldCallRequest(c.approval, calls.get(c.approval.callId), sessionId);
    return c.state === 'allowed' || c.state === 'resuming'
      ? errorResponse(request, interruptedToolMessage(request.name), 'interrupted')
      : errorResponse(request, NOT_APPROVED_MESSAGE, 'cancelled');
  });
}
