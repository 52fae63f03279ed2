/**
 * Where the developer's skills live, as passed in the agent's `skills` option. Compatible with the reference
 * SDK's `SkillReference`: both kinds are loaded with gemini-cli's depth rule (see {@link skillDir}).
 */
export type SkillReference = { type: 'dir'; path: string } | { type: 'root'; path: string };

/**
 * References a skill directory. A directory that holds `SKILL.md` is one skill; its immediate subdirectories
 * holding `SKILL.md` are skills too, so the same call also accepts a root of skills (gemini-cli's
 * `loadSkillsFromDir` rule: the directory itself and its children, never deeper).
 *
 * @param path Absolute, or relative to the agent's `cwd`.
 * @example
 * ```ts
 * new GeminiCliAgent({ skills: [skillDir('./skills/pirate-skill'), skillDir('./skills')] });
 * ```
 */
export function skillDir(path: string): SkillReference {
  return { type: 'dir', path };
}

/**
 * References a root directory whose immediate subdirectories hold `SKILL.md` files. Loaded exactly like
 * {@link skillDir} (the reference SDK added this name later; both follow the same depth rule).
 *
 * @param path Absolute, or relative to the agent's `cwd`.
 */
export function skillRoot(path: string): SkillReference {
  return { type: 'root', path };
}
