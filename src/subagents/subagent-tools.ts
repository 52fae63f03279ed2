import type { AgentTool } from '../core/agent-tool.js';
import { INVOKE_AGENT_TOOL_NAME } from '../core/session-runtime.js';
import type { AnyTool } from '../core/tool-definition.js';
import { toAgentTools } from '../tools/tool-provider.js';
import { ToolRegistry } from '../tools/tool-registry.js';

/** gemini-cli's answer to a call of a tool the subagent was not given. */
export function unauthorizedToolMessage(name: string): string {
  return `Unauthorized tool call: '${name}' is not available to this agent.`;
}

/** Whether a tool may never be handed to a subagent (recursion guard: no agent calls another agent). */
function isAgentTool(tool: AgentTool): boolean {
  return tool.name === INVOKE_AGENT_TOOL_NAME;
}

/** The MCP tools of the parent: served by a server (`serverName`), else named `mcp_…`. */
function isMcpTool(tool: AgentTool): boolean {
  return tool.serverName !== undefined || tool.name.startsWith('mcp_');
}

/**
 * The tools a subagent gets, as gemini-cli's `LocalAgentExecutor.create` picks them from the parent's: `'*'` every
 * tool, `'mcp_*'` every MCP tool, `'mcp_<server>_*'` one server's, a name that tool (unknown names are ignored),
 * a `tool()` object itself; no list: all of them. Agent tools are never included.
 */
export function selectSubagentTools(
  refs: ReadonlyArray<string | AnyTool> | undefined,
  parent: readonly AgentTool[],
  own: readonly AgentTool[],
): AgentTool[] {
  const picked = new Map<string, AgentTool>();
  const add = (tool: AgentTool): void => {
    if (!isAgentTool(tool) && !picked.has(tool.name)) picked.set(tool.name, tool);
  };
  if (refs === undefined) {
    parent.forEach(add);
    return [...picked.values()];
  }
  let ownIndex = 0;
  for (const ref of refs) {
    if (typeof ref !== 'string') {
      const tool = own[ownIndex++];
      if (tool !== undefined) add(tool);
      continue;
    }
    if (ref === '*') parent.forEach(add);
    else if (ref === 'mcp_*') parent.filter(isMcpTool).forEach(add);
    else if (ref.startsWith('mcp_') && ref.endsWith('_*')) {
      const server = ref.slice('mcp_'.length, -'_*'.length);
      parent
        .filter((t) => (t.serverName ?? '') === server || t.name.startsWith(`mcp_${server}_`))
        .forEach(add);
    } else {
      const tool = parent.find((t) => t.name === ref);
      if (tool !== undefined) add(tool);
    }
  }
  return [...picked.values()];
}

/** The `tool()` objects among a subagent's tool references, adapted once. */
export function ownTools(refs: ReadonlyArray<string | AnyTool> | undefined): AgentTool[] {
  return toAgentTools((refs ?? []).filter((r): r is AnyTool => typeof r !== 'string'));
}

/** A tool that only answers with gemini-cli's "Unauthorized tool call" error (it never runs). */
function unauthorizedTool(name: string): AgentTool {
  return {
    name,
    displayName: name,
    description: '',
    kind: 'other',
    parametersJsonSchema: { type: 'object' },
    validate: () => ({ ok: false, error: unauthorizedToolMessage(name) }),
    describe: () => name,
    execute: () => Promise.reject(new Error(unauthorizedToolMessage(name))),
  };
}

/** A subagent's registry: a call of any other tool is answered with gemini-cli's "Unauthorized tool call". */
export class SubagentToolRegistry extends ToolRegistry {
  override get(name: string): AgentTool | undefined {
    return super.get(name) ?? unauthorizedTool(name);
  }
}
