import type { SkillDefinition } from './skill-definition.js';

/**
 * The system-instruction section listing skills, in gemini-cli's exact words (`renderAgentSkills`): the
 * `# Available Agent Skills` heading, one sentence pointing at `activate_skill`, and an `<available_skills>`
 * block with `<name>`, `<description>` and `<location>` (the absolute `SKILL.md` path) per skill. Values are not
 * escaped, as in gemini-cli. Returns `undefined` when there are no skills (no section at all).
 */
export function renderAvailableSkillsSection(
  skills: readonly Pick<SkillDefinition, 'name' | 'description' | 'location'>[],
): string | undefined {
  if (skills.length === 0) return undefined;
  const entries = skills
    .map(
      (skill) =>
        `  <skill>\n    <name>${skill.name}</name>\n    <description>${skill.description}</description>\n    <location>${skill.location}</location>\n  </skill>`,
    )
    .join('\n');
  return [
    '# Available Agent Skills',
    '',
    "You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.",
    '',
    '<available_skills>',
    entries,
    '</available_skills>',
  ].join('\n');
}
