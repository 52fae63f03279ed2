/** Which discovery tier a skill came from, lowest precedence first. */
export type SkillSource = 'builtin' | 'extension' | 'user' | 'workspace' | 'option';

/** One loaded skill (gemini-cli's `SkillDefinition`, plus where it came from). */
export interface SkillDefinition {
  /** Sanitised frontmatter name; the key skills are listed, enabled and activated by. */
  readonly name: string;
  /** Frontmatter description (capped at {@link MAX_SKILL_DESCRIPTION_CHARS} characters). */
  readonly description: string;
  /** Absolute path of the `SKILL.md` file. */
  readonly location: string;
  /** Absolute real path of the skill's folder (symlinks resolved): the folder shared on activation. */
  readonly folder: string;
  /** Markdown after the frontmatter, trimmed (`''` when there is none): the skill's instructions. */
  readonly body: string;
  /** The tier the skill was discovered in. */
  readonly source: SkillSource;
  /** True for skills shipped with the SDK; they are pre-approved (no consent prompt). */
  readonly isBuiltin: boolean;
  /** The extension that provided the skill, for `source: 'extension'`. */
  readonly extensionName?: string;
}

/** What `SkillManager.list()` reports for each skill (the SDK's `/skills list`). */
export interface SkillInfo {
  readonly name: string;
  readonly description: string;
  /** Absolute path of the `SKILL.md` file. */
  readonly location: string;
  /** Enabled skills are listed to the model and offered by `activate_skill`. */
  readonly enabled: boolean;
  /** True once `activate_skill` (or `activate`) ran for it. */
  readonly active: boolean;
  /** The tier the skill was discovered in. */
  readonly source: SkillSource;
  readonly isBuiltin: boolean;
}

/** Longest description kept; longer ones are cut with a warning (gemini-cli's validator advises 1024). */
export const MAX_SKILL_DESCRIPTION_CHARS = 1024;

/** Largest `SKILL.md` read, in bytes; bigger files are skipped with a warning. */
export const MAX_SKILL_FILE_BYTES = 4 * 1024 * 1024;
