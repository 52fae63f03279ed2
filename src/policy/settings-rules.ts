import type { Settings } from '../settings/settings-schema.js';
import {
  mcpToolPattern,
  trustedMcpServerRule,
  type ApprovalMode,
  type PolicyRule,
  type PolicySource,
  type RuleOrigin,
} from '../core/policy-rule.js';

const SHELL_TOOL = 'run_shell_command';
/** Legacy names of the shell tool that `tools.*` lists may use. */
const SHELL_ALIASES = new Set([SHELL_TOOL, 'ShellTool']);
const NON_PLAN_MODES: ApprovalMode[] = ['default', 'auto_edit', 'yolo'];

/** The settings-derived rules' priorities inside the user tier (gemini-cli: 4.9 … 4.1; 4.2 is {@link trustedMcpServerRule}). */
const PRIORITY = {
  mcpExcluded: 900,
  toolsExclude: 400,
  confirmationRequired: 350,
  toolsAllowed: 300,
  coreTools: 250,
  allowedMcpServer: 100,
} as const;

/** What {@link settingsPolicySources} needs besides the settings. */
export interface SettingsRulesContext {
  /** Tools the developer passed in code: `tools.core` and `tools.exclude` never shut them out. */
  customToolNames: readonly string[];
  /** `--allowed-tools` (replaces `tools.allowed`, as in gemini-cli). */
  allowedTools?: readonly string[];
  /** `--allowed-mcp-server-names` (replaces `mcp.allowed`). */
  allowedMcpServers?: readonly string[];
}

function source(label: string, rules: PolicyRule[]): PolicySource {
  const origin: RuleOrigin = { tier: 'user', source: `Settings (${label})` };
  return { origin, rules };
}

function shellName(tool: string): string {
  return SHELL_ALIASES.has(tool) ? SHELL_TOOL : tool;
}

/**
 * `tool` or the legacy `tool(args)` form: `run_shell_command(git status)` allows commands starting with
 * `git status` (and the bare tool is then denied just below, gemini-cli's "narrowing"); other tools ignore the
 * arguments.
 */
function allowRules(
  tools: readonly string[],
  priority: number,
  modes: ApprovalMode[] | undefined,
  narrow: boolean,
): PolicyRule[] {
  const rules: PolicyRule[] = [];
  let narrowedShell = false;
  for (const entry of tools) {
    const match = /^([a-zA-Z0-9_-]+)\((.*)\)$/.exec(entry);
    const toolName = shellName(match ? (match[1] as string) : entry);
    const base = { toolName, decision: 'allow' as const, priority, ...(modes ? { modes } : {}) };
    if (match && toolName === SHELL_TOOL) {
      narrowedShell = true;
      rules.push({ ...base, commandPrefix: match[2] as string });
    } else {
      rules.push(base);
    }
  }
  if (narrow && narrowedShell) {
    rules.push({
      toolName: SHELL_TOOL,
      decision: 'deny',
      priority: priority - 10,
      ...(modes ? { modes } : {}),
    });
  }
  return rules;
}

/** The tool names a `tools.core` / `tools.exclude` list names (`run_shell_command(git)` names the shell tool). */
export function toolNamesOf(list: readonly string[]): Set<string> {
  return new Set(list.map((entry) => shellName(/^([a-zA-Z0-9_-]+)\(/.exec(entry)?.[1] ?? entry)));
}

/**
 * The policy rules gemini-cli derives from the settings, in the user tier: `mcp.excluded` (deny, 4.9),
 * `tools.exclude` (deny, 4.4), `tools.confirmationRequired` (ask, 4.35), `tools.allowed` (allow, 4.3),
 * `tools.core` (allow the listed tools and deny every other one, 4.25 / 4.24, outside plan mode),
 * `mcpServers.<s>.trust` (allow the server's tools, 4.2) and `mcp.allowed` (4.1).
 */
export function settingsPolicySources(
  settings: Settings,
  context: SettingsRulesContext,
): PolicySource[] {
  const custom = new Set(context.customToolNames);
  const sources: PolicySource[] = [];

  const excludedServers = settings.mcp?.excluded ?? [];
  if (excludedServers.length > 0) {
    sources.push(
      source(
        'MCP Excluded',
        excludedServers.map((server) => ({
          toolName: mcpToolPattern(server),
          ...(server === '*' ? {} : { mcpName: server }),
          decision: 'deny',
          priority: PRIORITY.mcpExcluded,
        })),
      ),
    );
  }
  const excluded = (settings.tools?.exclude ?? []).map(shellName).filter((t) => !custom.has(t));
  if (excluded.length > 0) {
    sources.push(
      source(
        'Tools Excluded',
        excluded.map((toolName) => ({
          toolName,
          decision: 'deny',
          priority: PRIORITY.toolsExclude,
        })),
      ),
    );
  }
  const confirm = settings.tools?.confirmationRequired ?? [];
  if (confirm.length > 0) {
    sources.push(
      source(
        'Confirmation Required',
        confirm.map((tool) => ({
          toolName: shellName(tool),
          decision: 'ask_user',
          priority: PRIORITY.confirmationRequired,
        })),
      ),
    );
  }
  const allowed = context.allowedTools ?? settings.tools?.allowed ?? [];
  if (allowed.length > 0) {
    sources.push(
      source('Tools Allowed', allowRules(allowed, PRIORITY.toolsAllowed, undefined, true)),
    );
  }
  const core = settings.tools?.core;
  if (core !== undefined) {
    sources.push(
      source('Core Tools', [
        ...allowRules([...core, ...custom], PRIORITY.coreTools, NON_PLAN_MODES, false),
        {
          toolName: '*',
          decision: 'deny',
          priority: PRIORITY.coreTools - 10,
          modes: NON_PLAN_MODES,
        },
      ]),
    );
  }
  const trusted = Object.entries(settings.mcpServers ?? {}).filter(
    ([, server]) => server.trust === true,
  );
  if (trusted.length > 0) {
    sources.push(
      source(
        'MCP Trusted',
        trusted.map(([server]) => trustedMcpServerRule(server)),
      ),
    );
  }
  const allowedServers = context.allowedMcpServers ?? settings.mcp?.allowed ?? [];
  if (allowedServers.length > 0) {
    sources.push(
      source(
        'MCP Allowed',
        allowedServers.map((server) => ({
          toolName: mcpToolPattern(server),
          ...(server === '*' ? {} : { mcpName: server }),
          decision: 'allow',
          priority: PRIORITY.allowedMcpServer,
          modes: NON_PLAN_MODES,
        })),
      ),
    );
  }
  return sources;
}
