import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import type { Environment } from './env-expansion.js';
import { resolveFolderTrust, type FolderTrust } from './folder-trust.js';
import { mergeSettingsLayers } from './merge-settings.js';
import { readSettingsFile, type SettingsWarning } from './settings-file.js';
import {
  geminiHome,
  systemDefaultsPath,
  systemSettingsPath,
  userSettingsPath,
  workspaceSettingsPath,
} from './settings-paths.js';
import { DEFAULT_SETTINGS, type Settings } from './settings-schema.js';
import { insecureSystemFileReason } from './system-file-security.js';

/** The settings sources an agent can load: system (defaults and overrides), user, workspace. */
export type SettingsSource = 'system' | 'user' | 'workspace';

/** All {@link SettingsSource}s, the default. */
export const SETTINGS_SOURCES: readonly SettingsSource[] = ['system', 'user', 'workspace'];

/** The four settings files, in merge order (lowest precedence first). */
export type SettingsScope = 'systemDefaults' | 'user' | 'workspace' | 'system';

/** One settings file as loaded. */
export interface LoadedSettingsFile {
  scope: SettingsScope;
  path: string;
  /** Whether the file exists (and was read, unless `skipped`). */
  exists: boolean;
  /**
   * Why the file was not used: its source is not loaded, the folder is untrusted, it is the user file, or it is
   * a system file that others could replace (see {@link LoadSettingsOptions.checkSystemFiles}).
   */
  skipped?: 'source-off' | 'untrusted' | 'home-workspace' | 'insecure';
  settings: Settings;
}

/** The result of {@link loadSettings}. */
export interface LoadedSettings {
  /**
   * The effective settings: gemini-cli's defaults for the keys the SDK reads, then system defaults, user,
   * workspace (trusted folders only) and system settings, merged with gemini-cli's strategies.
   */
  merged: Settings;
  /** The four files, in merge order. */
  files: LoadedSettingsFile[];
  /** Whether the working folder is trusted (workspace settings, skills, GEMINI.md… load only then). */
  trust: FolderTrust;
  /** Unknown keys and invalid values (ignored), in file order. */
  warnings: SettingsWarning[];
}

/** Options of {@link loadSettings}. */
export interface LoadSettingsOptions {
  /** The working folder (its `.gemini/settings.json` is the workspace file). */
  cwd: string;
  /** Holds `.gemini/` (default `$GEMINI_CLI_HOME`, else the OS home). */
  home?: string;
  /** Environment for `$VAR` expansion and the path overrides (default `process.env`). */
  env?: Environment;
  /** Which sources to read (default all; `[]` reads no file). */
  sources?: readonly SettingsSource[];
  /** Decides folder trust instead of the environment and `trustedFolders.json`. */
  trustWorkspace?: boolean;
  /** Receives one warning per ignored key or value, and per skipped system file. */
  logger?: Logger;
  /**
   * Skip a system settings or system defaults file that root does not own, or that group or others may write to
   * (the file or any folder above it), with gemini-cli's `Security Warning: Skipping system settings file …`
   * warning, as gemini-cli 0.61 does (default true; not checked on Windows). Turn it off only for system files
   * kept in folders you control, such as a test's temp folder.
   */
  checkSystemFiles?: boolean;
}

/**
 * Loads gemini-cli's settings files as gemini-cli 0.61 does: system defaults (`system-defaults.json`), user
 * (`~/.gemini/settings.json`), workspace (`<cwd>/.gemini/settings.json`, only in a trusted folder and not when
 * `cwd` is the home folder) and system overrides (`/etc/gemini-cli/settings.json` or
 * `GEMINI_CLI_SYSTEM_SETTINGS_PATH`), merged in that order over the defaults. Folder trust is decided from the
 * other three files (`security.folderTrust.enabled`), so a workspace cannot trust itself. A system file that
 * others could replace is skipped with gemini-cli's warning (`checkSystemFiles`). Admin settings
 * (`admin.*`) are never taken from files, as in gemini-cli.
 *
 * @throws SettingsFileError for a file that is not valid JSON (naming file, line and column) or not an object,
 *   and for a malformed `trustedFolders.json`.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const env = options.env ?? process.env;
  const home = options.home ?? geminiHome(env);
  const cwd = resolve(options.cwd);
  const sources = new Set(options.sources ?? SETTINGS_SOURCES);
  const warnings: SettingsWarning[] = [];
  const checkSystemFiles = options.checkSystemFiles ?? true;
  const read = (scope: SettingsScope, path: string, source: SettingsSource): LoadedSettingsFile => {
    if (!sources.has(source))
      return { scope, path, exists: false, skipped: 'source-off', settings: {} };
    const insecure =
      source === 'system' && checkSystemFiles ? insecureSystemFileReason(path) : undefined;
    if (insecure !== undefined) {
      const label = scope === 'system' ? 'system settings' : 'system defaults';
      warnings.push({
        file: path,
        message: `Security Warning: Skipping ${label} file '${path}': ${insecure}`,
      });
      return { scope, path, exists: true, skipped: 'insecure', settings: {} };
    }
    const parsed = readSettingsFile(path, env);
    warnings.push(...parsed.warnings);
    return { scope, path, exists: parsed.exists, settings: withoutAdmin(parsed.settings) };
  };

  const systemDefaults = read('systemDefaults', systemDefaultsPath(env), 'system');
  const user = read('user', userSettingsPath(home), 'user');
  const system = read('system', systemSettingsPath(env), 'system');
  const beforeWorkspace = mergeSettingsLayers<Settings>(
    DEFAULT_SETTINGS,
    systemDefaults.settings,
    user.settings,
    system.settings,
  );
  const trust = resolveFolderTrust({
    folder: cwd,
    home,
    env,
    enabled: beforeWorkspace.security?.folderTrust?.enabled ?? true,
    ...(options.trustWorkspace === undefined ? {} : { override: options.trustWorkspace }),
  });

  const workspacePath = workspaceSettingsPath(cwd);
  let workspace: LoadedSettingsFile;
  if (samePath(cwd, home)) {
    workspace = {
      scope: 'workspace',
      path: workspacePath,
      exists: false,
      skipped: 'home-workspace',
      settings: {},
    };
  } else if (!trust.trusted && sources.has('workspace')) {
    workspace = {
      scope: 'workspace',
      path: workspacePath,
      exists: false,
      skipped: 'untrusted',
      settings: {},
    };
  } else {
    workspace = read('workspace', workspacePath, 'workspace');
  }

  const logger = options.logger ?? silentLogger;
  for (const w of warnings)
    logger.warn(w.message, { file: w.file, ...(w.key ? { key: w.key } : {}) });
  return {
    merged: mergeSettingsLayers<Settings>(
      DEFAULT_SETTINGS,
      systemDefaults.settings,
      user.settings,
      workspace.settings,
      system.settings,
    ),
    files: [systemDefaults, user, workspace, system],
    trust,
    warnings,
  };
}

/** `admin.*` comes only from an administrator's remote controls in gemini-cli, never from a file. */
function withoutAdmin(settings: Settings): Settings {
  if (settings.admin === undefined) return settings;
  const { admin: _admin, ...rest } = settings;
  return rest;
}

function samePath(a: string, b: string): boolean {
  return real(a) === real(b);
}

function real(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}
