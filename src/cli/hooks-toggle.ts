import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { readSettingsDocument, writeSettingsKey, type SettingsDocument } from './settings-edit.js';
import type { GeminiCliAgent, LoadedSettings } from './sdk.js';

/** The settings files `hooks enable|disable` (and `skills enable|disable`) write, as gemini-cli's do. */
export type HookToggleScope = 'user' | 'workspace';

/** A settings section holding a `disabled` list of names: `hooksConfig` or `skills`. */
export type DisabledListSection = 'hooksConfig' | 'skills';

/** A writable settings file and one section's `disabled` list in it. */
export interface ScopeFile {
  scope: HookToggleScope;
  section: DisabledListSection;
  doc: SettingsDocument;
  disabled: string[];
}

function fileOf(settings: LoadedSettings, scope: HookToggleScope): string {
  const file = settings.files.find((f) => f.scope === scope);
  if (file === undefined) throw new Error(`no ${scope} settings file`);
  return file.path;
}

/** The section object of a settings file (a non-object is an error: the file is left alone). */
function sectionOf(doc: SettingsDocument, section: DisabledListSection): Record<string, unknown> {
  const config = doc.value[section];
  if (config === undefined) return {};
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new CliUsageError(`"${section}" in ${doc.file} is not an object; fix it first.`);
  }
  return { ...(config as Record<string, unknown>) };
}

/** Reads `<section>.disabled` of one scope's settings file, for editing. */
export function readScope(
  settings: LoadedSettings,
  scope: HookToggleScope,
  section: DisabledListSection = 'hooksConfig',
): ScopeFile {
  const doc = readSettingsDocument(fileOf(settings, scope));
  const list = sectionOf(doc, section)['disabled'];
  if (list !== undefined && (!Array.isArray(list) || list.some((n) => typeof n !== 'string'))) {
    throw new CliUsageError(
      `"${section}.disabled" in ${doc.file} is not a list of names; fix it first.`,
    );
  }
  return { scope, section, doc, disabled: [...((list as string[] | undefined) ?? [])] };
}

/** Writes a new `<section>.disabled` list into the file, keeping the rest of the file. */
export function writeDisabled(file: ScopeFile, disabled: string[]): void {
  writeSettingsKey(file.doc, file.section, { ...sectionOf(file.doc, file.section), disabled });
}

/** The scopes whose files this folder can write: the workspace's only when it is not the home folder. */
export function writableScopes(settings: LoadedSettings): HookToggleScope[] {
  const home = settings.files.find((f) => f.scope === 'workspace')?.skipped === 'home-workspace';
  return home ? ['user'] : ['workspace', 'user'];
}

/**
 * {@link writableScopes}, for a command that asked for one scope: `--scope workspace` in the home folder is an
 * error (its workspace settings are the user settings).
 */
export function writableScopesFor(
  settings: LoadedSettings,
  requested: HookToggleScope | undefined,
): HookToggleScope[] {
  const writable = writableScopes(settings);
  if (requested === 'workspace' && !writable.includes('workspace')) {
    throw new CliUsageError('Please use --scope user to edit settings in the home directory.');
  }
  return writable;
}

/** `workspace (/path/.gemini/settings.json)`, as gemini names a scope in its messages. */
export const label = (f: ScopeFile): string => `${f.scope} (${f.doc.file})`;

/** After an enable: a system settings file that still disables the name is reported (never edited). */
export function warnIfSystemDisables(
  io: CliIo,
  settings: LoadedSettings,
  section: DisabledListSection,
  name: string,
): void {
  const system = settings.files.find(
    (f) => f.scope === 'system' && (f.settings[section]?.disabled ?? []).includes(name),
  );
  if (system !== undefined) {
    io.stderr(
      `Warning: the system settings (${system.path}) also disable "${name}"; only an administrator can change that.\n`,
    );
  }
}

/**
 * `gemini-agent hooks enable <name>`: removes the name from `hooksConfig.disabled` of the workspace and the user
 * settings, wherever it is (the lists are merged as a union, so both must drop it), as gemini-cli's
 * `/hooks enable` does. A system settings file that disables it is reported, never edited.
 */
export function enableHook(io: CliIo, agent: GeminiCliAgent, name: string): void {
  const settings = agent.settings;
  const files = writableScopes(settings).map((scope) => readScope(settings, scope));
  const changed = files.filter((f) => f.disabled.includes(name));
  for (const file of changed) {
    writeDisabled(
      file,
      file.disabled.filter((n) => n !== name),
    );
  }
  io.stdout(
    changed.length === 0
      ? `Hook "${name}" is already enabled.\n`
      : `Hook "${name}" enabled by removing it from the disabled list in ${changed.map(label).join(' and ')} settings.\n`,
  );
  warnIfSystemDisables(io, settings, 'hooksConfig', name);
  warnIfUnknown(io, agent, name);
}

/**
 * `gemini-agent hooks disable <name> [--scope user|workspace]`: adds the name to `hooksConfig.disabled` of one
 * settings file: the workspace's by default, as gemini-cli's `/hooks disable` does — the user's in the home folder
 * and in a folder that is not trusted (its workspace settings are not read there, so the entry would do nothing).
 */
export function disableHook(
  io: CliIo,
  agent: GeminiCliAgent,
  name: string,
  requested: HookToggleScope | undefined,
): void {
  const settings = agent.settings;
  const writable = writableScopesFor(settings, requested);
  const scope =
    requested ?? (writable.includes('workspace') && settings.trust.trusted ? 'workspace' : 'user');
  const file = readScope(settings, scope);
  const other = writable.filter((s) => s !== scope).map((s) => readScope(settings, s));
  if (file.disabled.includes(name)) {
    io.stdout(`Hook "${name}" is already disabled in ${label(file)} settings.\n`);
  } else {
    writeDisabled(file, [...file.disabled, name]);
    const also = other.filter((f) => f.disabled.includes(name));
    io.stdout(
      also.length > 0
        ? `Hook "${name}" is now disabled in both ${label(file)} and ${also.map(label).join(' and ')} settings.\n`
        : `Hook "${name}" disabled by adding it to the disabled list in ${label(file)} settings.\n`,
    );
  }
  if (scope === 'workspace' && !settings.trust.trusted) {
    io.stderr(
      'Warning: this folder is not trusted, so its .gemini/settings.json is not read: the entry takes effect once the folder is trusted.\n',
    );
  }
  warnIfUnknown(io, agent, name);
}

/** A name no hook of this folder has is still written (it may be a hook added later), with a warning. */
function warnIfUnknown(io: CliIo, agent: GeminiCliAgent, name: string): void {
  const { hooks } = agent.hooks();
  if (hooks.some((h) => h.name === name)) return;
  const known = [...new Set(hooks.map((h) => h.name))];
  io.stderr(
    `Warning: no hook of this folder is named "${name}"` +
      (known.length > 0 ? ` (hooks: ${known.join(', ')}).\n` : ' (no hooks are configured).\n'),
  );
}
