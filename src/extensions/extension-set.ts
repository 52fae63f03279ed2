import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HookEntry } from '../hooks/hook-planner.js';
import { runtimeEntry } from '../hooks/hooks-feature.js';
import { ConfigurationError } from '../errors.js';
import type { Extension, ExtensionReference } from './extension.js';
import { isExtensionReference } from './extension.js';
import { loadExtensionDir, allowedRules, type ExtensionLoadContext } from './extension-dir.js';
import { ExtensionEnablement } from './extension-enablement.js';
import { readInstallMetadata } from './extension-manifest.js';
import { loadBlockedReason, type ExtensionSecurity } from './extension-security.js';
import type { ResolvedExtension } from './resolved-extension.js';
import type { PolicySource } from '../core/policy-rule.js';

/** One extension the agent knows of, and whether it runs in this workspace. */
export interface ExtensionState {
  readonly extension: ResolvedExtension;
  readonly active: boolean;
}

/** What {@link resolveExtensions} is given. */
export interface ResolveExtensionsOptions extends Omit<ExtensionLoadContext, 'extensionsDir'> {
  /** The `extensions` option. */
  references: readonly ExtensionReference[];
  /** Also load the installed extensions of `extensionsDir` (gemini-cli's discovery). */
  discover: boolean;
  /** `~/.gemini/extensions`. */
  extensionsDir: string;
  /** `-e` / the `enabledExtensions` option: only these names (case-insensitive); `['none']` for none. */
  only?: readonly string[] | undefined;
  /** `admin.extensions.enabled === false`: every extension off (none is loaded). */
  adminDisabled?: boolean;
  /** For `~/` in `extensionDir()` paths (default the OS home). */
  home?: string;
  /**
   * `security.allowedExtensions` / `blockGitExtensions`, checked before a folder loads: an installed folder as
   * gemini-cli checks it (its install metadata's source), an `extensionDir()` folder by its metadata's source or,
   * without metadata, by its own path.
   */
  security?: ExtensionSecurity;
}

/** The agent's extensions: each known one with its state, and the problems found. */
export interface ResolvedExtensions {
  readonly all: readonly ExtensionState[];
  /** The active ones, in load order (installed ones by folder name, then the option's in order). */
  readonly active: readonly ResolvedExtension[];
  /** `Skipping extension in …`, `Extension not found: …` and every loaded extension's warnings, in load order. */
  readonly warnings: readonly string[];
}

/** An {@link extension} as a resolved extension: its code parts, the policy tier and drops applied. */
export function resolveCodeExtension(ext: Extension, cwd: string): ResolvedExtension {
  const o = ext.options;
  const warnings: string[] = [];
  const policy: PolicySource[] =
    o.policies === undefined || o.policies.length === 0
      ? []
      : [
          {
            origin: { tier: 'extension', source: `Extension (${ext.name})` },
            rules: allowedRules(ext.name, o.policies, warnings),
          },
        ];
  const runtimeHooks = o.hooks ?? [];
  return {
    name: ext.name,
    version: ext.version,
    description: ext.description,
    origin: 'code',
    path: undefined,
    installDir: undefined,
    installMetadata: undefined,
    contextFiles: (o.contextFiles ?? []).map((f) => resolve(cwd, f)),
    contextText: typeof o.instructions === 'string' ? o.instructions : undefined,
    section: typeof o.instructions === 'function' ? o.instructions : undefined,
    tools: o.tools ?? [],
    skills: o.skills && o.skills.length > 0 ? { name: ext.name, skills: [...o.skills] } : undefined,
    runtimeHooks,
    commandHooks: [],
    mcpServers: { ...o.mcpServers },
    excludeTools: [...(o.excludeTools ?? [])],
    policy,
    features: [...(o.features ?? [])],
    settings: [],
    resolvedSettings: [],
    agentsDir: undefined,
    variables: {},
    warnings,
  };
}

/** The extension's hooks as registry entries, source `extensions` (they run after every other source). */
export function extensionHookEntries(ext: ResolvedExtension): HookEntry[] {
  return [...ext.runtimeHooks.map((hook) => runtimeEntry(hook, 'extensions')), ...ext.commandHooks];
}

function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
}

function installedDirs(extensionsDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(extensionsDir).sort();
  } catch {
    return [];
  }
  return names
    .map((name) => join(extensionsDir, name))
    .filter((dir) => {
      try {
        return statSync(dir).isDirectory();
      } catch {
        return false;
      }
    });
}

/**
 * Loads an agent's extensions as gemini-cli does: with `admin.extensions.enabled: false` none; otherwise the
 * installed folders of `~/.gemini/extensions` (when `discover`), then the `extensions` option. A folder that
 * cannot be loaded is skipped with gemini-cli's `Skipping extension in <path>: <reason>` (its CLI prints it after `Warning: `); a second
 * extension of the same name is skipped too. Each is active unless `-e` leaves it out or the enablement file
 * disables it for `workspaceDir` — an extension given in code is always active (its code is the consent).
 *
 * @throws ConfigurationError when `references` holds something not made by `extension()` / `extensionDir()`.
 */
export function resolveExtensions(options: ResolveExtensionsOptions): ResolvedExtensions {
  const refs: unknown[] = Array.isArray(options.references) ? [...options.references] : [];
  if (options.references !== undefined && !Array.isArray(options.references)) {
    throw new ConfigurationError(
      'The extensions option must be an array of extension(...) and extensionDir(path) values.',
    );
  }
  refs.forEach((ref, index) => {
    if (!isExtensionReference(ref)) {
      throw new ConfigurationError(
        `extensions[${index}] is not an extension: make it with extension({ name, ... }) or extensionDir(path).`,
      );
    }
  });
  if (options.adminDisabled) return { all: [], active: [], warnings: [] };
  const home = options.home ?? homedir();
  const warnings: string[] = [];
  const loaded: Array<{ ext: ResolvedExtension; code: boolean }> = [];
  const load = (dir: string, installed: boolean): void => {
    if (options.security) {
      const metadata = readInstallMetadata(dir);
      const blocked = loadBlockedReason(
        options.security,
        dir,
        metadata ?? (installed ? undefined : { source: dir, type: 'local' }),
        options.workspaceDir,
      );
      if (blocked !== undefined) {
        warnings.push(blocked);
        return;
      }
    }
    try {
      const ext = loadExtensionDir(dir, options);
      loaded.push({ ext, code: false });
      warnings.push(...ext.warnings);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      warnings.push(`Skipping extension in ${dir}: ${reason}`);
    }
  };
  if (options.discover) for (const dir of installedDirs(options.extensionsDir)) load(dir, true);
  for (const ref of refs as ExtensionReference[]) {
    if (ref.type === 'extensionDir')
      load(resolve(options.workspaceDir, expandHome(ref.path, home)), false);
    else {
      const ext = resolveCodeExtension(ref, options.workspaceDir);
      loaded.push({ ext, code: true });
      warnings.push(...ext.warnings);
    }
  }
  const enablement = new ExtensionEnablement(options.extensionsDir, options.only);
  if (enablement.isMalformed()) warnings.push('Failed to read extension enablement config.');
  const seen = new Set<string>();
  const all: ExtensionState[] = [];
  for (const { ext, code } of loaded) {
    if (seen.has(ext.name)) {
      warnings.push(
        `Skipping extension in ${ext.path ?? ext.name}: Extension with name ${ext.name} already was loaded.`,
      );
      continue;
    }
    seen.add(ext.name);
    all.push({
      extension: ext,
      active: code || enablement.isEnabled(ext.name, options.workspaceDir),
    });
  }
  for (const name of enablement.unknownNames(all.map((s) => s.extension.name)))
    warnings.push(`Extension not found: ${name}`);
  return { all, active: all.filter((s) => s.active).map((s) => s.extension), warnings };
}
