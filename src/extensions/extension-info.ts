import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkillsFromDir } from '../skills/skill-loader.js';
import type { ExtensionEnablement } from './extension-enablement.js';
import { extensionId } from './extension-install.js';
import type { InstallMetadata } from './extension-manifest.js';
import type { ResolvedExtension } from './resolved-extension.js';

/** One installed extension, as `gemini extensions list` shows it. */
export interface ExtensionInfo {
  name: string;
  version: string;
  description: string | undefined;
  /** gemini-cli's id: sha256 of the install source (a GitHub repository's https URL), else of the name. */
  id: string;
  /** The folder its files are read from (for a link, the linked folder). */
  path: string;
  /** The folder in `~/.gemini/extensions`. */
  installDir: string;
  /** `.gemini-extension-install.json`, if any. */
  installMetadata: InstallMetadata | undefined;
  /** Enabled for the home folder (user scope) and for the working folder (workspace scope). */
  enabledUser: boolean;
  enabledWorkspace: boolean;
  contextFiles: string[];
  mcpServers: string[];
  excludeTools: string[];
  skills: Array<{ name: string; description: string; location: string }>;
  /** Command hooks in `hooks/hooks.json`. */
  hooks: number;
  /** Policy rules kept from `policies/*.toml`. */
  policyRules: number;
  /** The `agents/*.md` files. */
  agents: string[];
  settings: Array<{
    name: string;
    envVar: string;
    sensitive: boolean;
    value: string | undefined;
    scope: 'user' | 'workspace' | undefined;
    source: string | undefined;
  }>;
}

/** What `list()` shows of a loaded extension: its parts, id and where it is enabled. */
export async function extensionInfo(
  enablement: ExtensionEnablement,
  home: string,
  cwd: string,
  ext: ResolvedExtension,
): Promise<ExtensionInfo> {
  const skills = ext.path ? await loadSkillsFromDir(join(ext.path, 'skills')) : [];
  const hydrate = ext.skills?.hydrate ?? ((t: string) => t);
  const agents = ext.agentsDir
    ? readdirSync(ext.agentsDir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  return {
    name: ext.name,
    version: ext.version,
    description: ext.description,
    id: extensionId(ext.name, ext.installMetadata),
    path: ext.path ?? '',
    installDir: ext.installDir ?? '',
    installMetadata: ext.installMetadata,
    enabledUser: enablement.isEnabled(ext.name, home),
    enabledWorkspace: enablement.isEnabled(ext.name, cwd),
    contextFiles: [...ext.contextFiles],
    mcpServers: Object.keys(ext.mcpServers),
    excludeTools: [...ext.excludeTools],
    skills: skills.map((s) => ({
      name: hydrate(s.name),
      description: hydrate(s.description),
      location: hydrate(s.location),
    })),
    hooks: ext.commandHooks.length,
    policyRules: ext.policy.reduce((n, p) => n + p.rules.length, 0),
    agents,
    settings: ext.resolvedSettings.map((s) => ({ ...s })),
  };
}
