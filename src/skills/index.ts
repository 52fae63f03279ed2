export { skillDir, skillRoot, type SkillReference } from './skill-reference.js';
export {
  MAX_SKILL_DESCRIPTION_CHARS,
  MAX_SKILL_FILE_BYTES,
  type SkillDefinition,
  type SkillInfo,
  type SkillSource,
} from './skill-definition.js';
export {
  parseSkillMarkdown,
  sanitizeSkillName,
  type ParsedSkillMarkdown,
  type SkillMarkdownParse,
} from './skill-frontmatter.js';
export {
  loadSkillFile,
  loadSkillsFromDir,
  SKILL_FILE_NAME,
  type LoadSkillsOptions,
} from './skill-loader.js';
export { getFolderStructure, type FolderStructureOptions } from './folder-structure.js';
export {
  discoverSkills,
  resolveSkillsHome,
  type ExtensionSkills,
  type SkillDiscoveryOptions,
  type SkillDiscoveryTiers,
} from './skill-discovery.js';
export { SkillManager, type SkillActivationListener } from './skill-manager.js';
export { renderAvailableSkillsSection } from './available-skills-section.js';
export {
  ACTIVATE_SKILL_TOOL_NAME,
  activateSkillDeclaration,
  createActivateSkillTool,
  renderActivatedSkill,
  skillApprovalDetails,
  skillResourceDir,
  type SkillApprovalDetails,
} from './activate-skill-tool.js';
export {
  createSkillsFeature,
  type SkillsFeature,
  type SkillsFeatureOptions,
  type SkillsSessionInit,
  type SkillsWorkspace,
} from './skills-feature.js';
