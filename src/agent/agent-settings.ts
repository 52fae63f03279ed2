import { isAbsolute, join, resolve } from 'node:path';
import { ConfigurationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { resolveFolderTrust } from '../settings/folder-trust.js';
import {
  loadSettings,
  SETTINGS_SOURCES,
  type LoadedSettings,
  type SettingsSource,
} from '../settings/load-settings.js';
import { overrideSettings } from '../settings/merge-settings.js';
import { geminiHome } from '../settings/settings-paths.js';
import { gatherPolicyFiles } from '../policy/policy-dirs.js';
import type { PolicyFileRef } from '../policy/policy-file.js';
import { DEFAULT_SETTINGS, type Settings } from '../settings/settings-schema.js';

/** The agent's `settings` option, when not `false`. */
export interface AgentSettingsOptions {
  /** Which files to read (default all: system defaults and overrides, user, workspace). */
  sources?: SettingsSource[];
  /**
   * Values that beat every file, as command-line flags do in gemini-cli: objects merge key by key, any other
   * value (lists included) replaces what the files say.
   */
  overrides?: Settings;
}

/**
 * Loads the settings for an agent (`settings` option; default all sources, as gemini-cli does). With
 * `settings: false` no file is read: the result holds gemini-cli's defaults, and folder trust still follows
 * `trustWorkspace`, the environment and `trustedFolders.json`.
 *
 * @throws ConfigurationError for a bad `settings` option; SettingsFileError for a malformed settings or
 *   trusted-folders file.
 */
export function loadAgentSettings(
  option: false | AgentSettingsOptions | undefined,
  context: { cwd: string; trustWorkspace: boolean | undefined; logger: Logger },
): LoadedSettings {
  const validated = validateSettingsOption(option);
  const override = context.trustWorkspace;
  if (validated === false) {
    return {
      merged: structuredClone(DEFAULT_SETTINGS),
      files: [],
      trust: resolveFolderTrust({
        folder: context.cwd,
        home: geminiHome(),
        ...(override === undefined ? {} : { override }),
      }),
      warnings: [],
    };
  }
  const loaded = loadSettings({
    cwd: context.cwd,
    logger: context.logger,
    ...(validated.sources === undefined ? {} : { sources: validated.sources }),
    ...(override === undefined ? {} : { trustWorkspace: override }),
  });
  if (validated.overrides === undefined) return loaded;
  return { ...loaded, merged: overrideSettings(loaded.merged, validated.overrides) };
}

/**
 * Checks the `settings` option (used by the options schema at construction, and when the settings load).
 *
 * @throws ConfigurationError naming what is wrong.
 */
export function validateSettingsOption(option: unknown): false | AgentSettingsOptions {
  if (option === undefined) return {};
  if (option === false) return false;
  const bad = (why: string): never => {
    throw new ConfigurationError(
      `Invalid settings option: ${why}. Use false (read no settings file) or { sources: ['system', 'user', 'workspace'] }.`,
    );
  };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    return bad(`got ${JSON.stringify(option) ?? typeof option}`);
  }
  const { sources, overrides, ...rest } = option as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) bad(`unknown key ${JSON.stringify(extra[0])}`);
  if (sources !== undefined) {
    if (!Array.isArray(sources)) bad('sources must be a list');
    for (const s of sources as unknown[]) {
      if (!SETTINGS_SOURCES.includes(s as SettingsSource)) {
        bad(`unknown source ${JSON.stringify(s)} (sources are system, user, workspace)`);
      }
    }
  }
  if (
    overrides !== undefined &&
    (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
  ) {
    bad('overrides must be a settings object');
  }
  return option as AgentSettingsOptions;
}

/**
 * `context.includeDirectories` from the settings, resolved as gemini-cli does (`~` is the home folder, relative
 * paths are relative to `cwd`).
 */
export function settingsIncludeDirectories(settings: Settings, cwd: string): string[] {
  return (settings.context?.includeDirectories ?? []).map((dir) => resolveUserPath(dir, cwd));
}

/** Resolves a path from a settings file or flag: `~` / `~/x` is the home folder, relative is against `cwd`. */
export function resolveUserPath(path: string, cwd: string): string {
  if (path === '~') return geminiHome();
  if (path.startsWith('~/')) return join(geminiHome(), path.slice(2));
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** `model.maxSessionTurns` as a turn limit (gemini-cli: `-1`, the default, means unlimited). */
export function settingsMaxTurns(settings: Settings): number | undefined {
  const turns = settings.model?.maxSessionTurns;
  return turns !== undefined && Number.isInteger(turns) && turns > 0 ? turns : undefined;
}

/**
 * The policy files the settings bring: `~/.gemini/policies` (or `policyPaths`) in the user tier and the system
 * folder plus `adminPolicyPaths` in the admin tier, as gemini-cli loads them; none with `settings: false`. The
 * user folder follows the `user` source, the system folder the `system` source.
 */
export function settingsPolicyFiles(
  option: false | AgentSettingsOptions | undefined,
  settings: Settings,
  cwd: string,
  logger: Logger,
): PolicyFileRef[] {
  if (option === false) return [];
  const sources = new Set(option?.sources ?? SETTINGS_SOURCES);
  return gatherPolicyFiles({
    home: geminiHome(),
    user: sources.has('user'),
    system: sources.has('system'),
    policyPaths: (settings.policyPaths ?? []).map((p) => resolveUserPath(p, cwd)),
    adminPolicyPaths: (settings.adminPolicyPaths ?? []).map((p) => resolveUserPath(p, cwd)),
    logger,
  });
}
