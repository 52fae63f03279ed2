import type { Feature } from '../core/feature.js';
import type { ApprovalNotice, ToolDecisionInterceptor } from '../core/interceptors.js';
import type { PolicySource } from '../core/policy-rule.js';
import type { SessionHandle } from '../core/session-context.js';
import { ConfigurationError, InternalError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ApprovalHandler } from './approvals/approval-response.js';
import { compileRules } from './compiled-rule.js';
import type { AgentPolicy } from './agent-policy.js';
import { PolicyEngine } from './policy-engine.js';
import { loadPolicyFiles, type PolicyFileRef } from './policy-file.js';
import type { ApprovalsMode } from './policy-gate.js';
import { PolicyOptions } from './policy-options.js';
import { SessionPolicy, type SessionPolicyHooks } from './session-policy.js';

/** What {@link createPolicyFeature} needs from the agent's options and its other features. */
export interface PolicyFeatureOptions {
  /** The `policy` option. */
  policy: PolicyOptions | undefined;
  /** Rules derived from the settings (`tools.exclude`, `tools.allowed`, …), in the user tier. */
  settingsSources?: PolicySource[];
  /** gemini-cli's policy folders and files (`~/.gemini/policies`, the system folder, `policyPaths`, …). */
  settingsFiles?: PolicyFileRef[];
  /** The `onApproval` option. */
  onApproval: ApprovalHandler | undefined;
  /** The `approvals` option (default `ask`). */
  approvals: ApprovalsMode | undefined;
  /** Policy files resolve against it. */
  cwd: string;
  logger: Logger;
  /** The other features' `policy` parts, in feature order; read once, when the engine is built. */
  sources(signal?: AbortSignal): Promise<PolicySource[]>;
  /** Kinds of the tools known up front (the features' fixed tool lists), so `explain` can apply kind rules. */
  toolKinds: ReadonlyMap<string, string>;
  /** The other features' `approvalRequested` parts, in feature order (awaited before a human is asked). */
  approvalListeners?: ReadonlyArray<(notice: ApprovalNotice) => void | Promise<void>>;
}

/**
 * The policy as a feature: it decides last among the decision interceptors (so it sees the arguments that will
 * run), through the session's {@link SessionPolicy} (mode, "always allow" rules, log, `onApproval` or pause).
 */
export interface PolicyFeature extends Feature, AgentPolicy {
  readonly interceptToolDecision: ToolDecisionInterceptor;
  /** The policy of one session (created with the session; `session.policy`). */
  forSession(session: SessionHandle, hooks: SessionPolicyHooks): SessionPolicy;
}

function validateApprovals(value: unknown): ApprovalsMode {
  if (value === undefined) return 'ask';
  if (value === 'ask' || value === 'pause') return value;
  throw new ConfigurationError(
    `The approvals option must be 'ask' or 'pause' (got ${JSON.stringify(value) ?? String(value)}).`,
  );
}

function validatePolicy(policy: unknown): PolicyOptions {
  if (policy === undefined) return {};
  const parsed = PolicyOptions.safeParse(policy);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'policy'}: ${i.message}`)
      .join('; ');
    throw new ConfigurationError(`Invalid policy option: ${details}. See docs/policy.md.`);
  }
  const options = policy as PolicyOptions;
  // Rules in code are checked now (PolicyRuleError naming the rule); files are read on the first session.
  compileRules(options.rules ?? [], { tier: 'user', source: 'Code (policy.rules)' });
  return options;
}

/**
 * Validates the `policy`, `onApproval` and `approvals` options (synchronously; files are read later) and returns
 * the agent's {@link PolicyFeature}.
 *
 * @throws ConfigurationError / PolicyRuleError for a bad option or rule in code.
 */
export function createPolicyFeature(options: PolicyFeatureOptions): PolicyFeature {
  const policy = validatePolicy(options.policy);
  const approvals = validateApprovals(options.approvals);
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new ConfigurationError(
      'The onApproval option must be a function: async (request) => decision.',
    );
  }
  let pending: Promise<PolicyEngine> | undefined;
  const sessions = new WeakMap<SessionHandle, SessionPolicy>();

  const build = async (signal?: AbortSignal): Promise<PolicyEngine> => {
    const featureSources = await options.sources(signal);
    const sources = await loadPolicyFiles(
      [...(options.settingsFiles ?? []), ...(policy.files ?? [])],
      { cwd: options.cwd, logger: options.logger },
    );
    return new PolicyEngine({
      ...(policy.mode ? { mode: policy.mode } : {}),
      rules: policy.rules ?? [],
      sources: [...featureSources, ...(options.settingsSources ?? []), ...sources],
      logger: options.logger,
    });
  };

  const feature: PolicyFeature = {
    name: 'policy',
    mode: policy.mode ?? 'default',
    onApproval: options.onApproval,
    approvals,
    engine(signal) {
      if (!pending) {
        const attempt = build(signal);
        pending = attempt;
        attempt.catch(() => {
          if (pending === attempt) pending = undefined;
        });
      }
      return pending;
    },
    kindOf: (toolName) => options.toolKinds.get(toolName),
    async notifyApproval(notice) {
      for (const listener of options.approvalListeners ?? []) {
        try {
          await listener(notice);
        } catch (error) {
          options.logger.warn('approvalRequested failed', {
            callId: notice.request.callId,
            error: String(error),
          });
        }
      }
    },
    forSession(session, hooks) {
      const sessionPolicy = new SessionPolicy(feature, hooks);
      sessions.set(session, sessionPolicy);
      return sessionPolicy;
    },
    async interceptToolDecision(check, next) {
      const sessionPolicy = sessions.get(check.ctx.session);
      if (sessionPolicy === undefined) {
        throw new InternalError(
          `The policy has no state for session ${check.ctx.sessionId}: the session was not created by this agent.`,
        );
      }
      const decision = await sessionPolicy.gate.check(check);
      return decision.outcome === 'allow' ? next(check) : decision;
    },
  };
  return feature;
}
