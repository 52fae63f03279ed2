import type { Feature } from '../core/feature.js';
import {
  SDK_DEFAULT_SOURCE,
  trustedMcpServerRule,
  type PolicyRule,
  type PolicySource,
} from '../core/policy-rule.js';
import type { SessionHandle } from '../core/session-context.js';
import { INVOKE_AGENT_TOOL_NAME } from '../core/session-runtime.js';
import { ConfigurationError } from '../errors.js';
import type { WarningInfo } from '../events.js';
import type { Logger } from '../logger.js';
import { discoverAgentFiles, type AgentDiscoveryOptions } from './agent-loader.js';
import { applyAgentOverride, readAgentOverrides } from './agent-overrides.js';
import { COMPLETE_TASK_TOOL_NAME } from './complete-task-tool.js';
import { createInvokeAgentTool } from './invoke-agent-tool.js';
import { Subagent, type SubagentHost, type SubagentRegistry } from './subagent.js';
import { renderAvailableSubagents } from './subagent-prompt.js';
import { ownTools } from './subagent-tools.js';
import type { ResolvedSubagent } from './subagent-types.js';

/** One subagent as `agent.subagents()` lists it. */
export interface SubagentInfo {
  name: string;
  description: string;
  displayName: string | undefined;
  /** `code`, or the file it was loaded from. */
  source: string;
  /** False when the settings turn it off (`agents.overrides.<name>.enabled: false`). */
  enabled: boolean;
  /** The model it runs on (`inherit`: the session's). */
  model: string;
  maxTurns: number;
  timeoutMs: number;
  /** Its tool list; undefined: every tool of the parent. */
  tools: string[] | undefined;
}

/** What `agent.subagents()` returns: the subagents, and the files that failed to load. */
export interface SubagentListing {
  subagents: SubagentInfo[];
  /** One message per agent file that failed to load, and per duplicate name ignored. */
  warnings: string[];
}

/** Options of {@link createSubagentsFeature}. */
export interface SubagentsFeatureOptions {
  /** The `subagents` option: definitions made in code (they win over files with the same name). */
  subagents: readonly Subagent[];
  /** Where `.gemini/agents/*.md` files are read from; false: none. */
  discovery: AgentDiscoveryOptions | false;
  /** gemini-cli's `agents.overrides` setting (validated here; bad entries are reported and ignored). */
  overrides?: unknown;
  /** Whether the folder is trusted: only then does a subagent's own MCP server's `trust: true` count. */
  trusted: boolean;
  logger: Logger;
}

/** The subagents of an agent as a feature: `invoke_agent`, `<available_subagents>` and their rules. */
export interface SubagentsFeature extends Feature {
  /** Reads the agent files (once); resolves when every definition is registered. */
  load(signal?: AbortSignal): Promise<void>;
  /** The registered subagents, in precedence order, and what failed to load (loads first). */
  list(signal?: AbortSignal): Promise<SubagentListing>;
  /** The enabled subagent of that name, as this agent runs it. */
  find(name: string): { subagent: Subagent; definition: ResolvedSubagent } | undefined;
  /**
   * Adds definitions (an extension's, say) after the ones registered so far. A name already taken keeps its first
   * definition; the later one is reported (gemini-cli: first wins).
   *
   * @returns the warnings for skipped duplicates.
   */
  register(definitions: readonly Subagent[]): string[];
}

/** Priority of the default rule that lets `invoke_agent` run (gemini-cli's agents.toml: 50, not in plan mode). */
export const INVOKE_AGENT_PRIORITY = 50;

/** Checks the `subagents` option. */
export function validateSubagents(value: unknown): Subagent[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((s) => s instanceof Subagent)) {
    throw new ConfigurationError(
      'The subagents option must be an array of subagents made with subagent({ name, description, instructions }).',
    );
  }
  return [...(value as Subagent[])];
}

/**
 * Builds the subagents feature: the `invoke_agent` tool (offered while any subagent is enabled), gemini-cli's
 * `# Available Sub-Agents` section, the default rule allowing `invoke_agent` (not in plan mode) and `complete_task`,
 * rules letting each subagent's own `tool()` objects run inside it (scoped with `subagent`), and the agent files of
 * the workspace (trusted) and the user, loaded when the first session initializes.
 */
export function createSubagentsFeature(options: SubagentsFeatureOptions): SubagentsFeature {
  const byName = new Map<string, Subagent>();
  const hosts = new WeakMap<SessionHandle, SubagentHost>();
  const registry: SubagentRegistry = { hostOf: (session) => hosts.get(session) };
  const { overrides, warnings: overrideWarnings } = readAgentOverrides(options.overrides);
  const warnings: string[] = [...overrideWarnings];
  /** Warnings not yet put into a stream. */
  const unreported: WarningInfo[] = overrideWarnings.map((message) => ({
    code: 'SUBAGENT_OVERRIDE_INVALID',
    message,
    source: 'subagents',
  }));
  const effective = (subagent: Subagent): ResolvedSubagent | undefined => {
    if (byName.get(subagent.name) !== subagent) return undefined;
    const override = overrides.get(subagent.name);
    if (override?.enabled === false) return undefined;
    return applyAgentOverride(subagent.definition, override);
  };
  const enabled = (): Subagent[] => [...byName.values()].filter((s) => effective(s) !== undefined);
  const report = (code: string, message: string): void => {
    warnings.push(message);
    unreported.push({ code, message, source: 'subagents' });
    options.logger.warn(message);
  };
  const register = (definitions: readonly Subagent[]): string[] => {
    const skipped: string[] = [];
    for (const definition of definitions) {
      const taken = byName.get(definition.name);
      if (taken === definition) continue;
      if (taken !== undefined) {
        const message =
          `Duplicate agent name '${definition.name}' detected (${definition.source}). The later definition ` +
          `will be ignored (the one from ${taken.source} is used). Rename one of the agents to avoid this conflict.`;
        skipped.push(message);
        report('SUBAGENT_DUPLICATE', message);
        continue;
      }
      byName.set(definition.name, definition);
      definition.registeredWith(registry);
    }
    return skipped;
  };
  register(options.subagents);
  let loading: Promise<void> | undefined;
  const load = (): Promise<void> => {
    loading ??= (async () => {
      if (options.discovery === false) return;
      const found = await discoverAgentFiles(options.discovery);
      for (const error of found.errors)
        report('SUBAGENT_LOAD_FAILED', `Agent loading error: ${error.message}`);
      register(found.agents);
    })();
    return loading;
  };
  const invokeAgent = createInvokeAgentTool({
    find: (name) => {
      const subagent = byName.get(name);
      const definition = subagent && effective(subagent);
      return subagent && definition ? { subagent, definition } : undefined;
    },
    hostOf: (session) => hosts.get(session),
  });
  return {
    name: 'subagents',
    tools: () => (enabled().length > 0 ? [invokeAgent] : []),
    systemSection: () => renderAvailableSubagents(enabled().map((s) => s.definition)),
    policy: async (): Promise<PolicySource[]> => {
      await load();
      const trustedServers = options.trusted ? trustedServerRules(byName.values(), effective) : [];
      const scoped = [...byName.values()].flatMap((s) => {
        const names = ownTools(s.definition.tools).map((t) => t.name);
        return names.length === 0
          ? []
          : [{ toolName: names, subagent: s.name, decision: 'allow' as const, priority: 5 }];
      });
      return [
        {
          origin: { tier: 'default', source: 'Default (agents)' },
          rules: [
            {
              name: 'Allow invoke_agent',
              toolName: INVOKE_AGENT_TOOL_NAME,
              decision: 'allow',
              priority: INVOKE_AGENT_PRIORITY,
              modes: ['default', 'auto_edit', 'yolo'],
            },
            {
              name: 'complete_task ends a subagent run',
              toolName: COMPLETE_TASK_TOOL_NAME,
              decision: 'allow',
              priority: 60,
            },
          ],
        },
        ...(scoped.length === 0
          ? []
          : [{ origin: { tier: 'default' as const, source: SDK_DEFAULT_SOURCE }, rules: scoped }]),
        ...(trustedServers.length === 0
          ? []
          : [
              {
                origin: { tier: 'user' as const, source: 'Subagents (MCP Trusted)' },
                rules: trustedServers,
              },
            ]),
      ];
    },
    async initialize(session) {
      await load();
      for (const value of unreported.splice(0)) session.emit({ type: 'warning', value });
      const host: SubagentHost = { runtime: session.runtime, logger: session.logger, effective };
      hosts.set(session.session, host);
      return () => {
        if (hosts.get(session.session) === host) hosts.delete(session.session);
      };
    },
    load,
    async list() {
      await load();
      const subagents = [...byName.values()].map((s): SubagentInfo => {
        const d = effective(s) ?? applyAgentOverride(s.definition, overrides.get(s.name));
        return {
          name: s.name,
          description: s.description,
          displayName: s.definition.displayName,
          source: s.source,
          enabled: effective(s) !== undefined,
          model: d.model,
          maxTurns: d.maxTurns,
          timeoutMs: d.timeoutMs,
          tools: d.tools?.map((t) => (typeof t === 'string' ? t : t.name)),
        };
      });
      return { subagents, warnings: [...warnings] };
    },
    find: (name) => {
      const subagent = byName.get(name);
      const definition = subagent && effective(subagent);
      return subagent && definition ? { subagent, definition } : undefined;
    },
    register,
  };
}

/**
 * The rules allowing each enabled subagent's own trusted MCP servers (`trust: true`) inside that subagent: the
 * agent's `mcpServers` get the same allow rule from the settings (gemini-cli 4.2, not in plan mode), so a rule of a
 * higher priority (a deny, an ask) still wins.
 */
function trustedServerRules(
  subagents: Iterable<Subagent>,
  effective: (subagent: Subagent) => ResolvedSubagent | undefined,
): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const subagent of subagents) {
    const servers = effective(subagent)?.mcpServers ?? {};
    for (const [server, config] of Object.entries(servers)) {
      if (config.trust === true) rules.push(trustedMcpServerRule(server, subagent.name));
    }
  }
  return rules;
}
