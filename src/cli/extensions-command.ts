import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { askConsent, LineReader } from './line-reader.js';
import { extensionListEntry } from './extension-list-entry.js';
import { canPrompt, confirmQuestion, settingQuestion } from './setting-prompts.js';
import {
  EXTENSION_TEMPLATES,
  EXTENSION_INSTALL_WARNING,
  ExtensionManager,
  createExtensionFolder,
  loadSettings,
  validateExtensionFolder,
  type ExtensionUpdateInfo,
} from './sdk.js';

/** The `gemini-agent extensions --help` text. */
export const EXTENSIONS_HELP_TEXT = `Usage: gemini-agent extensions <command>

Manage gemini-cli extensions in ~/.gemini/extensions (the same folders and files as gemini extensions).

Commands:
  list [-o text|json]                       List the installed extensions and where they are enabled.
  install <source> [--ref <ref>] [--consent] [--skip-settings]
                                            Install from a local folder or a git URL (cloned with git).
  link <path> [--consent]                   Link a local folder: edits to it are live.
  config [name] [setting] [--scope user|workspace]
                                            Set an extension's settings (all of them, or one by name or env var).
  uninstall <name|source>... | --all        Uninstall extensions.
  update <name> | --all [--consent]         Update extensions from their source (git or local folder).
  enable [--scope user|workspace] <name>    Enable an extension (default: everywhere under your home folder).
  disable [--scope user|workspace] <name>   Disable an extension (default scope: user).
  new <path> [template]                     Create an extension folder (templates: ${EXTENSION_TEMPLATES.join(', ')}).
  validate <path>                           Check an extension folder.

Options of install and link:
      --consent       Accept the security notice without being asked (non-interactive use).
      --ref <ref>     The git branch, tag or commit to install (git sources).
      --auto-update   Record that the extension should be updated automatically.
      --pre-release   Record that pre-releases may be installed.
      --skip-settings Do not ask for the extension's settings.

install, link and update ask for the settings on a terminal (not with CI=true); otherwise they say which settings
have no value. Sensitive values go to gemini-cli's keychain file (~/.gemini/gemini-credentials.json), the others
to the extension's .env (config --scope workspace: <cwd>/.env).
`;

function manager(io: CliIo): ExtensionManager {
  const env = { ...(io.env ?? {}) } as NodeJS.ProcessEnv;
  return new ExtensionManager({ cwd: io.cwd, settings: loadSettings({ cwd: io.cwd, env }), env });
}

function parse(
  args: readonly string[],
  options: NonNullable<Parameters<typeof parseArgs>[0]>['options'],
) {
  try {
    return parseArgs({
      args: [...args],
      options: options ?? {},
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new CliUsageError(
      `${(error as Error).message}\nRun \`gemini-agent extensions --help\` for usage.`,
    );
  }
}

function scopeOf(value: unknown): 'user' | 'workspace' | undefined {
  if (value === undefined) return undefined;
  const scope = String(value).toLowerCase();
  if (scope !== 'user' && scope !== 'workspace') {
    throw new CliUsageError(`Invalid scope: ${String(value)}. Please use one of user, workspace.`);
  }
  return scope;
}

function one(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0]) {
    throw new CliUsageError(`Give one ${what}. Run \`gemini-agent extensions --help\` for usage.`);
  }
  return positionals[0];
}

/** Prints an operation's failure as gemini-cli does (the message on stderr) and returns exit code 1. */
function failed(io: CliIo, error: unknown): ExitCode {
  if (error instanceof CliUsageError) throw error;
  io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
  return ExitCode.GeneralError;
}

async function add(io: CliIo, args: readonly string[], link: boolean): Promise<ExitCode> {
  const { values, positionals } = parse(args, {
    consent: { type: 'boolean' },
    ...(link
      ? {}
      : {
          ref: { type: 'string' },
          'auto-update': { type: 'boolean' },
          'pre-release': { type: 'boolean' },
          'skip-settings': { type: 'boolean' },
        }),
  });
  const source = one(positionals, link ? 'folder to link' : 'source (a folder or a git URL)');
  const onSourceResolved = () => {
    if (values['consent'] === true) {
      io.stderr(`You have consented to the following:\n${EXTENSION_INSTALL_WARNING}\n`);
    }
  };
  const lines = new LineReader(io.stdin);
  const consent = values['consent'] === true ? () => true : askConsent(io, lines);
  const onWarning = warn(io);
  const requestSetting =
    values['skip-settings'] !== true && canPrompt(io) ? settingQuestion(io, lines) : undefined;
  try {
    const m = manager(io);
    const ext = link
      ? await m.link(source, { consent, onSourceResolved, onWarning, requestSetting })
      : await m.install(source, {
          consent,
          onSourceResolved,
          onWarning,
          requestSetting,
          ...(typeof values['ref'] === 'string' ? { ref: values['ref'] } : {}),
          ...(values['auto-update'] === true ? { autoUpdate: true } : {}),
          ...(values['pre-release'] === true ? { allowPreRelease: true } : {}),
        });
    io.stdout(
      `Extension "${ext.name}" ${link ? 'linked' : 'installed'} successfully and enabled.\n`,
    );
    return ExitCode.Success;
  } catch (error) {
    return failed(io, error);
  } finally {
    lines.close();
  }
}

async function list(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const { values } = parse(args, { 'output-format': { type: 'string', short: 'o' } });
  const format = values['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json') {
    throw new CliUsageError(`Invalid --output-format "${String(format)}": use text or json.`);
  }
  const m = manager(io);
  for (const warning of m.loadInstalled().warnings) io.stderr(`Warning: ${warning}\n`);
  const infos = await m.list();
  if (format === 'json') io.stdout(`${JSON.stringify(infos, null, 2)}\n`);
  else if (infos.length === 0) io.stdout('No extensions installed.\n');
  else io.stdout(`${infos.map(extensionListEntry).join('\n\n')}\n`);
  return ExitCode.Success;
}

async function uninstall(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parse(args, { all: { type: 'boolean' } });
  const m = manager(io);
  const names =
    values['all'] === true ? (await m.list()).map((e) => e.name) : [...new Set(positionals)];
  if (names.length === 0) {
    if (values['all'] === true) {
      io.stdout('No extensions currently installed.\n');
      return ExitCode.Success;
    }
    throw new CliUsageError(
      'Please include at least one extension name to uninstall as a positional argument, or use the --all flag.',
    );
  }
  let code: ExitCode = ExitCode.Success;
  for (const name of names) {
    try {
      await m.uninstall(name);
      io.stdout(`Extension "${name}" successfully uninstalled.\n`);
    } catch (error) {
      io.stderr(`Failed to uninstall "${name}": ${(error as Error).message}\n`);
      code = ExitCode.GeneralError;
    }
  }
  return code;
}

/**
 * Prints a warning the manager reports on stderr, as gemini's CLI prints its warning feedback (no prefix); the
 * missing-settings warning names this CLI's `config` command.
 */
function warn(io: CliIo): (message: string) => void {
  return (message) =>
    io.stderr(
      `${message.replace('run "gemini extensions config ', 'run "gemini-agent extensions config ')}\n`,
    );
}

async function config(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parse(args, { scope: { type: 'string' } });
  const scope = scopeOf(values['scope']);
  const [name, setting, extra] = positionals;
  if (extra !== undefined) {
    throw new CliUsageError(
      'Usage: gemini-agent extensions config [name] [setting] [--scope user|workspace]',
    );
  }
  const lines = new LineReader(io.stdin);
  try {
    await manager(io).configure(name, {
      ...(setting !== undefined ? { setting } : {}),
      ...(scope ? { scope } : {}),
      requestSetting: settingQuestion(io, lines),
      confirm: confirmQuestion(io, lines),
      onMessage: (message) => io.stdout(`${message}\n`),
    });
    return ExitCode.Success;
  } catch (error) {
    return failed(io, error);
  } finally {
    lines.close();
  }
}

async function update(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parse(args, {
    all: { type: 'boolean' },
    consent: { type: 'boolean' },
  });
  const all = values['all'] === true;
  if (all && positionals.length > 0) {
    throw new CliUsageError(
      'Arguments name and all are mutually exclusive\nRun `gemini-agent extensions --help` for usage.',
    );
  }
  if (!all && positionals.length === 0) {
    throw new CliUsageError(
      'Either an extension name or --all must be provided\nRun `gemini-agent extensions --help` for usage.',
    );
  }
  const name = all ? undefined : one(positionals, 'extension name');
  const lines = new LineReader(io.stdin);
  const consent = values['consent'] === true ? () => true : askConsent(io, lines);
  const requestSetting = canPrompt(io) ? settingQuestion(io, lines) : undefined;
  try {
    const m = manager(io);
    if (name === undefined) {
      const result = await m.updateAll({ consent, onWarning: warn(io), requestSetting });
      for (const { name: failed, error } of result.failed) {
        io.stderr(`Failed to update "${failed}": ${error.message}\n`);
      }
      if (result.updated.length > 0) io.stdout(`${result.updated.map(updatedLine).join('\n')}\n`);
      else if (result.failed.length === 0) io.stdout('No extensions to update.\n');
      return result.failed.length === 0 ? ExitCode.Success : ExitCode.GeneralError;
    }
    const installed = m.loadInstalled().extensions;
    if (!installed.some((e) => e.name === name)) {
      io.stderr(
        installed.length === 0
          ? `Extension "${name}" not found.\n\nNo extensions installed.\n`
          : `Extension "${name}" not found.\n\nInstalled extensions:\n${installed.map((e) => `${e.name} (${e.version})`).join('\n')}\n\nRun "gemini-agent extensions list" for details.\n`,
      );
      return ExitCode.GeneralError;
    }
    // gemini's CLI: anything but "update available" (a link, a source that cannot be read) is up to date.
    const check = await m.checkForUpdate(name);
    if (check.state === 'error')
      throw new Error(check.reason ?? `Cannot check "${name}" for updates.`);
    if (check.state !== 'update available') {
      if (check.reason) io.stderr(`${check.reason}\n`);
      io.stdout(`Extension "${name}" is already up to date.\n`);
      return ExitCode.Success;
    }
    const info = await m.update(name, { consent, onWarning: warn(io), requestSetting });
    io.stdout(
      info.originalVersion === info.updatedVersion
        ? `Extension "${name}" is already up to date.\n`
        : `${updatedLine(info)}\n`,
    );
    return ExitCode.Success;
  } catch (error) {
    return failed(io, error);
  } finally {
    lines.close();
  }
}

function updatedLine(info: ExtensionUpdateInfo): string {
  return `Extension "${info.name}" successfully updated: ${info.originalVersion} → ${info.updatedVersion}.`;
}

function toggle(io: CliIo, args: readonly string[], enable: boolean): ExitCode {
  const { values, positionals } = parse(args, { scope: { type: 'string' } });
  const scope = scopeOf(values['scope']);
  const name = one(positionals, 'extension name');
  try {
    const m = manager(io);
    if (enable) m.enable(name, scope ?? 'user');
    else m.disable(name, scope ?? 'user');
  } catch (error) {
    return failed(io, error);
  }
  const given = typeof values['scope'] === 'string' ? values['scope'] : undefined;
  io.stdout(
    enable
      ? given === undefined
        ? `Extension "${name}" successfully enabled in all scopes.\n`
        : `Extension "${name}" successfully enabled for scope "${given}".\n`
      : `Extension "${name}" successfully disabled for scope "${given ?? 'User'}".\n`,
  );
  return ExitCode.Success;
}

async function create(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const { positionals } = parse(args, {});
  const [path, template, extra] = positionals;
  if (!path || extra !== undefined)
    throw new CliUsageError('Usage: gemini-agent extensions new <path> [template]');
  if (template !== undefined && !(EXTENSION_TEMPLATES as readonly string[]).includes(template)) {
    throw new CliUsageError(
      `Invalid template "${template}". Choices: ${EXTENSION_TEMPLATES.join(', ')}.`,
    );
  }
  try {
    await createExtensionFolder(path, template);
  } catch (error) {
    return failed(io, error);
  }
  io.stdout(
    template === undefined
      ? `Successfully created new extension at ${path}.\n`
      : `Successfully created new extension from template "${template}" at ${path}.\n`,
  );
  io.stdout(`You can install this using "gemini-agent extensions link ${path}" to test it out.\n`);
  return ExitCode.Success;
}

function validate(io: CliIo, args: readonly string[]): ExitCode {
  const path = one(parse(args, {}).positionals, 'extension folder');
  const result = validateExtensionFolder(path, io.cwd);
  if (result.warnings.length > 0) {
    io.stderr(`Validation warnings:\n${result.warnings.map((w) => `  - ${w}\n`).join('')}`);
  }
  if (result.name === undefined) {
    io.stderr(`${result.errors.join('\n')}\n`);
    return ExitCode.GeneralError;
  }
  if (result.errors.length > 0) {
    io.stderr(
      `Validation failed with the following errors:\n${result.errors.map((e) => `  - ${e}\n`).join('')}Extension validation failed.\n`,
    );
    return ExitCode.GeneralError;
  }
  io.stdout(`Extension ${path} has been successfully validated.\n`);
  return ExitCode.Success;
}

/**
 * `gemini-agent extensions list | install | link | uninstall | update | enable | disable | new | validate | config`, as gemini's
 * `extensions` commands: the same folders and files, texts and exit codes (1 when an operation fails, 42 for a bad
 * command line).
 */
export async function extensionsCommand(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const [command, ...rest] = args;
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(EXTENSIONS_HELP_TEXT);
      return command === undefined ? ExitCode.InputError : ExitCode.Success;
    case 'list':
      return list(io, rest);
    case 'install':
      return add(io, rest, false);
    case 'link':
      return add(io, rest, true);
    case 'uninstall':
      return uninstall(io, rest);
    case 'update':
      return update(io, rest);
    case 'enable':
      return toggle(io, rest, true);
    case 'disable':
      return toggle(io, rest, false);
    case 'new':
      return create(io, rest);
    case 'validate':
      return validate(io, rest);
    case 'config':
      return config(io, rest);
    default:
      throw new CliUsageError(
        `Unknown extensions command "${command}". Run \`gemini-agent extensions --help\` for the commands.`,
      );
  }
}
