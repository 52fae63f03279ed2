import type { SessionContext } from '../core/session-context.js';
import { InternalError } from '../errors.js';
import { silentLogger } from '../logger.js';
import type { AgentTool } from '../core/agent-tool.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import {
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

/** What {@link SkillsFeature.initializeSession} receives (structurally the agent's `SessionInitContext`). */
export interface SkillsSessionInit {
  workspace: SkillsWorkspace;
  signal?: AbortSignal;
}

/** The skills feature of one agent, wired into the loop through its seams. */
export interface SkillsFeature {
  /** Discovers and loads the skills once; later calls return the same manager. Rejects only on abort. */
  load(signal?: AbortSignal): Promise<SkillManager>;
  /** True once {@link SkillsFeature.load} has resolved. */
  readonly loaded: boolean;
  /** The loaded skills and their state. Throws `InternalError` before `load()` resolved. */
  readonly manager: SkillManager;
  /**
   * A session initializer: loads the skills (once per agent) and remembers the session's workspace, so that
   * activating a skill in that session adds the skill's folder as a read-only root (readable through `ctx.fs`
   * and the read tools, not writable).
   */
  initializeSession(init: SkillsSessionInit): Promise<void>;
  /** Tools to offer before each model call: `[activate_skill]` when any skill exists, else `[]`. */
  toolProvider(ctx: SessionContext): AgentTool[];
  /** The `# Available Agent Skills` section for the system instruction, or undefined (no enabled skills). */
  sectionProvider(ctx: SessionContext): string | undefined;
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
 * services.initializers.push((init) => skills.initializeSession(init));
 * services.toolProviders.push((ctx) => skills.toolProvider(ctx));
 * services.sectionProviders.push((ctx) => skills.sectionProvider(ctx));
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
    load,
    get loaded() {
      return manager !== undefined;
    },
    get manager() {
      return requireManager();
    },
    async initializeSession(init: SkillsSessionInit): Promise<void> {
      workspaces.set(init.workspace.fs, init.workspace);
      await load(init.signal);
    },
    toolProvider(): AgentTool[] {
      const current = requireManager();
      return current.all().length > 0 ? [createActivateSkillTool(current)] : [];
    },
    sectionProvider(): string | undefined {
      if (listingDisabled) return undefined;
      return renderAvailableSkillsSection(requireManager().enabled());
    },
    approvalDetails(args): Promise<SkillApprovalDetails | undefined> {
      return skillApprovalDetails(requireManager(), args);
    },
  };
}
