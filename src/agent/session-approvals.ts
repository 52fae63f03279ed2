import type { AgentHandle, SessionHandle } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { LoopStart } from '../loop/loop-types.js';
import type { SessionApprovalDecision } from '../policy/approvals/approval-resolution.js';
import { recordVerdicts } from './nested-approvals.js';
import type { SessionPause } from '../policy/approvals/session-pause.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { AgentServices } from './agent-services.js';
import { offeredTools } from './prepare-model-call.js';
import { sessionContext } from './session-environment.js';
import type { SessionState } from './session-state.js';

/** What resolving a paused turn needs from its session. */
export interface ApprovalsParts {
  session: SessionHandle & { readonly agent: AgentHandle };
  services: AgentServices;
  pause: SessionPause;
  policy: SessionPolicy;
}

/**
 * The start of `resolveApprovals`: the decisions checked against the stored pause (fail closed), recorded with the
 * policy, and the loop's `approvals` start, with a `tool_call_response` for each denied call.
 */
export async function approvalsStart(
  parts: ApprovalsParts,
  state: SessionState,
  decisions: readonly SessionApprovalDecision[],
  signal: AbortSignal | undefined,
): Promise<{ start: LoopStart; events: ServerGeminiStreamEvent[] }> {
  const { session, services, policy } = parts;
  const resolution = await parts.pause.resolve({
    decisions,
    history: state.history.view(),
    loadTools: () =>
      offeredTools(
        services,
        sessionContext(session, state, signal ?? new AbortController().signal),
      ),
    log: state.log,
    sessionId: session.id,
    now: new Date(),
    approvalTtlMs: services.approvalTtlMs,
  });
  await recordVerdicts(policy, resolution.verdicts);
  const events = resolution.denied.map((value): ServerGeminiStreamEvent => ({
    type: 'tool_call_response',
    value,
  }));
  return { start: resolution.start, events };
}
