import { join } from 'node:path';
import { EXTENSION_ENV_FILE, type ExtensionSetting } from './extension-manifest.js';
import {
  KEYCHAIN_SECRET_PREFIX,
  extensionKeychainService,
  keychainFile,
  readKeychainFile,
} from './file-keychain.js';
import type { ResolvedExtension, ResolvedExtensionSetting } from './resolved-extension.js';

/** Where a folder's settings values were read from (the parsed `.env` files). */
export interface SettingsValues {
  /** The extension's own `.env` (user scope). */
  user: Readonly<Record<string, string>>;
  /** The workspace's `.env` (read only in a trusted folder). */
  workspace: Readonly<Record<string, string>>;
  /** Sensitive values in gemini-cli's keychain file, user scope: over the extension's `.env`. */
  userSecrets?: Readonly<Record<string, string>>;
  /** Sensitive values in gemini-cli's keychain file, workspace scope (a trusted folder): over the workspace `.env`. */
  workspaceSecrets?: Readonly<Record<string, string>>;
  /** `<workspace>/.env`. */
  workspaceFile: string;
  /** `~/.gemini/extensions/<name>/.env`. */
  userFile: string;
  /** gemini-cli's keychain file, named in the report of a sensitive setting without a value. */
  keychainFile: string;
  /** The process environment: where a sensitive value found nowhere else is taken from (not gemini-cli's way). */
  env: Readonly<Record<string, string | undefined>>;
}

/** The settings and what was found for them, plus the problems to report. */
export interface SettingsResolution {
  resolved: ResolvedExtensionSetting[];
  /** `envVar → value` for every setting with a value: the env of the extension's MCP servers and command hooks. */
  values: Record<string, string>;
  warnings: string[];
}

/** The well-formed entries of a manifest's `settings` (others are ignored, as gemini-cli's loader never reads them). */
export function settingsOf(settings: unknown): ExtensionSetting[] {
  if (!Array.isArray(settings)) return [];
  return settings.filter(
    (s): s is ExtensionSetting =>
      typeof s === 'object' &&
      s !== null &&
      typeof (s as ExtensionSetting).envVar === 'string' &&
      typeof (s as ExtensionSetting).name === 'string',
  );
}

/** `experimental.extensionConfig` (default true): whether extension settings are read, asked for and set. */
export function extensionConfigEnabled(merged: object): boolean {
  const experimental = (merged as { experimental?: Record<string, unknown> }).experimental;
  return experimental?.['extensionConfig'] !== false;
}

/** `~/.gemini/extensions/<name>/.env`, gemini-cli's user-scope settings file. */
export function userSettingsFile(extensionsDir: string, name: string): string {
  return join(extensionsDir, name, EXTENSION_ENV_FILE);
}

/** The `source` of a value read from gemini-cli's keychain (its label in `gemini extensions list`). */
export const KEYCHAIN_SOURCE = 'Keychain';

/**
 * The sensitive settings' values that gemini-cli's file keychain (`<geminiDir>/gemini-credentials.json`) holds
 * for an extension: the user scope, and a function for a workspace's. Empty values are left out, as gemini-cli
 * does.
 *
 * @throws KeychainFileError when the file exists but cannot be decrypted or parsed.
 */
export function keychainSecrets(
  geminiDir: string,
  name: string,
  id: string,
  settings: readonly ExtensionSetting[],
): { user: Record<string, string>; workspace: (workspaceDir: string) => Record<string, string> } {
  const data = readKeychainFile(keychainFile(geminiDir));
  const pick = (service: string) => {
    const accounts = data[service] ?? {};
    const values: Record<string, string> = {};
    for (const s of settings) {
      const value = s.sensitive === true ? accounts[KEYCHAIN_SECRET_PREFIX + s.envVar] : undefined;
      if (value) values[s.envVar] = value;
    }
    return values;
  };
  return {
    user: pick(extensionKeychainService(name, id)),
    workspace: (workspaceDir) => pick(extensionKeychainService(name, id, workspaceDir)),
  };
}

/**
 * gemini-cli's `ResolvedExtensionSetting`s: the workspace scope over the user scope, and in each scope a sensitive
 * value in the keychain file over the `.env` file (an empty `.env` value counts as set). A sensitive setting found
 * in neither is taken from the environment; one found nowhere is reported.
 */
export function resolveSettings(
  extensionName: string,
  settings: readonly ExtensionSetting[],
  found: SettingsValues,
): SettingsResolution {
  const warnings: string[] = [];
  const values: Record<string, string> = {};
  const resolved = settings.map((s): ResolvedExtensionSetting => {
    const sensitive = s.sensitive === true;
    let value: string | undefined;
    let scope: ResolvedExtensionSetting['scope'];
    let source: string | undefined;
    const from = (
      secrets: Readonly<Record<string, string>> | undefined,
      file: Readonly<Record<string, string>>,
      path: string,
    ): [string, string] | undefined => {
      const secret = secrets?.[s.envVar];
      if (secret !== undefined) return [secret, KEYCHAIN_SOURCE];
      return file[s.envVar] !== undefined ? [file[s.envVar] as string, path] : undefined;
    };
    const workspace = from(found.workspaceSecrets, found.workspace, found.workspaceFile);
    const user = workspace ? undefined : from(found.userSecrets, found.user, found.userFile);
    if (workspace) [value, source, scope] = [...workspace, 'workspace'];
    else if (user) [value, source, scope] = [...user, 'user'];
    else if (sensitive) {
      value = found.env[s.envVar];
      if (value === undefined)
        warnings.push(sensitiveSettingWarning(extensionName, s, found.keychainFile));
      else source = 'environment';
    }
    if (value !== undefined) values[s.envVar] = value;
    return { name: s.name, envVar: s.envVar, value, sensitive, scope, source };
  });
  return { resolved, values, warnings };
}

/** The report for a sensitive setting with no value anywhere the SDK looks. */
function sensitiveSettingWarning(
  extensionName: string,
  setting: ExtensionSetting,
  file: string,
): string {
  return (
    `Extension "${extensionName}": the sensitive setting "${setting.name}" (${setting.envVar}) has no value. ` +
    `gemini-agent-sdk reads sensitive values from gemini-cli's keychain file (${file}), ` +
    `not from the OS keychain: store it there with "gemini-agent extensions config ${extensionName} ` +
    `${setting.envVar}", or set ${setting.envVar} in the environment.`
  );
}

/**
 * gemini-cli 0.61's warning after an install or update when settings have no value (its exact text); undefined
 * when every setting has one.
 */
export function missingSettingsWarning(
  extension: Pick<ResolvedExtension, 'name' | 'resolvedSettings'>,
): string | undefined {
  const { name } = extension;
  const missing = extension.resolvedSettings.filter((s) => s.value === undefined);
  if (missing.length === 0) return undefined;
  return (
    `Extension "${name}" has missing settings: ${missing.map((s) => s.name).join(', ')}. ` +
    `Please run "gemini extensions config ${name} [setting-name]" to configure them.`
  );
}
