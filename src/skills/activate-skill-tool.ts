import { dirname } from 'node:path';
import { AbortError } from '../errors.js';
import type { AgentTool, ToolResult, ToolValidation } from '../core/agent-tool.js';
import { getFolderStructure } from './folder-structure.js';
import type { SkillDefinition } from './skill-definition.js';
import type { SkillManager } from './skill-manager.js';

/** The tool's name, as in gemini-cli. */
export const ACTIVATE_SKILL_TOOL_NAME = 'activate_skill';

/** What an approval prompt for `activate_skill` shows (`ApprovalRequest.skill`). */
export interface SkillApprovalDetails {
  name: string;
  description: string;
  /** Absolute path of the skill's `SKILL.md`. */
  location: string;
  /** The folder tree that activation shares with the model (same text as `<available_resources>`). */
  folderTree: string;
}

/**
 * gemini-cli's `activate_skill` declaration for these skill names: the description lists them
 * (`(Available: 'a', 'b')`), the `name` parameter is an enum of them; with no names it is a plain string
 * described as `No skills are currently available.` and the hint is left out.
 */
export function activateSkillDeclaration(names: readonly string[]): {
  description: string;
  parametersJsonSchema: Record<string, unknown>;
} {
  const hint = names.length > 0 ? ` (Available: ${names.map((n) => `'${n}'`).join(', ')})` : '';
  const nameSchema =
    names.length > 0
      ? { type: 'string', enum: [...names], description: 'The name of the skill to activate.' }
      : { type: 'string', description: 'No skills are currently available.' };
  return {
    description: `Activates a specialized agent skill by name${hint}. Returns the skill's instructions wrapped in \`<activated_skill>\` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the \`<available_skills>\` section.`,
    parametersJsonSchema: {
      type: 'object',
      properties: { name: nameSchema },
      required: ['name'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  };
}

/** The text `activate_skill` returns to the model for an activated skill (gemini-cli's exact layout). */
export function renderActivatedSkill(
  skill: Pick<SkillDefinition, 'name' | 'body'>,
  folderTree: string,
): string {
  return [
    `<activated_skill name="${skill.name}">`,
    '  <instructions>',
    `    ${skill.body}`,
    '  </instructions>',
    '',
    '  <available_resources>',
    `    ${folderTree}`,
    '  </available_resources>',
    '</activated_skill>',
  ].join('\n');
}

/** The folder whose tree is shared: the directory of `SKILL.md`, as the user sees it. */
export function skillResourceDir(skill: Pick<SkillDefinition, 'location'>): string {
  return dirname(skill.location);
}

/**
 * What the approval gate shows before `activate_skill` runs, or `undefined` when no consent is needed: the
 * skill is built-in (pre-approved, as in gemini-cli), unknown or disabled (the call then fails with a
 * listing of the available skills).
 */
export async function skillApprovalDetails(
  manager: SkillManager,
  args: Record<string, unknown>,
): Promise<SkillApprovalDetails | undefined> {
  const name = args['name'];
  if (typeof name !== 'string') return undefined;
  const skill = manager.getEnabled(name);
  if (!skill || skill.isBuiltin) return undefined;
  return {
    name: skill.name,
    description: skill.description,
    location: skill.location,
    folderTree: await getFolderStructure(skillResourceDir(skill)),
  };
}

/**
 * The `activate_skill` tool over the manager's current state: its declaration offers the skills enabled right
 * now (build a fresh one before each model call); executing it activates the named skill (marks it active and
 * calls the manager's `onActivate`, which makes the folder readable) and returns the instructions and the
 * folder tree. Kind `other`: not read-only, so a policy may ask before a non-built-in skill is shared.
 */
export function createActivateSkillTool(manager: SkillManager): AgentTool {
  const declaration = activateSkillDeclaration(manager.enabled().map((s) => s.name));
  return {
    name: ACTIVATE_SKILL_TOOL_NAME,
    displayName: 'Activate Skill',
    description: declaration.description,
    kind: 'other',
    parametersJsonSchema: declaration.parametersJsonSchema,
    validate(args): ToolValidation {
      const name = args['name'];
      if (typeof name !== 'string' || name.trim() === '') {
        return {
          ok: false,
          error: `Invalid arguments for tool "${ACTIVATE_SKILL_TOOL_NAME}": "name" must be the name of a skill from <available_skills>.`,
        };
      }
      return { ok: true, args: { name } };
    },
    describe(args): string {
      const name = String(args['name']);
      const skill = manager.get(name);
      return skill ? `"${name}": ${skill.description}` : `"${name}" (?) unknown skill`;
    },
    async approvalDetails(args) {
      const skill = await skillApprovalDetails(manager, args);
      return skill ? { skill } : undefined;
    },
    async execute(args, ctx, call): Promise<ToolResult> {
      const name = String(args['name']);
      const skill = manager.getEnabled(name);
      if (!skill) {
        const available = manager
          .enabled()
          .map((s) => s.name)
          .join(', ');
        const message = `Skill "${name}" not found. Available skills are: ${available}`;
        return {
          llmContent: `Error: ${message}`,
          returnDisplay: `Error: ${message}`,
          error: { message, type: 'invalid_tool_params' },
        };
      }
      if (call.signal.aborted) throw new AbortError('activate_skill was aborted.');
      try {
        await manager.activate(skill.name, ctx);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const message = `Skill "${skill.name}" could not be activated: ${reason}`;
        return {
          llmContent: `Error: ${message}`,
          returnDisplay: `Error: ${message}`,
          error: { message, type: 'execution_failed' },
        };
      }
      const dir = skillResourceDir(skill);
      const folderTree = await getFolderStructure(dir);
      return {
        llmContent: renderActivatedSkill(skill, folderTree),
        returnDisplay: `Skill **${skill.name}** activated. Resources loaded from \`${dir}\`:\n\n${folderTree}`,
      };
    },
  };
}
