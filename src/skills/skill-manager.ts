import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import type { SkillDefinition, SkillInfo } from './skill-definition.js';

/**
 * Called when a skill is activated, with the context of the session whose `activate_skill` call did it (absent
 * for a programmatic {@link SkillManager.activate}). Throwing fails the activation.
 */
export type SkillActivationListener = (
  skill: SkillDefinition,
  ctx: SessionContext | undefined,
) => void | Promise<void>;

/**
 * The loaded skills of one agent and their state: enabled/disabled (the SDK's `/skills enable|disable`) and
 * active (activated through `activate_skill`). Names match case-insensitively, as in gemini-cli.
 */
export class SkillManager {
  readonly #skills: readonly SkillDefinition[];
  readonly #disabled = new Set<string>();
  readonly #active = new Set<string>();
  readonly #onActivate: SkillActivationListener | undefined;

  /**
   * @param skills Loaded skills, unique by name (see `discoverSkills`).
   * @param options `disabled`: names to start disabled (unknown names are ignored, as gemini-cli's
   *   `skills.disabled` setting); `onActivate`: called on every activation.
   */
  constructor(
    skills: readonly SkillDefinition[],
    options: { disabled?: readonly string[]; onActivate?: SkillActivationListener } = {},
  ) {
    this.#skills = [...skills];
    this.#onActivate = options.onActivate;
    for (const name of options.disabled ?? []) {
      const skill = this.get(name);
      if (skill) this.#disabled.add(skill.name);
    }
  }

  /** Every skill with its state, in discovery order. */
  list(): SkillInfo[] {
    return this.#skills.map((skill) => ({
      name: skill.name,
      description: skill.description,
      location: skill.location,
      enabled: !this.#disabled.has(skill.name),
      active: this.#active.has(skill.name),
      source: skill.source,
      isBuiltin: skill.isBuiltin,
    }));
  }

  /** Every loaded skill, enabled or not. */
  all(): readonly SkillDefinition[] {
    return this.#skills;
  }

  /** The enabled skills: listed to the model and offered by `activate_skill`. */
  enabled(): SkillDefinition[] {
    return this.#skills.filter((skill) => !this.#disabled.has(skill.name));
  }

  /** The skill with this name (exact match first, then case-insensitive), enabled or not. */
  get(name: string): SkillDefinition | undefined {
    const exact = this.#skills.find((skill) => skill.name === name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    return this.#skills.find((skill) => skill.name.toLowerCase() === lower);
  }

  /** The enabled skill with this name, if any. */
  getEnabled(name: string): SkillDefinition | undefined {
    const exact = this.#skills.find((s) => s.name === name && !this.#disabled.has(s.name));
    if (exact) return exact;
    const lower = name.toLowerCase();
    return this.#skills.find((s) => s.name.toLowerCase() === lower && !this.#disabled.has(s.name));
  }

  /** Enables a skill: the next model call lists it and offers it. Throws `ConfigurationError` if unknown. */
  enable(name: string): void {
    this.#disabled.delete(this.#require(name).name);
  }

  /** Disables a skill: the next model call no longer lists or offers it. Throws `ConfigurationError` if unknown. */
  disable(name: string): void {
    this.#disabled.add(this.#require(name).name);
  }

  /** True once the skill was activated. */
  isActive(name: string): boolean {
    const skill = this.get(name);
    return skill !== undefined && this.#active.has(skill.name);
  }

  /**
   * Activates an enabled skill: calls the `onActivate` listener (every time; activating twice is harmless), then
   * marks it active. Throws `ConfigurationError` when no enabled skill has this name, and whatever the listener
   * throws.
   *
   * @param ctx The session whose tool call activates the skill, handed to the listener.
   */
  async activate(name: string, ctx?: SessionContext): Promise<SkillDefinition> {
    const skill = this.getEnabled(name);
    if (!skill) {
      const known = this.get(name);
      throw new ConfigurationError(
        known
          ? `Skill "${known.name}" is disabled. Enable it first with enable("${known.name}").`
          : `Unknown skill "${name}". Available skills are: ${this.#names(this.enabled())}.`,
      );
    }
    await this.#onActivate?.(skill, ctx);
    this.#active.add(skill.name);
    return skill;
  }

  /** Forgets which skills are active (gemini-cli does this when the session changes). */
  resetActive(): void {
    this.#active.clear();
  }

  #require(name: string): SkillDefinition {
    const skill = this.get(name);
    if (skill) return skill;
    throw new ConfigurationError(
      this.#skills.length === 0
        ? `Unknown skill "${name}": no skills are loaded. Pass skills: [skillDir(...)] or add SKILL.md folders to ~/.gemini/skills.`
        : `Unknown skill "${name}". Known skills: ${this.#names(this.#skills)}.`,
    );
  }

  #names(skills: readonly SkillDefinition[]): string {
    return skills.length === 0 ? '(none)' : skills.map((s) => s.name).join(', ');
  }
}
