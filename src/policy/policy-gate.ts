import type { ApprovalNotice, ToolCheck, ToolDecision } from '../core/interceptors.js';
import type { ApprovalRequest } from '../events.js';
import type { SubagentCallInfo } from '../core/subagent-call.js';
import { raceAbort } from '../core/abort.js';
import { alwaysAllowRule } from './approvals/always-allow.js';
import {
  confirmationUnsupportedMessage,
  normalizeApprovalResponse,
  policyDeniedMessage,
  userDeniedMessage,
  type ApprovalDecision,
  type ApprovalHandler,
} from './approvals/approval-response.js';
import type { PolicyCheckContext, PolicyCheckResult, PolicyEngine } from './policy-engine.js';
import type { ApprovalMode, PolicyRule } from '../core/policy-rule.js';
import type { SessionRules } from './session-rules.js';

/** What the gate is asked about one validated call (a decision interceptor's {@link ToolCheck}). */
export type ToolGateCheck = Pick<
  ToolCheck,
  'request' | 'tool' | 'args' | 'ctx' | 'emit' | 'signal' | 'requireApproval' | 'subagent'
>;

/**
 * The policy's side of a tool call's decision: `allow`, `deny` (the model gets the message) or `pause` (held for
 * `resolveApprovals`). The policy feature's decision interceptor asks it.
 */
export interface ToolGate {
  check(check: ToolGateCheck): ToolDecision | Promise<ToolDecision>;
}

/** How calls that need approval are handled: ask `onApproval` now, or pause the run (durable approvals). */
export type ApprovalsMode = 'ask' | 'pause';

/** A human decision, reported through {@link PolicyGateOptions.onDecision} so the session can record it. */
export interface ApprovalRecord {
  request: ApprovalRequest;
  decision: ApprovalDecision;
  message: string | undefined;
  /** The session rule added by `allow_always`, if any. */
  addedRule: PolicyRule | undefined;
  /** ISO time the human was asked. */
  askedAt?: string;
}

/** Options of {@link createPolicyGate}. */
export interface PolicyGateOptions {
  engine: PolicyEngine;
  /** The approval mode, or a function returning the current one (modes can change during a session). */
  mode?: ApprovalMode | (() => ApprovalMode);
  /** Asks a human. Without it (and without `approvals: 'pause'`) every ask becomes a deny. */
  onApproval?: ApprovalHandler;
  /** `pause`: a call that needs approval pauses the run instead of calling `onApproval` (default `ask`). */
  approvals?: ApprovalsMode;
  /** The session's "always allow" rules; `allow_always` adds to them. */
  sessionRules: SessionRules;
  /** Adds details to the approval request (e.g. the skill and its folder tree for `activate_skill`). */
  enrichRequest?: (
    check: ToolGateCheck,
  ) => Partial<ApprovalRequest> | undefined | Promise<Partial<ApprovalRequest> | undefined>;
  /** Awaited before a human is asked (or the run pauses): the features' `approvalRequested` parts. */
  approvalRequested?: (notice: ApprovalNotice) => Promise<void>;
  /** Called after each human decision (record it in the session). */
  onDecision?: (record: ApprovalRecord) => void | Promise<void>;
  /** Called with the engine's verdict on each call, before anything else happens (record rule decisions). */
  onCheck?: (check: ToolGateCheck, result: PolicyCheckResult) => void;
  /** More facts for the engine about a call: MCP server and annotations, the calling subagent. */
  checkContext?: (
    check: ToolGateCheck,
  ) => Pick<PolicyCheckContext, 'serverName' | 'toolAnnotations' | 'subagent'>;
}

function describe(check: ToolGateCheck): string {
  try {
    return check.tool.describe(check.args);
  } catch {
    return `${check.tool.displayName} (${check.tool.name})`;
  }
}

function subagentRunOf(info: SubagentCallInfo): NonNullable<ApprovalRequest['subagentRun']> {
  return {
    agentId: info.agentId,
    ...(info.parentCallId === undefined ? {} : { parentCallId: info.parentCallId }),
  };
}

/** The approval request for a call the policy wants a human to see. */
export async function buildApprovalRequest(
  check: ToolGateCheck,
  result: PolicyCheckResult,
  enrich?: PolicyGateOptions['enrichRequest'],
): Promise<ApprovalRequest> {
  const reason = result.note ?? result.rule?.label;
  const request: ApprovalRequest = {
    callId: check.request.callId,
    toolName: check.tool.name,
    args: check.args,
    description: describe(check),
    kind: check.tool.kind,
    ...(reason ? { reason } : {}),
    ...(check.subagent === undefined
      ? {}
      : { subagent: check.subagent.name, subagentRun: subagentRunOf(check.subagent) }),
  };
  const extra = enrich ? await enrich(check) : undefined;
  return extra ? { ...request, ...extra, callId: request.callId, args: request.args } : request;
}

/**
 * The policy side of the loop's {@link ToolGate}: asks the engine about each call; deny answers the model with
 * gemini-cli's `Tool execution denied by policy.` text; ask emits `tool_call_confirmation`, then pauses (approvals
 * `pause`), asks `onApproval` (waiting as long as it takes; only an abort stops it), or — with no handler — denies
 * with gemini-cli's "requires user confirmation" text. `allow_always` adds a narrowed session rule.
 */
export function createPolicyGate(options: PolicyGateOptions): ToolGate {
  const approvals = options.approvals ?? 'ask';
  const currentMode = (): ApprovalMode =>
    typeof options.mode === 'function' ? options.mode() : (options.mode ?? options.engine.mode);
  const interactive = approvals === 'pause' || options.onApproval !== undefined;

  return {
    async check(check: ToolGateCheck): Promise<ToolDecision> {
      const mode = currentMode();
      const call = { name: check.tool.name, args: check.args };
      const result = await options.engine.check(call, {
        ...options.checkContext?.(check),
        kind: check.tool.kind,
        mode,
        interactive,
        sessionRules: options.sessionRules,
      });
      options.onCheck?.(check, result);
      const forced = result.decision === 'allow' && check.requireApproval !== undefined;
      if (result.decision === 'allow' && !forced) return { outcome: 'allow' };
      if (result.decision === 'deny')
        return { outcome: 'deny', message: policyDeniedMessage(result.denyMessage) };

      const asked = forced
        ? { ...result, note: check.requireApproval?.reason ?? 'A hook asked for approval.' }
        : result;
      const request = await buildApprovalRequest(check, asked, options.enrichRequest);
      if (interactive) {
        await options.approvalRequested?.({
          request,
          call: check.request,
          ctx: check.ctx,
          emit: check.emit,
        });
      }
      check.emit({
        type: 'tool_call_confirmation',
        value: { request: check.request, details: request },
      });
      if (approvals === 'pause') return { outcome: 'pause', request };
      if (!options.onApproval) {
        return { outcome: 'deny', message: confirmationUnsupportedMessage(check.tool.displayName) };
      }
      const askedAt = new Date().toISOString();
      const answer = normalizeApprovalResponse(
        await raceAbort(
          Promise.resolve(options.onApproval(request, { signal: check.signal })),
          check.signal,
        ),
      );
      let addedRule: PolicyRule | undefined;
      if (answer.decision === 'allow_always') {
        addedRule = await alwaysAllowRule(call, {
          mode,
          parser: () => options.engine.shellParser(),
          mcpServer: request.mcp?.serverName,
          scope: answer.scope,
        });
        if (addedRule) options.sessionRules.add(addedRule);
      }
      await options.onDecision?.({
        request,
        decision: answer.decision,
        message: answer.message,
        addedRule,
        askedAt,
      });
      return answer.decision === 'deny'
        ? { outcome: 'deny', message: userDeniedMessage(answer.message) }
        : { outcome: 'allow' };
    },
  };
}
