import { resolve } from 'node:path';
import type { Logger } from '../logger.js';
import type { McpServerConfig } from '../mcp/mcp-config.js';
import { createMcpFeature, type McpFeature } from '../mcp/mcp-feature.js';
import { McpManager } from '../mcp/mcp-manager.js';
import { sdkVersion } from '../model/client-headers.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { settingsIncludeDirectories } from './agent-settings.js';

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/**
 * The MCP servers an agent runs: the active extensions' servers, `mcpServers` from the settings, then the
 * `mcpServers` option (a server of the same name replaces the earlier entry, as a later settings file does). Relative stdio `cwd`s are resolved
 * against the agent's `cwd`.
 */
export function effectiveMcpServers(
  options: GeminiCliAgentOptions,
  settings: LoadedSettings,
  cwd: string,
  extensionServers: Readonly<Record<string, McpServerConfig>> = {},
): Record<string, McpServerConfig> {
  const servers: Record<string, McpServerConfig> = {};
  const add = (entries: Record<string, McpServerConfig> | undefined) => {
    for (const [name, config] of Object.entries(entries ?? {})) {
      Object.defineProperty(servers, name, {
        value: config.cwd === undefined ? config : { ...config, cwd: resolve(cwd, config.cwd) },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  };
  add(extensionServers as Record<string, McpServerConfig>);
  add(settings.merged.mcpServers as Record<string, McpServerConfig> | undefined);
  add(options.mcpServers);
  return servers;
}

/**
 * The agent's MCP feature: its servers (settings and the `mcpServers` option), blocked by `mcp.allowed` /
 * `mcp.excluded`, all disabled in an untrusted folder or when an administrator turned MCP off; the environment
 * servers see redacted with `security.environmentVariableRedaction`'s lists.
 */
export function createAgentMcpFeature(
  options: GeminiCliAgentOptions,
  context: {
    cwd: string;
    logger: Logger;
    settings: LoadedSettings;
    servers: Record<string, McpServerConfig>;
    reservedToolNames: ReadonlySet<string>;
  },
): McpFeature {
  const merged = context.settings.merged;
  const redaction = (merged.security as Record<string, unknown> | undefined)?.[
    'environmentVariableRedaction'
  ] as Record<string, unknown> | undefined;
  const adminEnabled = merged.admin?.mcp?.enabled !== false;
  const cwd = resolve(context.cwd);
  const allowed = strings(merged.mcp?.allowed);
  const excluded = strings(merged.mcp?.excluded);
  const manager = new McpManager({
    servers: context.servers,
    trusted: context.settings.trust.trusted,
    ...(adminEnabled ? {} : { disabledReason: 'MCP servers are disabled by administrator.' }),
    allowed,
    excluded,
    env: process.env,
    redaction: {
      ...(strings(redaction?.['allowed']) ? { allowed: strings(redaction?.['allowed']) } : {}),
      ...(strings(redaction?.['blocked']) ? { blocked: strings(redaction?.['blocked']) } : {}),
    },
    cwd,
    roots: () => [
      cwd,
      ...settingsIncludeDirectories(merged, cwd),
      ...(options.includeDirectories ?? []).map((dir) => resolve(cwd, dir)),
    ],
    reservedToolNames: context.reservedToolNames,
    clientInfo: { name: 'gemini-cli-mcp-client', version: sdkVersion() },
    logger: context.logger,
  });
  return createMcpFeature(manager);
}
