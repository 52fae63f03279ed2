import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { disableHook, enableHook, type HookToggleScope } from './hooks-toggle.js';
import { GeminiCliAgent, migrateClaudeHooks, type HookInfo } from './sdk.js';

/** The `gemini-agent hooks --help` text. */
export const HOOKS_HELP_TEXT = `Usage: gemini-agent hooks <command> [options]

The command hooks of the settings files (~/.gemini/settings.json, and .gemini/settings.json in a trusted folder).

Commands:
  list                   The hooks that run in this folder, in run order: event, name, matcher, command, and
                         whether hooksConfig.disabled turns one off. Skipped definitions are listed with why.
  enable <name>          Remove a hook from hooksConfig.disabled in the workspace and user settings (wherever
                         it is listed), as gemini-cli's /hooks enable.
  disable <name>         Add a hook to hooksConfig.disabled of one settings file: the workspace's
                         (.gemini/settings.json) by default, the user's in the home folder or an untrusted folder.
                         <name> is the hook's name, else its command, as hooks list shows it.
  migrate --from-claude  Add the hooks of .claude/settings.local.json (else .claude/settings.json) to
                         .gemini/settings.json: event and tool names mapped, $CLAUDE_PROJECT_DIR renamed,
                         timeouts turned from seconds into milliseconds.

Options:
  -o, --output-format <f>  list: text (default) or json.
  -s, --scope <s>          disable: user or workspace (also: project).
      --skip-trust         list, enable, disable: trust this folder for this run (its .gemini/settings.json
                           hooks count).
  -h, --help               Print this help.
`;

const OPTIONS = {
  'output-format': { type: 'string', short: 'o' },
  scope: { type: 'string', short: 's' },
  'skip-trust': { type: 'boolean' },
  'from-claude': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function line(hook: HookInfo): string {
  const where = hook.matcher !== undefined && hook.matcher !== '' ? ` [${hook.matcher}]` : '';
  const state = hook.enabled ? '' : ' (disabled)';
  const what = hook.command !== undefined && hook.command !== hook.name ? `  ${hook.command}` : '';
  return `  ${hook.event}${where}  ${hook.name}${state}${what}\n`;
}

/** `hooks enable|disable <name>`: checks the arguments, then edits the settings files. */
function toggle(
  io: CliIo,
  command: 'enable' | 'disable',
  names: readonly string[],
  values: { scope?: string | undefined; 'skip-trust'?: boolean | undefined },
): ExitCode {
  const [name, ...more] = names;
  if (name === undefined || name.trim() === '')
    throw new CliUsageError(`Usage: gemini-agent hooks ${command} <hook-name>`);
  if (more.length > 0) throw new CliUsageError(`Unexpected argument "${more[0]}" after ${name}.`);
  let scope: HookToggleScope | undefined;
  if (values.scope !== undefined) {
    if (command === 'enable')
      throw new CliUsageError('hooks enable takes no --scope: it enables the hook in every scope.');
    const given = values.scope === 'project' ? 'workspace' : values.scope;
    if (given !== 'user' && given !== 'workspace')
      throw new CliUsageError(`--scope must be user or workspace (got "${values.scope}").`);
    scope = given;
  }
  const agent = new GeminiCliAgent({
    cwd: io.cwd,
    ...(values['skip-trust'] === true ? { trustWorkspace: true } : {}),
  });
  if (command === 'enable') enableHook(io, agent, name.trim());
  else disableHook(io, agent, name.trim(), scope);
  return ExitCode.Success;
}

/** `gemini-agent hooks list|enable|disable|migrate`: shows the settings hooks that run here, or migrates Claude Code's. */
export async function hooksCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliUsageError(
      `${error instanceof Error ? error.message : String(error)}\nRun \`gemini-agent hooks --help\` for usage.`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(HOOKS_HELP_TEXT);
    return ExitCode.Success;
  }
  const [command, ...extra] = positionals;
  if (command === 'enable' || command === 'disable') return toggle(io, command, extra, values);
  if (extra.length > 0)
    throw new CliUsageError(`Unexpected argument "${extra[0]}" after ${command}.`);
  if (command === 'migrate') {
    if (values['from-claude'] !== true) {
      throw new CliUsageError(
        'Usage: gemini-agent hooks migrate --from-claude (the only source gemini-cli migrates from).',
      );
    }
    const result = migrateClaudeHooks(io.cwd);
    const total = Object.values(result.added).reduce((a, b) => a + b, 0);
    io.stdout(`Found Claude Code settings in ${result.source}\n`);
    if (total === 0) {
      io.stdout(
        result.skipped > 0
          ? `Nothing to add: its ${result.skipped} hook(s) are already in ${result.target}.\n`
          : 'No hooks found in the Claude Code settings to migrate.\n',
      );
      return ExitCode.Success;
    }
    for (const [event, n] of Object.entries(result.added)) io.stdout(`  ${event}: ${n} hook(s)\n`);
    if (result.backup) io.stdout(`The file had comments; the old version is in ${result.backup}\n`);
    io.stdout(`Added ${total} hook(s) to ${result.target}. Review them before the next run.\n`);
    return ExitCode.Success;
  }
  if (command !== 'list') {
    throw new CliUsageError(
      `${command === undefined ? 'Missing' : 'Unknown'} hooks command${command === undefined ? '' : ` "${command}"`}: ` +
        'use `gemini-agent hooks list`, `hooks enable <name>`, `hooks disable <name>` or `hooks migrate --from-claude`.',
    );
  }
  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new CliUsageError(
      `--output-format for hooks list must be text or json (got "${format}").`,
    );
  const agent = new GeminiCliAgent({
    cwd: io.cwd,
    ...(values['skip-trust'] === true ? { trustWorkspace: true } : {}),
  });
  const { hooks, warnings } = agent.hooks();
  if (format === 'json') {
    io.stdout(`${JSON.stringify({ hooks, warnings }, null, 2)}\n`);
    return ExitCode.Success;
  }
  if (hooks.length === 0) io.stdout('No hooks are configured for this folder.\n');
  else {
    io.stdout(`Hooks (${hooks.length}), in run order:\n`);
    for (const hook of hooks) io.stdout(line(hook));
  }
  if (!agent.settings.trust.trusted && existsSync(join(io.cwd, '.gemini', 'settings.json')))
    io.stdout('This folder is not trusted: its .gemini/settings.json hooks do not run.\n');
  for (const warning of warnings) io.stderr(`Warning: ${warning}\n`);
  return ExitCode.Success;
}
