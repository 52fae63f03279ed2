import { z } from 'zod';
import type { ApprovalRequest } from '../../events.js';
import { ConfigurationError } from '../../errors.js';
import {
  ApprovalResponse,
  normalizeApprovalResponse,
  type ApprovalScope,
  userDeniedMessage,
} from './approval-response.js';
import { argsHash } from '../stable-stringify.js';

/**
 * A call paused for approval, as the session persists it: bound to the sha256 of its arguments at pause time, so
 * a decision can never apply to other arguments.
 */
export const PendingApproval = z.object({
  callId: z.string().min(1),
  toolName: z.string().min(1),
  /** sha256 of the canonical JSON of the arguments when the call paused. */
  argsHash: z.string().regex(/^[0-9a-f]{64}$/, 'argsHash must be a sha256 hex digest'),
  /** Epoch milliseconds when the call paused. */
  requestedAt: z.number().int().nonnegative(),
  /** What the human is shown. */
  request: z.custom<ApprovalRequest>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as ApprovalRequest).callId === 'string',
    'request must be an approval request',
  ),
});
/** A call paused for approval (see the schema). */
export type PendingApproval = z.infer<typeof PendingApproval>;

/** One decision passed to `session.resolveApprovals()`. */
export const ApprovalResolution = z
  .object({
    callId: z.string().min(1),
    decision: ApprovalResponse,
    /** Optional: the hash of the arguments the human saw; a mismatch denies. */
    argsHash: z.string().optional(),
  })
  .strict();
/** One decision passed to `session.resolveApprovals()`. */
export type ApprovalResolution = z.infer<typeof ApprovalResolution>;

/** Why a pending call was denied without running. */
export type ApprovalFailure = 'user' | 'args_changed' | 'expired';

/** The outcome for one pending call. */
export type ResolvedApproval =
  | { callId: string; outcome: 'allow'; always: boolean; scope?: ApprovalScope }
  | { callId: string; outcome: 'deny'; reason: ApprovalFailure; message: string }
  | { callId: string; outcome: 'pending' };

/** Result of {@link resolvePendingApprovals}. */
export interface ApprovalResolutionResult {
  /** One entry per pending call, in pending order. */
  results: ResolvedApproval[];
  /** Decisions naming a call that is not pending; they change nothing. */
  unknownIds: string[];
}

/** Options of {@link resolvePendingApprovals}. */
export interface ResolveApprovalsOptions {
  /** Pending approvals older than this (ms since `requestedAt`) are denied. Default: no expiry. */
  approvalTtlMs?: number;
  /** The arguments each call would run with now (from the persisted history), to re-check the hash. */
  currentArgs?: (callId: string) => Record<string, unknown> | undefined;
}

/** Binds a call paused now to its arguments. */
export function createPendingApproval(request: ApprovalRequest, now: number): PendingApproval {
  return {
    callId: request.callId,
    toolName: request.toolName,
    argsHash: argsHash(request.args),
    requestedAt: now,
    request,
  };
}

/**
 * Applies human decisions to paused calls, failing closed: a decision for an unknown id changes nothing (and is
 * reported), a call whose arguments changed since it paused (hash mismatch against the stored hash, the
 * request's args, the current args, or the hash the human saw) or whose approval expired is denied. Calls with
 * no decision stay pending.
 */
export function resolvePendingApprovals(
  pending: readonly PendingApproval[],
  decisions: readonly ApprovalResolution[],
  now: number,
  options: ResolveApprovalsOptions = {},
): ApprovalResolutionResult {
  const byId = new Map<string, ApprovalResolution>();
  for (const decision of decisions) {
    const parsed = ApprovalResolution.safeParse(decision);
    if (!parsed.success) {
      throw new ConfigurationError(
        `Invalid approval decision ${JSON.stringify(decision)}: pass { callId, decision: 'allow' | ` +
          "'allow_always' | 'deny' | { decision, message, scope } }.",
      );
    }
    byId.set(parsed.data.callId, parsed.data);
  }
  const pendingIds = new Set(pending.map((p) => p.callId));
  const unknownIds = [...byId.keys()].filter((id) => !pendingIds.has(id));

  const results = pending.map((entry): ResolvedApproval => {
    const resolution = byId.get(entry.callId);
    if (!resolution) return { callId: entry.callId, outcome: 'pending' };
    const answer = normalizeApprovalResponse(resolution.decision);
    const current = options.currentArgs?.(entry.callId);
    if (options.currentArgs && current === undefined) {
      return {
        callId: entry.callId,
        outcome: 'deny',
        reason: 'args_changed',
        message: 'Tool execution denied: the call is no longer part of the conversation.',
      };
    }
    const hashes = [
      argsHash(entry.request.args),
      ...(current !== undefined ? [argsHash(current)] : []),
      ...(resolution.argsHash !== undefined ? [resolution.argsHash] : []),
    ];
    if (hashes.some((hash) => hash !== entry.argsHash)) {
      return {
        callId: entry.callId,
        outcome: 'deny',
        reason: 'args_changed',
        message: 'Tool execution denied: the arguments changed after approval was requested.',
      };
    }
    if (options.approvalTtlMs !== undefined && now - entry.requestedAt > options.approvalTtlMs) {
      return {
        callId: entry.callId,
        outcome: 'deny',
        reason: 'expired',
        message: 'Tool execution denied: the approval request expired.',
      };
    }
    if (answer.decision === 'deny') {
      return {
        callId: entry.callId,
        outcome: 'deny',
        reason: 'user',
        message: userDeniedMessage(answer.message),
      };
    }
    return {
      callId: entry.callId,
      outcome: 'allow',
      always: answer.decision === 'allow_always',
      ...(answer.scope === undefined ? {} : { scope: answer.scope }),
    };
  });
  return { results, unknownIds };
}
