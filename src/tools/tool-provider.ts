import type { AgentTool } from '../core/agent-tool.js';
import type { AnyTool } from '../core/tool-definition.js';
import { isAgentTool, sdkToolToAgentTool } from './sdk-tool.js';

/** The loop's {@link AgentTool}s for a list of tools: `tool()` definitions adapted (cached per tool object). */
export function toAgentTools(tools: readonly AnyTool[]): AgentTool[] {
  return tools.map((t) => (isAgentTool(t) ? t : sdkToolToAgentTool(t)));
}
