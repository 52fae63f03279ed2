import type { SessionContext } from '../core/session-context.js';
import type { ApprovalRequest, ServerGeminiStreamEvent, ToolCallRequestInfo } from '../events.js';
import type { AgentTool } from '../core/agent-tool.js';

/** What a {@link ToolGate} is asked about one validated call. */
export interface ToolGateCheck {
  /** The call as the model sent it. */
  request: ToolCallRequestInfo;
  /** The tool that would run. */
  tool: AgentTool;
  /** The validated (normalised) arguments the tool would receive. */
  args: Record<string, unknown>;
  /** A fresh context for this check. */
  ctx: SessionContext;
  /** Yields an event into the running stream (e.g. `tool_call_confirmation`). */
  emit(event: ServerGeminiStreamEvent): void;
  /** Fires when the stream is aborted. */
  signal: AbortSignal;
}

/** The gate's verdict on one call. */
export type ToolGateDecision =
  | { outcome: 'allow' }
  | { outcome: 'deny'; message: string }
  | { outcome: 'pause'; request: ApprovalRequest };

/**
 * The policy / approval seam. The scheduler asks the gate about each call after argument validation and
 * before execution, in call order. `allow` runs the call; `deny` answers the model with `{ error: message }`;
 * `pause` holds the call: the stream ends with `approval_required` and the session waits for
 * `resolveApprovals()`.
 */
export interface ToolGate {
  check(input: ToolGateCheck): ToolGateDecision | Promise<ToolGateDecision>;
}

/** The default gate: everything is allowed (the reference SDK's `defaultDecision: ALLOW`). */
export const allowAllGate: ToolGate = {
  check: () => ({ outcome: 'allow' }),
};
