import { parseArgs } from 'node:util';
import { CliFlagError, CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import {
  label,
  readScope,
  warnIfSystemDisables,
  writableScopes,
  writableScopesFor,
  writeDisabled,
  type HookToggleScope,
  type ScopeFile,
} from './hooks-toggle.js';
import { GeminiCliAgent } from './sdk.js';

/** The `gemini-agent skills --help` text. */
export const SKILLS_HELP_TEXT = `Usage: gemini-agent skills <command> [options]

The agent skills of this folder (~/.gemini/skills, ~/.agents/skills, and .gemini/skills, .agents/skills in a
trusted folder, plus those of active extensions), as gemini-cli's \`gemini skills\`.

Commands:
  list [--all]               Lists discovered agent skills: name, [Enabled] or [Disabled], description, location.
  enable <name>              Enables an agent skill: removes it from skills.disabled in the workspace and user
                             settings, wherever it is listed.
  disable <name> [--scope]   Disables an agent skill: adds it to skills.disabled of the workspace settings
                             (.gemini/settings.json) or, with --scope user, ~/.gemini/settings.json.

Options:
      --all                list: also the built-in skills.
  -s, --scope <s>          disable: user or workspace (default: workspace; user in the home folder).
      --skip-trust         list: trust this folder for this run (its workspace skills are listed).
  -h, --help               Print this help.

Confirmations are printed on stderr, as gemini prints them; the settings files keep their comments.
`;

const OPTIONS = {
  all: { type: 'boolean' },
  scope: { type: 'string', short: 's' },
  'skip-trust': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `gemini-agent skills list|enable|disable`: gemini-cli 0.61's `gemini skills` on the same files. */
export async function skillsCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliFlagError(
      `${error instanceof Error ? error.message : String(error)} Run \`gemini-agent skills --help\` for usage.`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(SKILLS_HELP_TEXT);
    return ExitCode.Success;
  }
  const [command, ...rest] = positionals;
  if (command === undefined) {
    throw new CliFlagError(
      'Missing skills command: use `gemini-agent skills list`, `skills enable <name>` or `skills disable <name>`.',
    );
  }
  if (command === 'install' || command === 'link' || command === 'uninstall') {
    throw new CliUsageError(
      `gemini-agent skills ${command} is not supported: copy or link the skill's folder into ~/.gemini/skills ` +
        '(or .gemini/skills of a trusted project) yourself, or use gemini-agent extensions for packaged skills.',
    );
  }
  if (command !== 'list' && command !== 'enable' && command !== 'disable') {
    throw new CliFlagError(
      `Unknown skills command "${command}": use list, enable <name> or disable <name>.`,
    );
  }
  if (values.all !== undefined && command !== 'list')
    throw new CliFlagError('--all only applies to skills list.');
  if (values.scope !== undefined && command !== 'disable')
    throw new CliFlagError(
      `--scope only applies to skills disable (skills ${command} has no scope).`,
    );
  const agent = new GeminiCliAgent({
    cwd: io.cwd,
    ...(values['skip-trust'] === true ? { trustWorkspace: true } : {}),
  });
  try {
    if (command === 'list') {
      if (rest.length > 0) throw new CliFlagError(`Unexpected argument "${rest[0]}" after list.`);
      await listSkills(io, agent, values.all === true);
      return ExitCode.Success;
    }
    const [name, ...more] = rest;
    if (name === undefined || name.trim() === '')
      throw new CliFlagError(`Usage: gemini-agent skills ${command} <name>`);
    if (more.length > 0) throw new CliFlagError(`Unexpected argument "${more[0]}" after ${name}.`);
    if (command === 'enable') enableSkill(io, agent, name.trim());
    else disableSkill(io, agent, name.trim(), scopeOf(values.scope));
    await warnIfUnknown(io, agent, name.trim());
    return ExitCode.Success;
  } finally {
    await agent.close();
  }
}

function scopeOf(value: string | undefined): HookToggleScope | undefined {
  if (value === undefined) return undefined;
  if (value === 'user' || value === 'workspace') return value;
  throw new CliFlagError(`Invalid --scope "${value}": use user or workspace.`);
}

/** gemini's `skills list`: the discovered skills, non-built-in first, then by name. */
async function listSkills(io: CliIo, agent: GeminiCliAgent, all: boolean): Promise<void> {
  const manager = await agent.skills();
  const skills = manager
    .list()
    .filter((s) => all || !s.isBuiltin)
    .sort((a, b) =>
      a.isBuiltin === b.isBuiltin ? a.name.localeCompare(b.name) : a.isBuiltin ? 1 : -1,
    );
  if (skills.length === 0) {
    io.stdout('No skills discovered.\n');
    return;
  }
  let text = 'Discovered Agent Skills:\n\n';
  for (const skill of skills) {
    const status = skill.enabled ? '[Enabled]' : '[Disabled]';
    text += `${skill.name} ${status}${skill.isBuiltin ? ' [Built-in]' : ''}\n`;
    text += `  Description: ${skill.description}\n  Location:    ${skill.location}\n\n`;
  }
  io.stdout(text);
}

/** `, and ` of two scopes, as gemini joins them: `workspace (…) and user (…)`. */
const scopes = (files: readonly ScopeFile[]): string => files.map(label).join(' and ');

/**
 * gemini's `skills enable`: removes the name from `skills.disabled` in every writable scope that lists it (the
 * lists merge as a union, so each must drop it). The message names the scopes changed, then those that were
 * already clear, as gemini's does.
 */
function enableSkill(io: CliIo, agent: GeminiCliAgent, name: string): void {
  const settings = agent.settings;
  const files = writableScopes(settings).map((scope) => readScope(settings, scope, 'skills'));
  const changed = files.filter((f) => f.disabled.includes(name));
  if (changed.length === 0) {
    io.stderr(`Skill "${name}" is already enabled.\n`);
  } else {
    for (const file of changed) {
      writeDisabled(
        file,
        file.disabled.filter((n) => n !== name),
      );
    }
    const clear = files.filter((f) => !changed.includes(f));
    io.stderr(
      `Skill "${name}" enabled by removing it from the disabled list in ${scopes([...changed, ...clear])} settings.\n`,
    );
  }
  warnIfSystemDisables(io, settings, 'skills', name);
}

/**
 * gemini's `skills disable`: adds the name to `skills.disabled` of one settings file — the workspace's unless
 * `--scope user` (the user's in the home folder, where both are one file; gemini writes nowhere there).
 */
function disableSkill(
  io: CliIo,
  agent: GeminiCliAgent,
  name: string,
  requested: HookToggleScope | undefined,
): void {
  const settings = agent.settings;
  const writable = writableScopesFor(settings, requested);
  const scope = requested ?? (writable.includes('workspace') ? 'workspace' : 'user');
  const file = readScope(settings, scope, 'skills');
  if (file.disabled.includes(name)) {
    io.stderr(`Skill "${name}" is already disabled.\n`);
    return;
  }
  writeDisabled(file, [...file.disabled, name]);
  const also = writable
    .filter((s) => s !== scope)
    .map((s) => readScope(settings, s, 'skills'))
    .filter((f) => f.disabled.includes(name));
  io.stderr(
    also.length > 0
      ? `Skill "${name}" is now disabled in both ${scopes([file, ...also])} settings.\n`
      : `Skill "${name}" disabled by adding it to the disabled list in ${label(file)} settings.\n`,
  );
  if (scope === 'workspace' && !settings.trust.trusted) {
    io.stderr(
      'Warning: this folder is not trusted, so its .gemini/settings.json is not read: the entry takes effect once the folder is trusted.\n',
    );
  }
}

/** A name no skill of this folder has is still written (it may be installed later), with a warning. */
async function warnIfUnknown(io: CliIo, agent: GeminiCliAgent, name: string): Promise<void> {
  const manager = await agent.skills();
  if (manager.get(name) !== undefined) return;
  const known = manager.list().map((s) => s.name);
  io.stderr(
    `Warning: no skill of this folder is named "${name}"` +
      (known.length > 0 ? ` (skills: ${known.join(', ')}).\n` : ' (no skills are installed).\n'),
  );
}
