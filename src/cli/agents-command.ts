import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { readSettingsDocument, writeSettingsKey, type SettingsDocument } from './settings-edit.js';
import { GeminiCliAgent, type LoadedSettings, type SubagentInfo } from './sdk.js';

/** The `gemini-agent agents --help` text. */
export const AGENTS_HELP_TEXT = `Usage: gemini-agent agents <command> [options]

The subagents the model can delegate to (invoke_agent): .gemini/agents/*.md of a trusted folder, ~/.gemini/agents/*.md
and the active extensions' agents, with the settings' agents.overrides applied — as gemini's /agents.

Commands:
  list                   The enabled agents, as gemini's /agents list shows them (then the disabled ones, and the
                         files that failed to load). The default command.
  enable <name>          Set agents.overrides.<name>.enabled to true in the workspace and user settings, as
                         gemini's /agents enable.
  disable <name>         Set agents.overrides.<name>.enabled to false in one settings file: the workspace's
                         (.gemini/settings.json) by default, the user's in the home folder or an untrusted folder.

Options:
  -o, --output-format <f>  list: text (default) or json.
  -s, --scope <s>          disable: user or workspace (also: project).
      --skip-trust         Trust this folder for this run (its .gemini/agents and .gemini/settings.json count).
  -h, --help               Print this help.
`;

const OPTIONS = {
  'output-format': { type: 'string', short: 'o' },
  scope: { type: 'string', short: 's' },
  'skip-trust': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `agents.overrides.<name>.enabled` of a settings object (undefined when not set or not an object). */
function overrideEnabled(settings: unknown, name: string): unknown {
  const agents = (settings as { agents?: unknown } | undefined)?.agents;
  const overrides = (agents as { overrides?: unknown } | undefined)?.overrides;
  const entry = (overrides as Record<string, unknown> | undefined)?.[name];
  return typeof entry === 'object' && entry !== null
    ? (entry as Record<string, unknown>)['enabled']
    : undefined;
}

/** The settings files `agents enable|disable` writes. */
type Scope = 'user' | 'workspace';

/** gemini-cli's `AgentsStatus` lines for one agent: `  - <display name> (<name>)`, its description below. */
function agentLines(agent: SubagentInfo): string {
  const label =
    agent.displayName !== undefined && agent.displayName !== '' && agent.displayName !== agent.name
      ? `${agent.displayName} (${agent.name})`
      : agent.displayName || agent.name;
  const description = agent.description
    .trim()
    .split('\n')
    .map((l) => `    ${l}`.trimEnd())
    .join('\n');
  return `  - ${label}\n${description === '' ? '' : `${description}\n`}`;
}

async function listAgents(io: CliIo, agent: GeminiCliAgent, format: string): Promise<ExitCode> {
  const { subagents, warnings } = await agent.subagents();
  if (format === 'json') {
    io.stdout(`${JSON.stringify({ agents: subagents, warnings }, null, 2)}\n`);
    return ExitCode.Success;
  }
  const enabled = subagents.filter((s) => s.enabled);
  const disabled = subagents.filter((s) => !s.enabled);
  if (enabled.length === 0) io.stdout('No agents available.\n');
  else io.stdout(`Local Agents\n\n${enabled.map(agentLines).join('')}`);
  if (disabled.length > 0) {
    io.stdout(
      `\nDisabled Agents (agents.overrides.<name>.enabled: false)\n\n${disabled.map(agentLines).join('')}`,
    );
  }
  for (const warning of warnings) io.stderr(`Warning: ${warning}\n`);
  return ExitCode.Success;
}

function fileOf(settings: LoadedSettings, scope: Scope): string {
  const file = settings.files.find((f) => f.scope === scope);
  if (file === undefined) throw new Error(`no ${scope} settings file`);
  return file.path;
}

/** The `agents.overrides` object of a settings file (a non-object is an error: the file is left alone). */
function overridesOf(doc: SettingsDocument): {
  agents: Record<string, unknown>;
  overrides: Record<string, unknown>;
} {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const agents = doc.value['agents'] ?? {};
  if (!isObject(agents))
    throw new CliUsageError(`"agents" in ${doc.file} is not an object; fix it first.`);
  const overrides = agents['overrides'] ?? {};
  if (!isObject(overrides))
    throw new CliUsageError(`"agents.overrides" in ${doc.file} is not an object; fix it first.`);
  return { agents: { ...agents }, overrides: { ...overrides } };
}

/** `enabled` of `agents.overrides.<name>` in one file (undefined when not set). */
function enabledIn(doc: SettingsDocument, name: string): unknown {
  return overrideEnabled({ agents: { overrides: overridesOf(doc).overrides } }, name);
}

function setEnabled(doc: SettingsDocument, name: string, enabled: boolean): void {
  const { agents, overrides } = overridesOf(doc);
  const entry = overrides[name];
  const current =
    typeof entry === 'object' && entry !== null && !Array.isArray(entry)
      ? (entry as Record<string, unknown>)
      : {};
  writeSettingsKey(doc, 'agents', {
    ...agents,
    overrides: { ...overrides, [name]: { ...current, enabled } },
  });
}

/** The scopes whose files this folder can write: the workspace's only when it is not the home folder. */
function writableScopes(settings: LoadedSettings): Scope[] {
  const home = settings.files.find((f) => f.scope === 'workspace')?.skipped === 'home-workspace';
  return home ? ['user'] : ['workspace', 'user'];
}

/** gemini-cli's scope label: `project` for the workspace file. */
const label = (scope: Scope, doc: SettingsDocument): string =>
  `${scope === 'workspace' ? 'project' : 'user'} (${doc.file})`;

/**
 * `agents enable <name>`: gemini-cli's `/agents enable` — `enabled: true` in every writable settings file that does
 * not already say so, with gemini-cli's messages.
 */
async function enableAgent(io: CliIo, agent: GeminiCliAgent, name: string): Promise<ExitCode> {
  const { subagents } = await agent.subagents();
  const found = subagents.find((s) => s.name === name);
  const disabledByOverride = overrideEnabled(agent.settings.merged, name) === false;
  if (found?.enabled === true && !disabledByOverride) {
    io.stdout(`Agent '${name}' is already enabled.\n`);
    return ExitCode.Success;
  }
  if (found === undefined && !disabledByOverride) {
    io.stderr(`Agent '${name}' not found.\n`);
    return ExitCode.GeneralError;
  }
  const settings = agent.settings;
  const files = writableScopes(settings).map((scope) => ({
    scope,
    doc: readSettingsDocument(fileOf(settings, scope)),
  }));
  const changed = files.filter((f) => enabledIn(f.doc, name) !== true);
  if (changed.length === 0) {
    io.stdout(`Agent "${name}" is already enabled.\n`);
    return ExitCode.Success;
  }
  for (const file of changed) setEnabled(file.doc, name, true);
  const scopes = [...changed, ...files.filter((f) => !changed.includes(f))];
  io.stdout(
    `Agent "${name}" enabled by setting it to enabled in ` +
      `${scopes.map((f) => label(f.scope, f.doc)).join(' and ')} settings.\n`,
  );
  const system = settings.files.find(
    (f) => f.scope === 'system' && overrideEnabled(f.settings, name) === false,
  );
  if (system !== undefined) {
    io.stderr(
      `Warning: the system settings (${system.path}) disable "${name}"; only an administrator can change that.\n`,
    );
  }
  return ExitCode.Success;
}

/**
 * `agents disable <name> [--scope user|workspace]`: gemini-cli's `/agents disable` — `enabled: false` in the
 * workspace's settings (the user's in the home folder and in an untrusted folder, whose workspace settings are not
 * read), with gemini-cli's messages.
 */
async function disableAgent(
  io: CliIo,
  agent: GeminiCliAgent,
  name: string,
  requested: Scope | undefined,
): Promise<ExitCode> {
  const settings = agent.settings;
  if (overrideEnabled(settings.merged, name) === false) {
    io.stdout(`Agent '${name}' is already disabled.\n`);
    return ExitCode.Success;
  }
  const { subagents } = await agent.subagents();
  if (!subagents.some((s) => s.name === name)) {
    io.stderr(`Agent '${name}' not found.\n`);
    return ExitCode.GeneralError;
  }
  const writable = writableScopes(settings);
  if (requested === 'workspace' && !writable.includes('workspace')) {
    throw new CliUsageError('Please use --scope user to edit settings in the home directory.');
  }
  const scope =
    requested ?? (writable.includes('workspace') && settings.trust.trusted ? 'workspace' : 'user');
  const doc = readSettingsDocument(fileOf(settings, scope));
  if (enabledIn(doc, name) === false) {
    io.stdout(`Agent "${name}" is already disabled.\n`);
    return ExitCode.Success;
  }
  const other = writable
    .filter((s) => s !== scope)
    .map((s) => ({ scope: s, doc: readSettingsDocument(fileOf(settings, s)) }))
    .filter((f) => enabledIn(f.doc, name) === false);
  setEnabled(doc, name, false);
  const first = label(scope, doc);
  io.stdout(
    other.length > 0
      ? `Agent "${name}" is now disabled in both ${first} and ${other.map((f) => label(f.scope, f.doc)).join(' and ')} settings.\n`
      : `Agent "${name}" disabled by setting it to disabled in ${first} settings.\n`,
  );
  if (scope === 'workspace' && !settings.trust.trusted) {
    io.stderr(
      'Warning: this folder is not trusted, so its .gemini/settings.json is not read: the entry takes effect once the folder is trusted.\n',
    );
  }
  return ExitCode.Success;
}

/** `gemini-agent agents list|enable|disable`: gemini-cli's `/agents` commands, headless. */
export async function agentsCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliUsageError(
      `${error instanceof Error ? error.message : String(error)}\nRun \`gemini-agent agents --help\` for usage.`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(AGENTS_HELP_TEXT);
    return ExitCode.Success;
  }
  const [command = 'list', ...extra] = positionals;
  const agent = (): GeminiCliAgent =>
    new GeminiCliAgent({
      cwd: io.cwd,
      ...(values['skip-trust'] === true ? { trustWorkspace: true } : {}),
    });
  if (command === 'enable' || command === 'disable') {
    const [name, ...more] = extra;
    if (name === undefined || name.trim() === '')
      throw new CliUsageError(`Usage: gemini-agent agents ${command} <agent-name>`);
    if (more.length > 0) throw new CliUsageError(`Unexpected argument "${more[0]}" after ${name}.`);
    let scope: Scope | undefined;
    if (values.scope !== undefined) {
      if (command === 'enable')
        throw new CliUsageError(
          'agents enable takes no --scope: it enables the agent in every scope.',
        );
      const given = values.scope === 'project' ? 'workspace' : values.scope;
      if (given !== 'user' && given !== 'workspace')
        throw new CliUsageError(`--scope must be user or workspace (got "${values.scope}").`);
      scope = given;
    }
    return command === 'enable'
      ? enableAgent(io, agent(), name.trim())
      : disableAgent(io, agent(), name.trim(), scope);
  }
  if (command !== 'list') {
    throw new CliUsageError(
      `Unknown agents command "${command}": use \`gemini-agent agents list\`, \`agents enable <name>\` or ` +
        '`agents disable <name>`.',
    );
  }
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}" after list.`);
  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new CliUsageError(
      `--output-format for agents list must be text or json (got "${format}").`,
    );
  return listAgents(io, agent(), format);
}
