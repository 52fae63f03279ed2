import type { RunMcpServers, SessionRuntime } from '../core/session-runtime.js';
import type { SubagentInnerEvent } from '../events.js';

/**
 * Starts a subagent's own MCP servers (its `mcpServers`, gemini-cli's `mcp_servers`) for one run, each server's
 * failure a `warning` among the run's events. An abort or the run's time limit while they start resolves
 * undefined: the run's loop then sees the signal and ends the run as `ABORTED` / `TIMEOUT`.
 *
 * @throws ConfigurationError for a configuration that is not an MCP server's.
 */
export async function startRunServers(
  runtime: SessionRuntime,
  servers: Readonly<Record<string, Record<string, unknown>>>,
  signal: AbortSignal,
  forward: (event: SubagentInnerEvent) => void,
): Promise<RunMcpServers | undefined> {
  try {
    return await runtime.startMcpServers(servers, signal, (value) =>
      forward({ type: 'warning', value }),
    );
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  }
}
