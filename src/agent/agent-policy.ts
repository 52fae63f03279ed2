import { ConfigurationError } from '../errors.js';
import type { ApprovalRequest } from '../events.js';
import type { Logger } from '../logger.js';
import type { ApprovalHandler } from '../policy/approval-response.js';
import { compileRules, type RuleOrigin } from '../policy/compiled-rule.js';
import { PolicyEngine } from '../policy/policy-engine.js';
import { loadPolicyFiles, type PolicyFileRef, type PolicySource } from '../policy/policy-file.js';
import type { ApprovalsMode } from '../policy/policy-gate.js';
import { PolicyOptions } from '../policy/policy-options.js';
import type { ApprovalMode, PolicyRule } from '../policy/policy-rule.js';
import { ACTIVATE_SKILL_TOOL_NAME } from '../skills/activate-skill-tool.js';
import type { SkillManager } from '../skills/skill-manager.js';
import type { ToolGateCheck } from '../tools/tool-gate.js';

/** Where the SDK's own default rules come from (shown by `explain`). */
export const SDK_DEFAULTS_SOURCE = 'SDK default';

/**
 * Priority (inside the `default` tier) of the rule that lets the `tools` option's tools run: below every rule that
 * names a gemini-cli tool (10 and up), so a custom tool that takes a built-in tool's name is decided like it, and
 * below plan mode's deny (40), so plan mode stays read-only.
 */
export const CUSTOM_TOOLS_PRIORITY = 5;

/**
 * Priority (inside the `default` tier) of the rules that let skills passed in the `skills` option be activated
 * without asking: above gemini-cli's `activate_skill` ask rules (10, and 50 in plan mode).
 */
export const CONSENTED_SKILLS_PRIORITY = 55;

/** What {@link createAgentPolicy} needs from the agent's options and services. */
export interface AgentPolicyOptions {
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
  /** Names of the tools passed in the `tools` option: they run by default (the reference SDK's ALLOW). */
  customToolNames: readonly string[];
  /** Kinds of the tools known up front (built-in and custom), so `explain` can apply kind rules. */
  toolKinds: ReadonlyMap<string, string>;
  /** Loads the agent's skills (once): the ones passed in the `skills` option are activated without asking. */
  loadSkills(signal?: AbortSignal): Promise<SkillManager>;
  /** The skill and folder tree an `activate_skill` call would share (undefined: no consent needed). */
  skillApprovalDetails(args: Record<string, unknown>): Promise<ApprovalRequest['skill']>;
}

/** The agent's policy side: the engine (built once, on the first session), the approval handler and mode. */
export interface AgentPolicy {
  /** The approval mode sessions start in (`policy.mode`, default `default`). */
  readonly mode: ApprovalMode;
  /** The `onApproval` option. */
  readonly onApproval: ApprovalHandler | undefined;
  /** `ask` (call `onApproval`, or deny when there is none) or `pause` (end the stream with `approval_required`). */
  readonly approvals: ApprovalsMode;
  /**
   * Builds the engine once (loading the skills and the TOML files) and returns it; a failed build is retried on
   * the next call.
   *
   * @throws PolicyRuleError for a bad policy file or rule (naming the file and the rule).
   */
  engine(signal?: AbortSignal): Promise<PolicyEngine>;
  /** The kind of a tool known up front, for `explain`. */
  kindOf(toolName: string): string | undefined;
  /** Adds what a human must see to an approval request: for `activate_skill`, the skill and its folder tree. */
  enrichRequest(
    check: Pick<ToolGateCheck, 'tool' | 'args'>,
  ): Promise<Partial<ApprovalRequest> | undefined>;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The SDK's additions to gemini-cli's defaults, as a `default`-tier source (user rules always beat them). */
export function sdkDefaultRules(
  customToolNames: readonly string[],
  skills: SkillManager,
  logger: Logger,
): PolicySource {
  const origin: RuleOrigin = { tier: 'default', source: SDK_DEFAULTS_SOURCE };
  const rules: PolicyRule[] = [];
  if (customToolNames.length > 0) {
    rules.push({
      name: 'tools option (runs as in the reference SDK)',
      toolName: [...customToolNames],
      decision: 'allow',
      priority: CUSTOM_TOOLS_PRIORITY,
    });
  }
  for (const skill of skills.all()) {
    if (skill.source !== 'option' && !skill.isBuiltin) continue;
    const rule: PolicyRule = {
      name: `skill "${skill.name}" (${skill.isBuiltin ? 'built-in' : 'skills option'})`,
      toolName: ACTIVATE_SKILL_TOOL_NAME,
      argsPattern: `\\x00"name":${escapeRegex(JSON.stringify(skill.name))}\\x00`,
      decision: 'allow',
      priority: CONSENTED_SKILLS_PRIORITY,
    };
    try {
      compileRules([rule], origin);
      rules.push(rule);
    } catch (error) {
      logger.warn(
        `Skill "${skill.name}": its name cannot be matched by a policy rule, so activating it will ask.`,
        { error: String(error) },
      );
    }
  }
  return { origin, rules };
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
 * the agent's {@link AgentPolicy}.
 *
 * @throws ConfigurationError / PolicyRuleError for a bad option or rule in code.
 */
export function createAgentPolicy(options: AgentPolicyOptions): AgentPolicy {
  const policy = validatePolicy(options.policy);
  const approvals = validateApprovals(options.approvals);
  if (options.onApproval !== undefined && typeof options.onApproval !== 'function') {
    throw new ConfigurationError(
      'The onApproval option must be a function: async (request) => decision.',
    );
  }
  let pending: Promise<PolicyEngine> | undefined;

  const build = async (signal?: AbortSignal): Promise<PolicyEngine> => {
    const skills = await options.loadSkills(signal);
    const sources = await loadPolicyFiles(
      [...(options.settingsFiles ?? []), ...(policy.files ?? [])],
      {
        cwd: options.cwd,
        logger: options.logger,
      },
    );
    return new PolicyEngine({
      ...(policy.mode ? { mode: policy.mode } : {}),
      rules: policy.rules ?? [],
      sources: [
        sdkDefaultRules(options.customToolNames, skills, options.logger),
        ...(options.settingsSources ?? []),
        ...sources,
      ],
      logger: options.logger,
    });
  };

  return {
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
    async enrichRequest(check) {
      if (check.tool.name !== ACTIVATE_SKILL_TOOL_NAME) return undefined;
      const skill = await options.skillApprovalDetails(check.args);
      return skill ? { skill } : undefined;
    },
  };
}
