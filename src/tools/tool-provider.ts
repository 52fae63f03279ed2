import type { SessionContext } from '../core/session-context.js';
import { isAgentTool, sdkToolToAgentTool } from './sdk-tool.js';
import type { Tool } from './tool.js';
import type { AgentTool } from '../core/agent-tool.js';

/**
 * Supplies tools to the loop. Every provider is evaluated with a fresh {@link SessionContext} before **every**
 * model call, so the tool list may change between calls (skills enabled, built-ins toggled, MCP servers
 * connected). Custom `tool()` tools are one provider among others.
 */
export type ToolProvider = (ctx: SessionContext) => AgentTool[] | Promise<AgentTool[]>;

/** Either kind of tool an agent accepts in its `tools` option. */
export type AnyTool = Tool | AgentTool;

/** A provider returning a fixed list: `tool()` definitions (adapted once) and ready {@link AgentTool}s. */
export function staticToolProvider(tools: readonly AnyTool[]): ToolProvider {
  const adapted = tools.map((t) => (isAgentTool(t) ? t : sdkToolToAgentTool(t)));
  return () => adapted;
}
