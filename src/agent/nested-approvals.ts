import type { HeldCallOutcome, NestedApprovals } from '../core/session-runtime.js';
import { InternalError } from '../errors.js';
import type {
  PauseResolution,
  SessionApprovalDecision,
} from '../policy/approvals/approval-resolution.js';
import { SessionPause } from '../policy/approvals/session-pause.js';
import type { SessionPolicy } from '../policy/session-policy.js';

/** Records the human's decisions on held calls with the session's policy (`allow_always` adds its rule). */
export async function recordVerdicts(
  policy: Pick<SessionPolicy, 'recordDecision' | 'logResolutions'>,
  verdicts: PauseResolution['verdicts'],
): Promise<void> {
  for (const v of verdicts) {
    if (v.undecided) policy.logResolutions([v.request], []);
    else await policy.recordDecision(v.request, v.decision, v.message, v.scope);
  }
}

/** What {@link createNestedApprovals} needs from the session. */
export interface NestedApprovalsParts {
  policy: Pick<SessionPolicy, 'recordDecision' | 'logResolutions'>;
  /** Held calls older than this (ms) are denied when resolved (`approvalTtlMs`). */
  approvalTtlMs: number | undefined;
}

/**
 * The session's durable approvals for its nested runs: a run's held turn is a {@link SessionPause} of the run's own
 * log (stored, resolved and failing closed exactly as the session's own), its decisions recorded with the
 * session's policy.
 */
export function createNestedApprovals(parts: NestedApprovalsParts): NestedApprovals {
  return {
    async hold(log, outcomes) {
      await new SessionPause(undefined).commit({ outcomes: [...outcomes] }, log);
    },
    pending: (log) => new SessionPause(log.pausedTurn).pending,
    async resolve(input) {
      const resolution = await new SessionPause(input.log.pausedTurn).resolve({
        decisions: input.decisions as readonly SessionApprovalDecision[],
        history: input.history,
        loadTools: () => Promise.resolve(input.tools),
        log: input.log,
        sessionId: input.runId,
        now: new Date(),
        approvalTtlMs: parts.approvalTtlMs,
      });
      await recordVerdicts(parts.policy, resolution.verdicts);
      const outcomes = resolution.start.paused.outcomes.map((o): HeldCallOutcome => {
        if (o.kind === 'held') throw new InternalError('A nested run cannot hold a call itself.');
        return o;
      });
      return {
        outcomes,
        allowed: resolution.start.decisions.map((d) => d.callId),
        denied: resolution.denied,
      };
    },
  };
}
