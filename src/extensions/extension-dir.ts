import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PolicyRule, PolicySource } from '../core/policy-rule.js';
import { parseHooksObject } from '../hooks/settings-hooks.js';
import type { HookEntry } from '../hooks/hook-planner.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import { parsePolicyToml } from '../policy/policy-file.js';
import { expandEnvVars } from '../settings/env-expansion.js';
import { skillDir } from '../skills/skill-reference.js';
import type { ExtensionSkills } from '../skills/skill-discovery.js';
import {
  EXTENSION_ENV_FILE,
  manifestContextFiles,
  readExtensionManifest,
  readInstallMetadata,
} from './extension-manifest.js';
import { extensionId } from './extension-install.js';
import { keychainFile } from './file-keychain.js';
import {
  keychainSecrets,
  resolveSettings,
  settingsOf,
  userSettingsFile,
} from './extension-settings.js';
import {
  baseVariables,
  hydrateString,
  hydrateValue,
  parseDotEnv,
  type VariableContext,
} from './extension-variables.js';
import type { ResolvedExtension, ResolvedExtensionSetting } from './resolved-extension.js';

/** What loading a folder depends on: the workspace, its trust, and the settings that shape extensions. */
export interface ExtensionLoadContext {
  /** The agent's working directory (`${workspacePath}`, the workspace `.env`). */
  workspaceDir: string;
  /** Whether the workspace is trusted: its `.env` is read only then. */
  trusted: boolean;
  /**
   * `~/.gemini/extensions`: where an extension's user `.env` lives (`<dir>/<name>/.env`); gemini-cli's file
   * keychain is `gemini-credentials.json` in its parent folder.
   */
  extensionsDir: string;
  /** `hooksConfig.enabled` (default true): `hooks/hooks.json` is read only then. */
  hooksEnabled?: boolean;
  /** `hooksConfig.disabled`: hook names registered disabled. */
  disabledHooks?: readonly string[];
  /** `experimental.extensionConfig` (default true): settings values from `.env` files are read only then. */
  settingsEnabled?: boolean;
  /** `admin.mcp.enabled` (default true): false drops every extension's MCP servers. */
  mcpEnabled?: boolean;
  /** Environment for `$VAR` references (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

function readEnvFile(path: string): Record<string, string> {
  try {
    if (!existsSync(path) || statSync(path).isDirectory()) return {};
    return parseDotEnv(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** gemini-cli's `hooks/hooks.json` reading: `{ "hooks": { … } }`, hydrated; a bad file is a warning. */
function readHooks(
  dir: string,
  variables: VariableContext,
  context: ExtensionLoadContext,
  env: Record<string, string>,
  warnings: string[],
): HookEntry[] {
  if (context.hooksEnabled === false) return [];
  const file = join(dir, 'hooks', 'hooks.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    warnings.push(`Failed to load extension hooks from ${file}: ${errorText(error)}`);
    return [];
  }
  const hooks = (raw as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    warnings.push(`Invalid hooks configuration in ${file}: "hooks" property must be an object`);
    return [];
  }
  const parsed = parseHooksObject(hydrateValue(hooks as Record<string, unknown>, variables), {
    source: 'extensions',
    disabled: context.disabledHooks ?? [],
    label: 'extensions',
  });
  warnings.push(...parsed.warnings);
  if (Object.keys(env).length === 0) return parsed.entries;
  return parsed.entries.map((entry) =>
    entry.implementation.type === 'command'
      ? {
          ...entry,
          implementation: {
            type: 'command',
            config: {
              ...entry.implementation.config,
              env: { ...entry.implementation.config.env, ...env },
            },
          },
        }
      : entry,
  );
}

/**
 * `policies/*.toml` in the extension tier, as gemini-cli's `loadExtensionPolicies`: `allow` rules and rules for
 * `yolo` mode are dropped with its warnings; a file that does not parse is reported and skipped.
 */
export function extensionPolicySources(
  name: string,
  policyDir: string,
  warnings: string[],
): PolicySource[] {
  let files: string[];
  try {
    files = readdirSync(policyDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.toml'))
      .map((entry) => join(policyDir, entry.name))
      .sort();
  } catch {
    return [];
  }
  const sources: PolicySource[] = [];
  for (const file of files) {
    try {
      const source = parsePolicyToml(readFileSync(file, 'utf8'), file, { tier: 'extension' });
      sources.push({
        origin: { ...source.origin, source: `Extension (${name}): ${file}` },
        rules: allowedRules(name, source.rules, warnings),
      });
    } catch (error) {
      warnings.push(`[ExtensionManager] Error loading policies from ${name}: ${errorText(error)}`);
    }
  }
  return sources;
}

/** Drops `allow` rules and `yolo`-mode rules from an extension's rules, with gemini-cli's warnings. */
export function allowedRules(
  name: string,
  rules: readonly PolicyRule[],
  warnings: string[],
): PolicyRule[] {
  return rules.filter((rule) => {
    if (rule.decision === 'allow') {
      const tool = Array.isArray(rule.toolName) ? rule.toolName.join(', ') : rule.toolName;
      warnings.push(
        `[PolicyConfig] Extension "${name}" attempted to contribute an ALLOW rule for tool "${String(tool)}". Ignoring this rule for security.`,
      );
      return false;
    }
    const modes = rule.modes as readonly string[] | undefined;
    if (modes?.includes('yolo')) {
      warnings.push(
        `[PolicyConfig] Extension "${name}" attempted to contribute a rule for YOLO mode. Ignoring this rule for security.`,
      );
      return false;
    }
    return true;
  });
}

/**
 * Loads a gemini-cli extension folder as gemini-cli 0.61's `ExtensionManager` builds it: the install metadata
 * (a `link` loads the linked folder), the manifest, settings values (`.env` of the extension, then of a trusted
 * workspace), `$VAR` references, MCP servers (`trust` removed, settings values in their environment), context
 * files, hooks, skills (hydrated), policies and the `agents/` folder.
 *
 * @throws ExtensionError when the extension must be skipped (gemini-cli's texts: no manifest, bad JSON, bad name,
 * missing version).
 */
export function loadExtensionDir(dir: string, context: ExtensionLoadContext): ResolvedExtension {
  const installDir = resolve(dir);
  const installMetadata = readInstallMetadata(installDir);
  const path = installMetadata?.type === 'link' ? resolve(installMetadata.source) : installDir;
  const warnings: string[] = [];
  let manifest = readExtensionManifest(path, context.workspaceDir);
  const settings = settingsOf(manifest.settings);
  let userEnv: Record<string, string> = {};
  let workspaceEnv: Record<string, string> = {};
  const ownFile = join(installDir, EXTENSION_ENV_FILE);
  const installedFile = userSettingsFile(context.extensionsDir, manifest.name);
  const workspaceFile = join(context.workspaceDir, EXTENSION_ENV_FILE);
  if (context.settingsEnabled !== false) {
    userEnv = { ...readEnvFile(ownFile), ...readEnvFile(installedFile) };
    if (context.trusted) workspaceEnv = readEnvFile(workspaceFile);
  }
  let userSecrets: Record<string, string> = {};
  let workspaceSecrets: Record<string, string> = {};
  if (context.settingsEnabled !== false && settings.some((s) => s.sensitive === true)) {
    const id = extensionId(manifest.name, installMetadata);
    try {
      const secrets = keychainSecrets(dirname(context.extensionsDir), manifest.name, id, settings);
      userSecrets = secrets.user;
      if (context.trusted) workspaceSecrets = secrets.workspace(context.workspaceDir);
    } catch (error) {
      warnings.push(
        `Extension "${manifest.name}": its sensitive settings were not read from gemini-cli's keychain file. ${errorText(error)}`,
      );
    }
  }
  const customEnv = { ...userEnv, ...userSecrets, ...workspaceEnv, ...workspaceSecrets };
  const env = context.env ?? process.env;
  manifest = expandEnvVars(manifest, { ...env, ...customEnv });
  const found =
    context.settingsEnabled === false
      ? { resolved: [], values: {}, warnings: [] }
      : resolveSettings(manifest.name, settings, {
          user: userEnv,
          workspace: workspaceEnv,
          userSecrets,
          workspaceSecrets,
          keychainFile: keychainFile(dirname(context.extensionsDir)),
          userFile: existsSync(installedFile) ? installedFile : ownFile,
          workspaceFile,
          env,
        });
  const resolvedSettings: ResolvedExtensionSetting[] = found.resolved;
  const settingsEnv = found.values;
  warnings.push(...found.warnings);
  const mcpServers: Record<string, McpServerConfig> = {};
  if (
    context.mcpEnabled !== false &&
    typeof manifest.mcpServers === 'object' &&
    manifest.mcpServers
  ) {
    for (const [key, value] of Object.entries(manifest.mcpServers)) {
      if (typeof value !== 'object' || value === null) continue;
      const { trust: _trust, ...rest } = value as Record<string, unknown>;
      const env = rest['env'] as Record<string, string> | undefined;
      mcpServers[key] = {
        ...rest,
        ...(Object.keys(settingsEnv).length > 0 || env ? { env: { ...settingsEnv, ...env } } : {}),
      } as McpServerConfig;
    }
  }
  const contextFiles = manifestContextFiles(manifest, path, (m) => warnings.push(m));
  const variables: VariableContext = {
    ...baseVariables(path, context.workspaceDir),
    ...customEnv,
    ...settingsEnv,
  };
  const commandHooks = readHooks(path, variables, context, settingsEnv, warnings);
  const skillsDir = join(path, 'skills');
  const skills: ExtensionSkills | undefined = existsSync(skillsDir)
    ? {
        name: manifest.name,
        skills: [skillDir(skillsDir)],
        hydrate: (text) => hydrateString(text, variables),
      }
    : undefined;
  const policyDir = join(path, 'policies');
  const policy = existsSync(policyDir)
    ? extensionPolicySources(manifest.name, policyDir, warnings)
    : [];
  const agentsDir = join(path, 'agents');
  const excludeTools = Array.isArray(manifest.excludeTools)
    ? manifest.excludeTools.filter((t): t is string => typeof t === 'string')
    : [];
  return {
    name: manifest.name,
    version: manifest.version,
    description: typeof manifest.description === 'string' ? manifest.description : undefined,
    origin: 'dir',
    path,
    installDir,
    installMetadata,
    contextFiles,
    contextText: undefined,
    section: undefined,
    tools: [],
    skills,
    runtimeHooks: [],
    commandHooks,
    mcpServers,
    excludeTools,
    policy,
    features: [],
    settings,
    resolvedSettings,
    agentsDir: existsSync(agentsDir) ? agentsDir : undefined,
    variables,
    warnings,
  };
}
