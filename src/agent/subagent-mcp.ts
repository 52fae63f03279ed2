import { resolve } from 'node:path';
import { raceAbort } from '../core/abort.js';
import type { RunMcpServers } from '../core/session-runtime.js';
import { ConfigurationError } from '../errors.js';
import type { WarningInfo } from '../events.js';
import { McpServerConfig, mcpServersProblems } from '../mcp/mcp-config.js';
import type { McpManager } from '../mcp/mcp-manager.js';

/** The servers checked as MCP server configurations, relative stdio `cwd`s resolved against the agent's `cwd`. */
function checkedServers(
  servers: Readonly<Record<string, Record<string, unknown>>>,
  cwd: string,
): Record<string, McpServerConfig> {
  const checked: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(servers)) {
    const parsed = McpServerConfig.safeParse(raw);
    const problem = parsed.success
      ? mcpServersProblems({ [name]: raw })[0]?.message
      : parsed.error.issues
          .map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`)
          .join('; ');
    if (!parsed.success || problem !== undefined) {
      throw new ConfigurationError(
        `The subagent's MCP server '${name}' is not a valid MCP server configuration (${problem ?? 'invalid'}): ` +
          'give it `command` (stdio), `httpUrl` (Streamable HTTP) or `url`, as in the mcpServers setting.',
      );
    }
    const config = parsed.data;
    Object.defineProperty(checked, name, {
      value: config.cwd === undefined ? config : { ...config, cwd: resolve(cwd, config.cwd) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return checked;
}

/**
 * Starts a subagent run's own MCP servers on the agent's MCP terms (`manager.derive`): in parallel, each failure
 * (and each server the folder's trust or `mcp.allowed` / `mcp.excluded` keeps off) a warning for the run's
 * stream. An abort while they start stops them and rejects.
 *
 * @throws ConfigurationError for a configuration that is not an MCP server's.
 */
export async function startRunMcpServers(
  manager: McpManager,
  servers: Readonly<Record<string, Record<string, unknown>>>,
  options: { cwd: string; signal: AbortSignal; onWarning: (warning: WarningInfo) => void },
): Promise<RunMcpServers> {
  const scoped = manager.derive(checkedServers(servers, options.cwd));
  const unsubscribe = scoped.subscribe((warning) => options.onWarning(warning));
  const close = async (): Promise<void> => {
    unsubscribe();
    await scoped.close();
  };
  try {
    await raceAbort(scoped.start(), options.signal);
  } catch (error) {
    await close();
    throw error;
  }
  for (const status of scoped.status()) {
    if (status.state !== 'disabled') continue;
    options.onWarning({
      code: 'MCP_SERVER_DISABLED',
      message: status.reason ?? `MCP server '${status.name}' is disabled.`,
      source: `mcp:${status.name}`,
    });
  }
  return { tools: () => scoped.tools(), close };
}
