// Writing extension settings as gemini-cli 0.61 does (packages/cli/src/config/extensions/extensionSettings.ts):
// the prompts at install and update (maybePromptForSettings, getSettingsChanges) and `extensions config`
// (updateSetting). Non-sensitive values go to a `.env` file, sensitive ones to gemini-cli's file keychain.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EXTENSION_ENV_FILE,
  ExtensionError,
  readExtensionManifest,
  type ExtensionSetting,
} from './extension-manifest.js';
import { settingsOf, userSettingsFile } from './extension-settings.js';
import type { ResolvedExtension } from './resolved-extension.js';
import { parseDotEnv } from './extension-variables.js';
import {
  KEYCHAIN_SECRET_PREFIX,
  extensionKeychainService,
  keychainFile,
  readKeychainFile,
  setKeychainPassword,
  writeKeychainFile,
} from './file-keychain.js';

/**
 * Asks the user for one setting's value (gemini-cli shows the name, then the description; a `sensitive` one
 * hidden). `undefined` (a cancelled prompt) leaves the setting as it was.
 */
export type ExtensionSettingRequest = (
  setting: ExtensionSetting,
) => string | undefined | Promise<string | undefined>;

/** Where one extension's settings are stored, for one scope. */
export interface SettingsStore {
  name: string;
  /** gemini-cli's extension id (`ExtensionInfo.id`). */
  id: string;
  /** `~/.gemini/extensions`; the keychain file is in its parent folder. */
  extensionsDir: string;
  scope: 'user' | 'workspace';
  /** The working folder: the workspace scope's `.env` and keychain service. */
  workspaceDir: string;
}

function envFile(store: SettingsStore): string {
  return store.scope === 'workspace'
    ? join(store.workspaceDir, EXTENSION_ENV_FILE)
    : userSettingsFile(store.extensionsDir, store.name);
}

function secretsFile(store: SettingsStore): string {
  return keychainFile(join(store.extensionsDir, '..'));
}

function service(store: SettingsStore): string {
  return extensionKeychainService(
    store.name,
    store.id,
    store.scope === 'workspace' ? store.workspaceDir : undefined,
  );
}

/** @throws ExtensionError gemini-cli's text when the `.env` path is a folder. */
function writableEnvFile(store: SettingsStore): string {
  const file = envFile(store);
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new ExtensionError(
      `Cannot write extension settings to ${file} because it is a directory.`,
    );
  }
  return file;
}

/**
 * gemini-cli's `.env` text: `KEY=value` lines, a value with a space in double quotes (`\` and `"` escaped).
 *
 * @throws ExtensionError gemini-cli's texts for a key that is not a variable name or a value with a line break.
 */
export function formatEnvContent(values: Readonly<Record<string, string>>): string {
  let text = '';
  for (const [key, value] of Object.entries(values)) {
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(key)) {
      throw new ExtensionError(
        `Invalid environment variable name: "${key}". Must contain only alphanumeric characters and underscores.`,
      );
    }
    if (value.includes('\n') || value.includes('\r')) {
      throw new ExtensionError(
        `Invalid environment variable value for "${key}". Values cannot contain newlines.`,
      );
    }
    const formatted = value.includes(' ')
      ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
      : value;
    text += `${key}=${formatted}\n`;
  }
  return text;
}

/**
 * gemini-cli's `getScopedEnvContents`: the scope's `.env` values, with each sensitive setting's keychain value
 * (when not empty) over them.
 *
 * @throws KeychainFileError when the keychain file cannot be read.
 */
export function scopedSettingsValues(
  store: SettingsStore,
  settings: readonly ExtensionSetting[],
): Record<string, string> {
  const file = envFile(store);
  const values =
    existsSync(file) && !statSync(file).isDirectory()
      ? parseDotEnv(readFileSync(file, 'utf8'))
      : {};
  if (settings.some((s) => s.sensitive === true)) {
    const accounts = readKeychainFile(secretsFile(store))[service(store)] ?? {};
    for (const s of settings) {
      const secret = s.sensitive === true ? accounts[KEYCHAIN_SECRET_PREFIX + s.envVar] : undefined;
      if (secret) values[s.envVar] = secret;
    }
  }
  return values;
}

/** gemini-cli's `getSettingsChanges`: a setting is the same when its `envVar` and `sensitive` are. */
export function getSettingsChanges(
  settings: readonly ExtensionSetting[],
  oldSettings: readonly ExtensionSetting[],
): {
  promptForSensitive: ExtensionSetting[];
  removeSensitive: ExtensionSetting[];
  promptForEnv: ExtensionSetting[];
  removeEnv: ExtensionSetting[];
} {
  const sensitive = (s: ExtensionSetting) => s.sensitive ?? false;
  const same = (a: ExtensionSetting, b: ExtensionSetting) =>
    a.envVar === b.envVar && sensitive(a) === sensitive(b);
  const missingFrom = (list: readonly ExtensionSetting[], from: readonly ExtensionSetting[]) =>
    list.filter((s) => !from.some((other) => same(s, other)));
  const [sensitiveOld, envOld] = [
    oldSettings.filter(sensitive),
    oldSettings.filter((s) => !sensitive(s)),
  ];
  const [sensitiveNew, envNew] = [
    settings.filter(sensitive),
    settings.filter((s) => !sensitive(s)),
  ];
  return {
    promptForSensitive: missingFrom(sensitiveNew, sensitiveOld),
    removeSensitive: missingFrom(sensitiveOld, sensitiveNew),
    promptForEnv: missingFrom(envNew, envOld),
    removeEnv: missingFrom(envOld, envNew),
  };
}

/** Removes every secret of `service` from the keychain file (gemini-cli's `clearSettings`). */
function clearSecrets(file: string, name: string): void {
  const data = readKeychainFile(file);
  const accounts = data[name];
  if (!accounts) return;
  for (const account of Object.keys(accounts)) {
    if (account.startsWith(KEYCHAIN_SECRET_PREFIX)) delete accounts[account];
  }
  if (Object.keys(accounts).length === 0) delete data[name];
  writeKeychainFile(file, data);
}

/**
 * gemini-cli's `maybePromptForSettings` after an install (no `previous`) or an update, in the user scope: asks for
 * every setting that is new (on update: not in the previous version with the same `envVar` and `sensitive`), drops
 * the removed ones, then writes the sensitive values to the keychain file and the others to the extension's `.env`
 * (which then holds only the settings' values). An empty answer stores nothing. `manifestSettings` is the new
 * manifest's `settings` (malformed entries are ignored).
 *
 * @throws ExtensionError when the `.env` cannot be written; KeychainFileError when the keychain file cannot be read.
 */
export async function promptForSettings(
  store: SettingsStore,
  manifestSettings: unknown,
  requestSetting: ExtensionSettingRequest,
  previous?: { settings: readonly ExtensionSetting[]; values: Readonly<Record<string, string>> },
): Promise<void> {
  const settings = settingsOf(manifestSettings);
  const oldSettings = previous?.settings ?? [];
  if (settings.length === 0 && oldSettings.length === 0) return;
  const file = writableEnvFile(store);
  const secrets = secretsFile(store);
  if (settings.length === 0) {
    if (existsSync(file)) writeFileSync(file, '');
    clearSecrets(secrets, service(store));
    return;
  }
  const changes = getSettingsChanges(settings, oldSettings);
  const all: Record<string, string> = { ...previous?.values };
  for (const removed of changes.removeEnv) delete all[removed.envVar];
  for (const removed of changes.removeSensitive) {
    setKeychainPassword(
      secrets,
      service(store),
      KEYCHAIN_SECRET_PREFIX + removed.envVar,
      undefined,
    );
  }
  for (const setting of [...changes.promptForSensitive, ...changes.promptForEnv]) {
    const answer = await requestSetting(setting);
    if (answer !== undefined) all[setting.envVar] = answer;
  }
  const plain: Record<string, string> = {};
  for (const setting of settings) {
    const value = all[setting.envVar];
    if (value === undefined || value === '') continue;
    if (setting.sensitive === true) {
      setKeychainPassword(secrets, service(store), KEYCHAIN_SECRET_PREFIX + setting.envVar, value);
    } else plain[setting.envVar] = value;
  }
  writeFileSync(file, formatEnvContent(plain));
}

/**
 * gemini-cli's `updateSetting`: asks for one setting (by name or env var) and stores the answer in `store`'s
 * scope — a sensitive one in the keychain file, another in the scope's `.env` (the workspace scope's is
 * `<working folder>/.env`); an empty answer removes the value. Returns false when the answer was cancelled.
 *
 * @throws ExtensionError `Setting <key> not found.`, or when the `.env` cannot be written; KeychainFileError.
 */
export async function updateSetting(
  store: SettingsStore,
  settings: readonly ExtensionSetting[],
  key: string,
  requestSetting: ExtensionSettingRequest,
): Promise<boolean> {
  const setting = settings.find((s) => s.name === key || s.envVar === key);
  if (!setting) throw new ExtensionError(`Setting ${key} not found.`);
  const value = await requestSetting(setting);
  if (value === undefined) return false;
  if (setting.sensitive === true) {
    const account = KEYCHAIN_SECRET_PREFIX + setting.envVar;
    setKeychainPassword(secretsFile(store), service(store), account, value || undefined);
    return true;
  }
  const file = writableEnvFile(store);
  const parsed = existsSync(file) ? parseDotEnv(readFileSync(file, 'utf8')) : {};
  if (value) parsed[setting.envVar] = value;
  else delete parsed[setting.envVar];
  const sensitive = new Set(settings.filter((s) => s.sensitive === true).map((s) => s.envVar));
  const plain = Object.fromEntries(Object.entries(parsed).filter(([k]) => !sensitive.has(k)));
  writeFileSync(file, formatEnvContent(plain));
  return true;
}

/** gemini-cli's error when `experimental.extensionConfig` is false. */
export const CONFIG_DISABLED =
  'Extension configuration is currently disabled. Enable it by setting "experimental.extensionConfig" to true.';

/** Options of `ExtensionManager.configure`. */
export interface ConfigureOptions {
  /** One setting, by name or env var; default every setting of the extension (or of every extension). */
  setting?: string;
  /** Where the value is stored (default `user`): see `ExtensionManager.configure`. */
  scope?: 'user' | 'workspace';
  /** Asked for each value; an empty answer removes the value, `undefined` leaves it. */
  requestSetting: ExtensionSettingRequest;
  /** Asked `Setting "<name>" (<VAR>) is already set. Overwrite?` for a setting with a value; without it, no. */
  confirm?: (question: string) => boolean | Promise<boolean>;
  /** gemini-cli's progress lines (`Configuring settings for "<name>"...`, `Setting "<key>" updated.`, …). */
  onMessage?: (message: string) => void;
}

/**
 * gemini-cli's `extensions config [name] [setting]` (configureSpecificSetting, configureExtension,
 * configureAllExtensions) over the installed extensions.
 *
 * @throws ExtensionError `Invalid extension name. …`, `Extension "<n>" is not installed.`, `Setting <key> not
 *   found.`; KeychainFileError.
 */
export async function configureExtensions(
  installed: readonly ResolvedExtension[],
  name: string | undefined,
  options: ConfigureOptions,
  storeOf: (ext: ResolvedExtension) => SettingsStore,
  cwd: string,
): Promise<void> {
  const settingsOfExt = (ext: ResolvedExtension) =>
    settingsOf(readExtensionManifest(ext.path ?? ext.installDir ?? '', cwd).settings);
  if (name !== undefined && /[/\\]|\.\./.test(name)) {
    throw new ExtensionError(
      'Invalid extension name. Names cannot contain path separators or "..".',
    );
  }
  const say = options.onMessage ?? (() => undefined);
  if (name === undefined) {
    if (installed.length === 0) say('No extensions installed.');
    for (const ext of installed) {
      const settings = settingsOfExt(ext);
      if (settings.length === 0) continue;
      say(`\nConfiguring settings for "${ext.name}"...`);
      await configureAll(storeOf(ext), settings, options, say);
    }
    return;
  }
  const ext = installed.find((e) => e.name === name);
  if (!ext) throw new ExtensionError(`Extension "${name}" is not installed.`);
  const settings = settingsOfExt(ext);
  if (options.setting !== undefined) {
    if (await updateSetting(storeOf(ext), settings, options.setting, options.requestSetting)) {
      say(`Setting "${options.setting}" updated.`);
    }
    return;
  }
  if (settings.length === 0) {
    say(`Extension "${name}" has no settings to configure.`);
    return;
  }
  say(`Configuring settings for "${name}"...`);
  await configureAll(storeOf(ext), settings, options, say);
}

/** gemini-cli's `configureExtensionSettings`: each setting, a set one only after a yes to overwrite it. */
async function configureAll(
  store: SettingsStore,
  settings: readonly ExtensionSetting[],
  options: ConfigureOptions,
  say: (message: string) => void,
): Promise<void> {
  const current = scopedSettingsValues(store, settings);
  const workspace =
    store.scope === 'user' ? scopedSettingsValues({ ...store, scope: 'workspace' }, settings) : {};
  for (const setting of settings) {
    if (workspace[setting.envVar] !== undefined) {
      say(`Note: Setting "${setting.name}" is already configured in the workspace scope.`);
    }
    if (current[setting.envVar] !== undefined) {
      const question = `Setting "${setting.name}" (${setting.envVar}) is already set. Overwrite?`;
      if (!(await options.confirm?.(question))) continue;
    }
    await updateSetting(store, settings, setting.envVar, options.requestSetting);
  }
}
