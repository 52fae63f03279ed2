import { join } from 'node:path';
import type { Feature, SystemSectionProvider } from '../core/feature.js';
import { SDK_DEFAULT_SOURCE, type PolicySource } from '../core/policy-rule.js';
import {
  extensionHookEntries,
  resolveExtensions,
  type ResolvedExtensions,
} from '../extensions/extension-set.js';
import { extensionSecurity } from '../extensions/extension-security.js';
import { hydrateValue } from '../extensions/extension-variables.js';
import type { HookEntry } from '../hooks/hook-planner.js';
import type { Logger } from '../logger.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import type { ExtensionAgentDir } from '../subagents/agent-loader.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import { geminiHome } from '../settings/settings-paths.js';
import type { ExtensionSkills } from '../skills/skill-discovery.js';
import { toAgentTools } from '../tools/tool-provider.js';
import type { GeminiCliAgentOptions } from './agent-options.js';

/** Context an extension given in code adds as text (rendered like a context file). */
export interface ExtensionContextText {
  /** The label after `--- Context from: `. */
  label: string;
  text: string;
}

/** An agent's extensions, split into the parts the other features take. */
export interface AgentExtensions {
  readonly resolved: ResolvedExtensions;
  /** Tools, sections and policy rules of the active extensions (undefined when none adds any). */
  readonly feature: Feature | undefined;
  /** The `features` of extensions given in code. */
  readonly features: readonly Feature[];
  readonly skills: readonly ExtensionSkills[];
  readonly hooks: readonly HookEntry[];
  /** Their MCP servers (a settings or option server of the same name wins). */
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  /** Their `excludeTools`, together. */
  readonly excludeTools: readonly string[];
  /** Their context files (de-duplicated case-insensitively, sorted, as gemini-cli does). */
  readonly contextFiles: readonly string[];
  readonly contextTexts: readonly ExtensionContextText[];
  /**
   * Their `agents/` folders, with each extension's name and how its agent files are hydrated (`${extensionPath}`,
   * `${workspacePath}`, `${/}`, settings values).
   */
  readonly agentDirs: readonly ExtensionAgentDir[];
}

/** One extension as `agent.extensions()` lists it. */
export interface AgentExtensionInfo {
  readonly name: string;
  readonly version: string;
  readonly description: string | undefined;
  /** `code` for `extension()`, `folder` for a gemini-cli folder. */
  readonly origin: 'code' | 'folder';
  /** The folder its files come from (undefined in code). */
  readonly path: string | undefined;
  /** Runs in this agent (not left out by `enabledExtensions` or the enablement file). */
  readonly active: boolean;
  readonly contextFiles: readonly string[];
  readonly mcpServers: readonly string[];
  readonly excludeTools: readonly string[];
  readonly tools: readonly string[];
  readonly hooks: number;
  readonly policyRules: number;
}

/** What `agent.extensions()` returns. */
export interface ExtensionListing {
  readonly extensions: readonly AgentExtensionInfo[];
  /** Skipped folders and other problems, with gemini-cli's texts. */
  readonly warnings: readonly string[];
}

/** The listing of resolved extensions. */
export function extensionListing(resolved: ResolvedExtensions): ExtensionListing {
  return {
    extensions: resolved.all.map(({ extension: e, active }) => ({
      name: e.name,
      version: e.version,
      description: e.description,
      origin: e.origin === 'code' ? 'code' : 'folder',
      path: e.path,
      active,
      contextFiles: [...e.contextFiles],
      mcpServers: Object.keys(e.mcpServers),
      excludeTools: [...e.excludeTools],
      tools: toAgentTools(e.tools).map((t) => t.name),
      hooks: e.commandHooks.length + e.runtimeHooks.length,
      policyRules: e.policy.reduce((n, p) => n + p.rules.length, 0),
    })),
    warnings: [...resolved.warnings],
  };
}

/** `~/.gemini/extensions` for the agent's home (`GEMINI_CLI_HOME` or the OS home). */
export function userExtensionsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(geminiHome(env), '.gemini', 'extensions');
}

/** Priority of the rule that lets the tools of extensions given in code run (as the `tools` option's). */
const EXTENSION_TOOLS_PRIORITY = 5;

/**
 * Loads the agent's extensions (the `extensions` option, and the installed ones unless `extensionDiscovery` is
 * false or settings are off) and splits them into what the skills, hooks, MCP, policy and memory features take.
 */
export function createAgentExtensions(
  options: GeminiCliAgentOptions,
  context: { cwd: string; logger: Logger; settings: LoadedSettings },
): AgentExtensions {
  const merged = context.settings.merged;
  const resolved = resolveExtensions({
    references: options.extensions ?? [],
    discover: options.extensionDiscovery ?? options.settings !== false,
    extensionsDir: userExtensionsDir(),
    only: options.enabledExtensions,
    adminDisabled: merged.admin?.extensions?.enabled === false,
    workspaceDir: context.cwd,
    trusted: context.settings.trust.trusted,
    hooksEnabled: merged.hooksConfig?.enabled !== false,
    disabledHooks: merged.hooksConfig?.disabled ?? [],
    settingsEnabled:
      (merged.experimental as Record<string, unknown> | undefined)?.['extensionConfig'] !== false,
    mcpEnabled: merged.admin?.mcp?.enabled !== false,
    security: extensionSecurity(merged),
  });
  const active = resolved.active;
  const tools = active.flatMap((e) => toAgentTools(e.tools));
  const sections = active.flatMap((e) => (e.section ? [e.section] : []));
  const policy: PolicySource[] = active.flatMap((e) => e.policy);
  if (tools.length > 0) {
    policy.push({
      origin: { tier: 'default', source: SDK_DEFAULT_SOURCE },
      rules: [
        {
          name: 'tools of extensions given in code (run as the tools option)',
          toolName: tools.map((t) => t.name),
          decision: 'allow',
          priority: EXTENSION_TOOLS_PRIORITY,
        },
      ],
    });
  }
  let warned = false;
  const section: SystemSectionProvider | undefined =
    sections.length === 0
      ? undefined
      : async (ctx) => {
          const parts = await Promise.all(sections.map((s) => s(ctx)));
          const text = parts.filter((p) => typeof p === 'string' && p.trim() !== '').join('\n\n');
          return text === '' ? undefined : text;
        };
  const feature: Feature = {
    name: 'extensions',
    ...(tools.length > 0 ? { tools } : {}),
    ...(section ? { systemSection: section } : {}),
    ...(policy.length > 0 ? { policy } : {}),
    initialize(session) {
      if (warned) return;
      warned = true;
      for (const message of resolved.warnings) {
        context.logger.warn(message);
        session.emit({
          type: 'warning',
          value: { code: 'EXTENSION_WARNING', message, source: 'extensions' },
        });
      }
    },
  };
  const seen = new Set<string>();
  const contextFiles = active
    .flatMap((e) => e.contextFiles)
    .filter((file) => {
      const key = file.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort();
  const mcpServers: Record<string, McpServerConfig> = {};
  for (const e of active) {
    for (const [name, config] of Object.entries(e.mcpServers)) {
      if (Object.prototype.hasOwnProperty.call(mcpServers, name)) continue;
      Object.defineProperty(mcpServers, name, {
        value: config,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return {
    resolved,
    feature:
      tools.length > 0 || section || policy.length > 0 || resolved.warnings.length > 0
        ? feature
        : undefined,
    features: active.flatMap((e) => e.features),
    skills: active.flatMap((e) => (e.skills ? [e.skills] : [])),
    hooks: active.flatMap(extensionHookEntries),
    mcpServers,
    excludeTools: [...new Set(active.flatMap((e) => e.excludeTools))],
    contextFiles,
    contextTexts: active.flatMap((e) =>
      e.contextText === undefined || e.contextText.trim() === ''
        ? []
        : [{ label: `extension ${e.name}`, text: e.contextText }],
    ),
    agentDirs: active.flatMap((e) =>
      e.agentsDir
        ? [
            {
              extension: e.name,
              dir: e.agentsDir,
              hydrate: <T>(value: T): T => hydrateValue(value, e.variables),
            },
          ]
        : [],
    ),
  };
}
