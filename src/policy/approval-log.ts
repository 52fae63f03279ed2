import type { ApprovalMode, PolicyRule } from '../core/policy-rule.js';
import type { ApprovalDecision } from './approvals/approval-response.js';

/** What happened to a call: it ran, ran and stopped further questions, was refused, or waits for a decision. */
export type ApprovalLogDecision = ApprovalDecision | 'pending';

/** One entry of a session's `session.policy.log`: a decision on a tool call or a `ctx.shell` command. */
export interface ApprovalLogEntry {
  /** The call id (for `ctx.shell` commands, a generated `shell-…` id). */
  callId: string;
  /** The tool (`run_shell_command` for `ctx.shell` commands). */
  toolName: string;
  decision: ApprovalLogDecision;
  /** `rule`: a policy rule decided; `default`: no rule matched and the mode's default applied; `user`: a human. */
  by: 'rule' | 'user' | 'default';
  /** ISO time of the decision. */
  timestamp: string;
  /** `tool`: a call from the model; `shell`: a command a tool ran through `ctx.shell`. */
  via: 'tool' | 'shell';
  /** The deciding rule's label, when a rule decided. */
  rule?: string;
  /** On deny: what the model (or the tool, for `ctx.shell`) was told. */
  message?: string;
  /** For `ctx.shell`: the command. */
  command?: string;
  /** When a human decided: the ISO time they were asked (the approval request, or the pause that held the call). */
  askedAt?: string;
}

/** A call to explain: the tool name, its arguments, and (optionally) its kind. */
export interface PolicyCallInput {
  name: string;
  args?: Record<string, unknown>;
  /** The tool's kind; by default the kind of the registered tool with that name. */
  kind?: string;
  /** The MCP server of the tool (rules with `mcpName`); by default the one of the last call of that tool. */
  serverName?: string;
  /** The tool's annotations (rules with `toolAnnotations`); by default the ones of the last call of that tool. */
  toolAnnotations?: Record<string, unknown>;
}

/** What a session persists and restores about its policy (see {@link SessionPolicy.snapshot}). */
export interface SessionPolicyState {
  mode: ApprovalMode;
  /** The "always allow" rules added in the session. */
  rules: PolicyRule[];
  log: ApprovalLogEntry[];
}
