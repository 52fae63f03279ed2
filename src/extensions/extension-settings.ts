import { join } from 'node:path';
import { EXTENSION_ENV_FILE, type ExtensionSetting } from './extension-manifest.js';
import type { ResolvedExtension, ResolvedExtensionSetting } from './resolved-extension.js';

/** Where a folder's settings values were read from (the parsed `.env` files). */
export interface SettingsValues {
  /** The extension's own `.env` (user scope). */
  user: Readonly<Record<string, string>>;
  /** The workspace's `.env` (read only in a trusted folder). */
  workspace: Readonly<Record<string, string>>;
  /** `<workspace>/.env`. */
  workspaceFile: string;
  /** `~/.gemini/extensions/<name>/.env`. */
  userFile: string;
  /** The process environment: where a sensitive value is taken from in place of gemini-cli's OS keychain. */
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

/** `~/.gemini/extensions/<name>/.env`, gemini-cli's user-scope settings file. */
export function userSettingsFile(extensionsDir: string, name: string): string {
  return join(extensionsDir, name, EXTENSION_ENV_FILE);
}

/**
 * gemini-cli's `ResolvedExtensionSetting`s: the workspace's `.env` over the extension's own (an empty value counts
 * as set). A sensitive setting, whose value gemini-cli keeps in the OS keychain, is taken from the environment
 * instead; one found nowhere is reported as not supported yet rather than silently left out.
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
    if (found.workspace[s.envVar] !== undefined) {
      [value, scope, source] = [found.workspace[s.envVar], 'workspace', found.workspaceFile];
    } else if (found.user[s.envVar] !== undefined) {
      [value, scope, source] = [found.user[s.envVar], 'user', found.userFile];
    } else if (sensitive) {
      value = found.env[s.envVar];
      if (value === undefined) warnings.push(sensitiveSettingWarning(extensionName, s));
      else source = 'environment';
    }
    if (value !== undefined) values[s.envVar] = value;
    return { name: s.name, envVar: s.envVar, value, sensitive, scope, source };
  });
  return { resolved, values, warnings };
}

/** The report for a sensitive setting with no value: the OS keychain gemini-cli uses is not read. */
function sensitiveSettingWarning(extensionName: string, setting: ExtensionSetting): string {
  return (
    `Extension "${extensionName}": the sensitive setting "${setting.name}" (${setting.envVar}) has no value. ` +
    `gemini-cli keeps sensitive values in the OS keychain, which gemini-agent-sdk does not read yet: set ` +
    `${setting.envVar} in the environment.`
  );
}

/**
 * gemini-cli 0.61's warning after an install or update when settings have no value (its exact text), followed by
 * where the SDK reads them from; undefined when every setting has a value.
 */
export function missingSettingsWarning(
  extension: Pick<ResolvedExtension, 'name' | 'resolvedSettings'>,
  extensionsDir: string,
): string | undefined {
  const { name } = extension;
  const missing = extension.resolvedSettings.filter((s) => s.value === undefined);
  if (missing.length === 0) return undefined;
  return (
    `Extension "${name}" has missing settings: ${missing.map((s) => s.name).join(', ')}. ` +
    `Please run "gemini extensions config ${name} [setting-name]" to configure them. ` +
    `(gemini-agent reads them from ${userSettingsFile(extensionsDir, name)} as NAME=value lines.)`
  );
}
