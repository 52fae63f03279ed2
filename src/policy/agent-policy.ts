import type { ApprovalNotice } from '../core/interceptors.js';
import type { ApprovalMode } from '../core/policy-rule.js';
import type { ApprovalHandler } from './approvals/approval-response.js';
import type { PolicyEngine } from './policy-engine.js';
import type { ApprovalsMode } from './policy-gate.js';

/** The agent's policy side: the engine (built once, on the first session), the approval handler and mode. */
export interface AgentPolicy {
  /** The approval mode sessions start in (`policy.mode`, default `default`). */
  readonly mode: ApprovalMode;
  /** The `onApproval` option. */
  readonly onApproval: ApprovalHandler | undefined;
  /** `ask` (call `onApproval`, or deny when there is none) or `pause` (end the stream with `approval_required`). */
  readonly approvals: ApprovalsMode;
  /**
   * Builds the engine once (the features' rules, then the TOML files) and returns it; a failed build is retried
   * on the next call.
   *
   * @throws PolicyRuleError for a bad policy file or rule (naming the file and the rule).
   */
  engine(signal?: AbortSignal): Promise<PolicyEngine>;
  /** The kind of a tool known up front, for `explain`. */
  kindOf(toolName: string): string | undefined;
  /** The other features' `approvalRequested` parts, in feature order (each awaited; a throw is logged). */
  notifyApproval(notice: ApprovalNotice): Promise<void>;
}
