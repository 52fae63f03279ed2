import type { AgentTool } from '../core/agent-tool.js';
import type { Feature } from '../core/feature.js';
import { SDK_DEFAULT_SOURCE, type PolicySource } from '../core/policy-rule.js';
import type { AnyTool } from '../core/tool-definition.js';
import { ConfigurationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { createPolicyFeature, type PolicyFeature } from '../policy/policy-feature.js';
import { settingsPolicySources, toolNamesOf } from '../policy/settings-rules.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import type { SkillReference } from '../skills/skill-reference.js';
import { createHooksFeature, type HooksFeature } from '../hooks/hooks-feature.js';
import { createSkillsFeature, type SkillsFeature } from '../skills/skills-feature.js';
import { DEFAULT_BUILTIN_TOOLS } from '../tools/builtin/create-builtin-tools.js';
import { createBuiltinToolsFeature } from './builtin-tools-feature.js';
import { toAgentTools } from '../tools/tool-provider.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { createAgentMcpFeature, effectiveMcpServers } from './agent-mcp-feature.js';
import type { McpFeature } from '../mcp/mcp-feature.js';
import { ACTIVATE_SKILL_TOOL_NAME } from '../skills/activate-skill-tool.js';
import { settingsPolicyFiles } from './agent-settings.js';
import { createContextFeature } from '../context/context-feature.js';
import type { ContextSettings } from './context-options.js';
import { projectTempDir } from './session-preamble.js';
import { geminiHome } from '../settings/settings-paths.js';
import { createAgentExtensions, type AgentExtensions } from './agent-extensions.js';
import { createTelemetryFeature } from '../telemetry/telemetry-feature.js';
import {
  createSubagentsFeature,
  validateSubagents,
  type SubagentsFeature,
} from '../subagents/subagents-feature.js';
import { COMPLETE_TASK_TOOL_NAME } from '../subagents/complete-task-tool.js';
import { INVOKE_AGENT_TOOL_NAME } from '../core/session-runtime.js';

/**
 * Priority (inside the `default` tier) of the rule that lets the `tools` option's tools run: below every rule that
 * names a gemini-cli tool (10 and up), so a custom tool that takes a built-in tool's name is decided like it, and
 * below plan mode's deny (40), so plan mode stays read-only.
 */
export const CUSTOM_TOOLS_PRIORITY = 5;

/** An agent's features, in order, with the two whose objects back public API (`agent.skills()`, `session.policy`). */
export interface AgentFeatures {
  /** Built-in tools, the `tools` option, skills, the `features` option, then the policy (it decides last). */
  features: readonly Feature[];
  skills: SkillsFeature;
  policy: PolicyFeature;
  /** The MCP client (`agent.mcp`). */
  mcp: McpFeature;
  /** The hooks (`agent.hooks()`); in `features` only when some hook is registered. */
  hooks: HooksFeature;
  /** The extensions (`agent.extensions()`), and the context files they add. */
  extensions: AgentExtensions;
  /** The subagents (`invoke_agent`, `agent.subagents()`). */
  subagents: SubagentsFeature;
}

const FEATURE_PARTS = [
  'initialize',
  'dispose',
  'approvalRequested',
  'beforeCompress',
  'interceptTurn',
  'interceptModel',
  'interceptToolDecision',
  'interceptTool',
] as const;

/**
 * Checks the `features` option: an array of objects with a `name`, whose parts have the right types.
 *
 * @throws ConfigurationError naming the feature and the part.
 */
export function validateFeatures(value: unknown): Feature[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new ConfigurationError('The features option must be an array of Feature objects.');
  }
  return value.map((feature: unknown, index) => {
    if (typeof feature !== 'object' || feature === null) {
      throw new ConfigurationError(`features[${index}] must be a Feature object ({ name, ... }).`);
    }
    const f = feature as Record<string, unknown>;
    const label = typeof f['name'] === 'string' ? `Feature "${f['name']}"` : `features[${index}]`;
    if (typeof f['name'] !== 'string' || f['name'] === '') {
      throw new ConfigurationError(`${label} needs a non-empty name.`);
    }
    for (const part of FEATURE_PARTS) {
      if (f[part] !== undefined && typeof f[part] !== 'function') {
        throw new ConfigurationError(`${label}: ${part} must be a function.`);
      }
    }
    const { tools, systemSection, policy } = f;
    if (tools !== undefined && !Array.isArray(tools) && typeof tools !== 'function') {
      throw new ConfigurationError(`${label}: tools must be an array of tools or a function.`);
    }
    if (systemSection !== undefined && !['string', 'function'].includes(typeof systemSection)) {
      throw new ConfigurationError(`${label}: systemSection must be a string or a function.`);
    }
    if (policy !== undefined && !Array.isArray(policy) && typeof policy !== 'function') {
      throw new ConfigurationError(
        `${label}: policy must be an array of rule sources or a function.`,
      );
    }
    return feature as Feature;
  });
}

function validateSkillReferences(skills: GeminiCliAgentOptions['skills']): SkillReference[] {
  if (skills === undefined) return [];
  const valid =
    Array.isArray(skills) &&
    skills.every(
      (ref: unknown) =>
        typeof ref === 'object' &&
        ref !== null &&
        ((ref as { type?: unknown }).type === 'dir' ||
          (ref as { type?: unknown }).type === 'root') &&
        typeof (ref as { path?: unknown }).path === 'string',
    );
  if (!valid) {
    throw new ConfigurationError(
      'The skills option must be an array of skill references made with skillDir(path).',
    );
  }
  return [...skills];
}

/**
 * gemini-cli registers a built-in tool only when `tools.core` (if set) names it and `tools.exclude` does not.
 */
function filterBuiltinTools(
  tools: AgentTool[],
  core: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): AgentTool[] {
  const allowed = core === undefined ? undefined : toolNamesOf(core);
  const excluded = toolNamesOf(exclude ?? []);
  return tools.filter(
    (t) => (allowed === undefined || allowed.has(t.name)) && !excluded.has(t.name),
  );
}

/** The `tools` option as a feature: the tools, and the `SDK default` rule that lets them run (D4). */
function customToolsFeature(tools: readonly AnyTool[]): { feature: Feature; names: string[] } {
  const adapted = toAgentTools(tools);
  const names = adapted.map((t) => t.name);
  const policy: PolicySource[] =
    names.length === 0
      ? []
      : [
          {
            origin: { tier: 'default', source: SDK_DEFAULT_SOURCE },
            rules: [
              {
                name: 'tools option (runs as in the reference SDK)',
                toolName: names,
                decision: 'allow',
                priority: CUSTOM_TOOLS_PRIORITY,
              },
            ],
          },
        ];
  return { feature: { name: 'tools option', tools: adapted, policy }, names };
}

/** The features' `policy` parts (all but the policy's own), in feature order. */
async function featureSources(
  features: readonly Feature[],
  signal: AbortSignal | undefined,
): Promise<PolicySource[]> {
  const sources: PolicySource[] = [];
  for (const feature of features) {
    const part = feature.policy;
    if (part === undefined) continue;
    sources.push(...(typeof part === 'function' ? await part.call(feature, signal) : part));
  }
  return sources;
}

/**
 * Builds an agent's features from its options: gemini-cli's built-in tools, the `tools` option, skills, the MCP
 * client, the `features` option as given, and the policy last (it decides after every other decision interceptor).
 *
 * @throws ConfigurationError for a bad `skills`, `features`, `policy`, `onApproval` or `approvals` option.
 */
export function createAgentFeatures(
  options: GeminiCliAgentOptions,
  context: { cwd: string; logger: Logger; settings: LoadedSettings; context: ContextSettings },
): AgentFeatures {
  const extensions = createAgentExtensions(options, context);
  const excluded = [...(context.settings.merged.tools?.exclude ?? []), ...extensions.excludeTools];
  const merged =
    extensions.excludeTools.length === 0
      ? context.settings.merged
      : {
          ...context.settings.merged,
          tools: { ...context.settings.merged.tools, exclude: excluded },
        };
  // gemini-cli's skills.enabled: false turns discovery off (skills passed in code still load); skills.disabled
  // starts those skills disabled.
  const skillDiscovery =
    options.skillDiscovery ?? (merged.skills?.enabled === false ? false : undefined);
  const skills = createSkillsFeature({
    cwd: context.cwd,
    references: validateSkillReferences(options.skills),
    extensions: merged.skills?.enabled === false ? [] : extensions.skills,
    ...(skillDiscovery === undefined ? {} : { discovery: skillDiscovery }),
    ...(merged.skills?.disabled === undefined ? {} : { disabled: merged.skills.disabled }),
    trusted: context.settings.trust.trusted,
    logger: context.logger,
  });
  const builtin = createBuiltinToolsFeature({
    selection: options.builtinTools ?? DEFAULT_BUILTIN_TOOLS,
    contextFileName: merged.context?.fileName,
    askUser: options.onAskUser,
    filter: (tools) => filterBuiltinTools(tools, merged.tools?.core, merged.tools?.exclude),
  });
  const custom = customToolsFeature(options.tools ?? []);
  const hooks = createHooksFeature({
    hooks: options.hooks ?? [],
    settings: context.settings,
    settingsHooks: options.settingsHooks !== false,
    cwd: context.cwd,
    logger: context.logger,
    ...(options.onHookRun ? { onHookRun: options.onHookRun } : {}),
    extensionHooks: extensions.hooks,
  });
  const given = [
    ...(extensions.feature ? [extensions.feature] : []),
    ...validateFeatures(extensions.features),
    ...validateFeatures(options.features),
  ];
  const toolKinds = new Map<string, string>();
  for (const feature of [builtin, custom.feature, skills, ...given]) {
    if (!Array.isArray(feature.tools)) continue;
    for (const t of toAgentTools(feature.tools)) toolKinds.set(t.name, t.kind);
  }
  toolKinds.set(ACTIVATE_SKILL_TOOL_NAME, 'other');
  toolKinds.set(INVOKE_AGENT_TOOL_NAME, 'other');
  toolKinds.set(COMPLETE_TASK_TOOL_NAME, 'other');
  const discovery = options.agentDiscovery ?? true;
  const subagents = createSubagentsFeature({
    subagents: validateSubagents(options.subagents),
    discovery: {
      cwd: context.cwd,
      home: geminiHome(),
      trusted: context.settings.trust.trusted,
      tiers:
        discovery === true
          ? {}
          : discovery === false
            ? { user: false, workspace: false }
            : discovery,
      knownToolNames: new Set(toolKinds.keys()),
      extensionDirs: extensions.agentDirs,
    },
    overrides: (merged as { agents?: { overrides?: unknown } }).agents?.overrides,
    trusted: context.settings.trust.trusted,
    logger: context.logger,
  });
  const mcpServers = effectiveMcpServers(
    options,
    context.settings,
    context.cwd,
    extensions.mcpServers,
  );
  const mcp = createAgentMcpFeature(options, {
    ...context,
    servers: mcpServers,
    reservedToolNames: new Set(toolKinds.keys()),
  });
  // First after telemetry, so its tool interceptor is the outermost that changes results: it truncates the result
  // every other feature handed back.
  const contextFeature = createContextFeature({
    truncateToolOutputThreshold: context.context.truncateToolOutputThreshold,
    defaultTokenLimit: context.context.tokenLimit(options.model ?? ''),
    projectTempDir: (cwd) => projectTempDir(geminiHome(), cwd),
    logger: context.logger,
  });
  const telemetry = createTelemetryFeature(options.telemetry, { logger: context.logger });
  const others: Feature[] = [
    // First, so that its spans hold everything the other features do around a turn, a model call and a tool.
    ...(telemetry === undefined ? [] : [telemetry]),
    contextFeature,
    builtin,
    custom.feature,
    skills,
    mcp,
    subagents,
    ...(hooks.entries.length > 0 || hooks.warnings.length > 0 ? [hooks] : []),
    ...given,
  ];
  const defaultMode = merged.general?.defaultApprovalMode;
  const policy = createPolicyFeature({
    policy:
      options.policy?.mode === undefined && defaultMode !== undefined && defaultMode !== 'default'
        ? { ...options.policy, mode: defaultMode }
        : options.policy,
    settingsSources: settingsPolicySources(
      { ...merged, mcpServers },
      { customToolNames: custom.names },
    ),
    settingsFiles: settingsPolicyFiles(options.settings, merged, context.cwd, context.logger),
    onApproval: options.onApproval,
    approvals: options.approvals,
    cwd: context.cwd,
    logger: context.logger,
    sources: (signal) => featureSources(others, signal),
    toolKinds,
    approvalListeners: others.flatMap((feature) =>
      feature.approvalRequested === undefined ? [] : [feature.approvalRequested.bind(feature)],
    ),
  });
  return { features: [...others, policy], skills, policy, mcp, hooks, extensions, subagents };
}
