import type { Feature, SystemSectionProvider } from '../core/feature.js';
import type { PolicySource } from '../core/policy-rule.js';
import type { AnyTool } from '../core/tool-definition.js';
import type { AnySdkHook } from '../hooks/hook.js';
import type { HookEntry } from '../hooks/hook-planner.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import type { ExtensionSkills } from '../skills/skill-discovery.js';
import type { ExtensionSetting, InstallMetadata } from './extension-manifest.js';
import type { VariableContext } from './extension-variables.js';

/** A setting's value as found (gemini-cli's `ResolvedExtensionSetting`). */
export interface ResolvedExtensionSetting {
  name: string;
  envVar: string;
  value: string | undefined;
  sensitive: boolean;
  /** Where the value came from: the extension's `.env` (user) or the workspace's `.env`. */
  scope: 'user' | 'workspace' | undefined;
  source: string | undefined;
}

/** One extension with every part read and checked, whichever form it came in (code or folder). */
export interface ResolvedExtension {
  readonly name: string;
  readonly version: string;
  readonly description: string | undefined;
  /** `code` for {@link extension}, `dir` for a folder. */
  readonly origin: 'code' | 'dir';
  /** The folder its files are read from (for a link, the linked folder); undefined in code. */
  readonly path: string | undefined;
  /** The installed folder (`~/.gemini/extensions/<dir>`), when it was found there. */
  readonly installDir: string | undefined;
  readonly installMetadata: InstallMetadata | undefined;
  /** Absolute paths of its context files, in order. */
  readonly contextFiles: readonly string[];
  /** Context text given in code (`instructions` as a string). */
  readonly contextText: string | undefined;
  /** A system-prompt section (`instructions` as a function). */
  readonly section: SystemSectionProvider | undefined;
  readonly tools: readonly AnyTool[];
  readonly skills: ExtensionSkills | undefined;
  readonly runtimeHooks: readonly AnySdkHook[];
  /** `hooks/hooks.json`'s command hooks (source `extensions`). */
  readonly commandHooks: readonly HookEntry[];
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
  readonly excludeTools: readonly string[];
  /** Its policy rules (tier `extension`; allow and yolo rules already dropped). */
  readonly policy: readonly PolicySource[];
  readonly features: readonly Feature[];
  readonly settings: readonly ExtensionSetting[];
  readonly resolvedSettings: readonly ResolvedExtensionSetting[];
  /** `agents/` when the folder has one (sub-agent definitions, `*.md`). */
  readonly agentsDir: string | undefined;
  /** The values its files were hydrated with (`${extensionPath}`, settings, …). */
  readonly variables: VariableContext;
  /** Problems found while loading that did not stop it (gemini-cli's warning texts). */
  readonly warnings: readonly string[];
}
