import type { AgentTool } from '../core/agent-tool.js';
import type { Feature } from '../core/feature.js';
import {
  exactArgPattern,
  MAX_RULE_REGEX_LENGTH,
  SDK_DEFAULT_SOURCE,
  type PolicyRule,
  type PolicySource,
} from '../core/policy-rule.js';
import type { SessionContext } from '../core/session-context.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { InternalError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import {
  ACTIVATE_SKILL_TOOL_NAME,
  createActivateSkillTool,
  skillApprovalDetails,
  type SkillApprovalDetails,
} from './activate-skill-tool.js';
import { renderAvailableSkillsSection } from './available-skills-section.js';
import type { SkillDefinition } from './skill-definition.js';
import { discoverSkills, type SkillDiscoveryOptions } from './skill-discovery.js';
import { SkillManager, type SkillActivationListener } from './skill-manager.js';

/** Options of {@link createSkillsFeature}: discovery options plus the initial state and activation hook. */
export interface SkillsFeatureOptions extends Omit<SkillDiscoveryOptions, 'signal'> {
  /** Skill names to start disabled (gemini-cli's `skills.disabled`; case-insensitive, unknown names ignored). */
  disabled?: readonly string[];
  /**
   * Called on every activation, after the skill's folder was added read-only to the activating session's
   * workspace (when that session ran {@link SkillsFeature.initializeSession}).
   */
  onActivate?: SkillActivationListener;
}

/** The part of a session's workspace the feature needs: its `fs` (to recognise `ctx.fs`) and read-only roots. */
export interface SkillsWorkspace {
  readonly fs: SandboxFilesystem;
  addReadOnlyRoot(target: string): string;
}

/** What {@link SkillsFeature.initialize} uses of a session (a `FeatureSession` is one). */
export interface SkillsSessionInit {
  workspace: SkillsWorkspace;
  signal?: AbortSignal | undefined;
}

/**
 * Priority (inside the `default` tier) of the rules that let skills passed in the `skills` option (and built-in
 * skills) be activated without asking: above gemini-cli's `activate_skill` ask rules (10, and 50 in plan mode).
 */
export const CONSENTED_SKILLS_PRIORITY = 55;

/**
 * The skills feature of one agent: the `activate_skill` tool, the `<available_skills>` section, the rules that
 * pre-approve the skills passed in code, and per session the read-only roots of activated skills.
 */
export interface SkillsFeature extends Feature {
  /** Discovers and loads the skills once; later calls return the same manager. Rejects only on abort. */
  load(signal?: AbortSignal): Promise<SkillManager>;
  /** True once {@link SkillsFeature.load} has resolved. */
  readonly loaded: boolean;
  /** The loaded skills and their state. Throws `InternalError` before `load()` resolved. */
  readonly manager: SkillManager;
  /**
   * Per session: loads the skills (once per agent) and remembers the session's workspace, so that activating a
   * skill in that session adds the skill's folder as a read-only root (readable through `ctx.fs` and the read
   * tools, not writable).
   */
  initialize(init: SkillsSessionInit): Promise<void>;
  /** Tools to offer before each model call: `[activate_skill]` when any skill exists, else `[]`. */
  tools(ctx: SessionContext): AgentTool[];
  /** The `# Available Agent Skills` section for the system instruction, or undefined (no enabled skills). */
  systemSection(ctx: SessionContext): string | undefined;
  /**
   * The `SDK default` rules that let the skills passed in the `skills` option and the built-in ones be activated
   * without asking (loads the skills).
   */
  policy(signal?: AbortSignal): Promise<PolicySource[]>;
  /**
   * Details for the approval request of an `activate_skill` call (`ApprovalRequest.skill`), or undefined when
   * no consent is needed (built-in skill, or a name that will fail).
   */
  approvalDetails(args: Record<string, unknown>): Promise<SkillApprovalDetails | undefined>;
}

/**
 * Creates the skills feature: discovery (built-in < extensions < user < trusted workspace < `skills` option),
 * the {@link SkillManager}, the `activate_skill` tool and the system-instruction section. Nothing is read until
 * `load()` (or the first `initializeSession`).
 *
 * @example
 * ```ts
 * const skills = createSkillsFeature({ cwd, references: options.skills, logger });
 * new GeminiCliAgent({ features: [skills] }); // the agent adds its own from the `skills` option like this
 * ```
 */
export function createSkillsFeature(options: SkillsFeatureOptions): SkillsFeature {
  const env = options.env ?? process.env;
  const listingDisabled = ['0', 'false'].includes(
    (env['GEMINI_PROMPT_AGENTSKILLS'] ?? '').toLowerCase(),
  );
  const workspaces = new WeakMap<SandboxFilesystem, SkillsWorkspace>();
  let pending: Promise<SkillManager> | undefined;
  let manager: SkillManager | undefined;

  const requireManager = (): SkillManager => {
    if (!manager) {
      throw new InternalError(
        'The skills feature was used before load() resolved; await load() first.',
      );
    }
    return manager;
  };

  const onActivate = async (skill: SkillDefinition, ctx: SessionContext | undefined) => {
    const workspace = ctx === undefined ? undefined : workspaces.get(ctx.fs);
    workspace?.addReadOnlyRoot(skill.folder);
    await options.onActivate?.(skill, ctx);
  };

  const load = (signal?: AbortSignal): Promise<SkillManager> => {
    pending ??= (async () => {
      const { disabled, onActivate: _listener, ...discovery } = options;
      const skills = await discoverSkills({
        ...discovery,
        logger: options.logger ?? silentLogger,
        ...(signal === undefined ? {} : { signal }),
      });
      manager = new SkillManager(skills, {
        ...(disabled === undefined ? {} : { disabled }),
        onActivate,
      });
      return manager;
    })();
    // A failed (aborted) load may be retried.
    pending.catch(() => {
      pending = undefined;
    });
    return pending;
  };

  return {
    name: 'skills',
    load,
    get loaded() {
      return manager !== undefined;
    },
    get manager() {
      return requireManager();
    },
    async initialize(init: SkillsSessionInit): Promise<void> {
      workspaces.set(init.workspace.fs, init.workspace);
      await load(init.signal);
    },
    tools(): AgentTool[] {
      const current = requireManager();
      return current.all().length > 0 ? [createActivateSkillTool(current)] : [];
    },
    systemSection(): string | undefined {
      if (listingDisabled) return undefined;
      return renderAvailableSkillsSection(requireManager().enabled());
    },
    async policy(signal?: AbortSignal): Promise<PolicySource[]> {
      const rules = consentRules(await load(signal), options.logger ?? silentLogger);
      return [{ origin: { tier: 'default', source: SDK_DEFAULT_SOURCE }, rules }];
    },
    approvalDetails(args): Promise<SkillApprovalDetails | undefined> {
      return skillApprovalDetails(requireManager(), args);
    },
  };
}

/** One allow rule per skill passed in the `skills` option or built in (someone chose them in code). */
function consentRules(skills: SkillManager, logger: Logger): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const skill of skills.all()) {
    if (skill.source !== 'option' && !skill.isBuiltin) continue;
    const argsPattern = exactArgPattern('name', skill.name);
    if (argsPattern.length > MAX_RULE_REGEX_LENGTH) {
      logger.warn(
        `Skill "${skill.name}": its name cannot be matched by a policy rule, so activating it will ask.`,
      );
      continue;
    }
    rules.push({
      name: `skill "${skill.name}" (${skill.isBuiltin ? 'built-in' : 'skills option'})`,
      toolName: ACTIVATE_SKILL_TOOL_NAME,
      argsPattern,
      decision: 'allow',
      priority: CONSENTED_SKILLS_PRIORITY,
    });
  }
  return rules;
}
