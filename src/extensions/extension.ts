import type { Feature, SystemSectionProvider } from '../core/feature.js';
import type { PolicyRule } from '../core/policy-rule.js';
import type { AnyTool } from '../core/tool-definition.js';
import { ConfigurationError } from '../errors.js';
import { isSdkHook, type AnySdkHook } from '../hooks/hook.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import type { SkillReference } from '../skills/skill-reference.js';
import { EXTENSION_NAME } from './extension-manifest.js';

/** What {@link extension} bundles: gemini-cli's extension parts, given in code. Every part is optional but `name`. */
export interface ExtensionOptions {
  /** Letters, digits and `-` (gemini-cli's rule); unique among the agent's extensions. */
  name: string;
  /** Default `0.0.0`. */
  version?: string;
  description?: string;
  /**
   * Context for the model, like an extension's `GEMINI.md`: text (rendered in `<extension_context>` of the first
   * turn, as `--- Context from: extension <name> ---`), or a function of a fresh `SessionContext`, evaluated before
   * every model call and placed as a system-prompt section.
   */
  instructions?: string | SystemSectionProvider;
  /** Context files (absolute, or relative to the agent's `cwd`), rendered in `<extension_context>` like GEMINI.md. */
  contextFiles?: string[];
  /** Tools; they run without asking, like the agent's `tools` option. */
  tools?: AnyTool[];
  /** Skill folders (`skillDir(...)`), in gemini-cli's extension tier: user and workspace skills override them. */
  skills?: SkillReference[];
  /** Hooks made with `hook()`; they run after the settings' hooks (source `extensions`), in any folder. */
  hooks?: AnySdkHook[];
  /** MCP servers, in gemini-cli's `mcpServers` shape; a settings or `mcpServers`-option server of the same name wins. */
  mcpServers?: Record<string, McpServerConfig>;
  /** Tool names removed from the model's tool list while the extension is active (exact names). */
  excludeTools?: string[];
  /**
   * Policy rules in the extension tier (priority 2.x: above gemini-cli's defaults, below user and admin rules).
   * As gemini-cli does for extensions, `allow` rules and rules for `yolo` mode are dropped with a warning.
   */
  policies?: PolicyRule[];
  /** More features (interceptors, per-session setup) that join and leave with the extension. */
  features?: Feature[];
}

/** An extension ready to pass in the agent's `extensions` option (made by {@link extension}). */
export interface Extension {
  readonly type: 'extension';
  readonly name: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly options: Readonly<ExtensionOptions>;
}

/** A gemini-cli extension folder (holding `gemini-extension.json`), loaded when the agent is created. */
export interface ExtensionDirReference {
  readonly type: 'extensionDir';
  readonly path: string;
}

/** What the agent's `extensions` option takes. */
export type ExtensionReference = Extension | ExtensionDirReference;

function check(condition: boolean, label: string, what: string): void {
  if (!condition) throw new ConfigurationError(`Extension "${label}": ${what}.`);
}

const stringList = (value: unknown): boolean =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * Bundles tools, context, skills, hooks, MCP servers, excluded tools and policy rules into one extension, the
 * code form of a gemini-cli extension folder. Pass it (with {@link extensionDir} folders) in the agent's
 * `extensions` option; `-e` / the enablement file never switch off an extension given in code.
 *
 * @example
 * ```ts
 * const gcs = extension({
 *   name: 'gcs-tools',
 *   version: '1.0.0',
 *   instructions: 'Buckets are named after the project.',
 *   tools: [listBuckets],
 *   skills: [skillDir('./skills')],
 *   mcpServers: { storage: { command: 'node', args: ['storage-server.js'] } },
 *   excludeTools: ['run_shell_command'],
 * });
 * new GeminiCliAgent({ extensions: [gcs, extensionDir('~/.gemini/extensions/foo')] });
 * ```
 * @throws ConfigurationError for a bad name or a part of the wrong type.
 */
export function extension(options: ExtensionOptions): Extension {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError('extension() takes an options object ({ name, ... }).');
  }
  const { name } = options;
  if (typeof name !== 'string' || !EXTENSION_NAME.test(name)) {
    throw new ConfigurationError(
      `Invalid extension name: "${String(name)}". Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed.`,
    );
  }
  const o = options as unknown as Record<string, unknown>;
  check(
    o['version'] === undefined || typeof o['version'] === 'string',
    name,
    'version must be a string',
  );
  check(
    o['description'] === undefined || typeof o['description'] === 'string',
    name,
    'description must be a string',
  );
  check(
    o['instructions'] === undefined || ['string', 'function'].includes(typeof o['instructions']),
    name,
    'instructions must be text or a function',
  );
  for (const key of ['contextFiles', 'excludeTools'] as const) {
    check(o[key] === undefined || stringList(o[key]), name, `${key} must be an array of strings`);
  }
  for (const key of ['tools', 'skills', 'policies', 'features'] as const) {
    check(o[key] === undefined || Array.isArray(o[key]), name, `${key} must be an array`);
  }
  check(
    o['hooks'] === undefined || (Array.isArray(o['hooks']) && o['hooks'].every(isSdkHook)),
    name,
    'hooks must be an array of hooks made with hook()',
  );
  check(
    o['mcpServers'] === undefined ||
      (typeof o['mcpServers'] === 'object' &&
        o['mcpServers'] !== null &&
        !Array.isArray(o['mcpServers'])),
    name,
    'mcpServers must be an object of servers by name',
  );
  return Object.freeze({
    type: 'extension' as const,
    name,
    version: options.version ?? '0.0.0',
    description: options.description,
    options: Object.freeze({ ...options }),
  });
}

/**
 * References a gemini-cli extension folder: one holding `gemini-extension.json` (with `GEMINI.md`, `skills/`,
 * `hooks/hooks.json`, `policies/*.toml`, `agents/*.md`, …), such as `~/.gemini/extensions/<name>`. A folder holding
 * `.gemini-extension-install.json` of type `link` loads the folder it points to.
 *
 * @param path Absolute, relative to the agent's `cwd`, or starting with `~/`.
 */
export function extensionDir(path: string): ExtensionDirReference {
  if (typeof path !== 'string' || path === '') {
    throw new ConfigurationError('extensionDir() takes the path of an extension folder.');
  }
  return Object.freeze({ type: 'extensionDir' as const, path });
}

/** True for what {@link extension} or {@link extensionDir} made. */
export function isExtensionReference(value: unknown): value is ExtensionReference {
  if (typeof value !== 'object' || value === null) return false;
  const type = (value as { type?: unknown }).type;
  return (
    (type === 'extension' && typeof (value as { name?: unknown }).name === 'string') ||
    (type === 'extensionDir' && typeof (value as { path?: unknown }).path === 'string')
  );
}
