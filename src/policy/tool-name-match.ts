import { compileLinearRegex } from '../linear-regex.js';
/** Prefix of every MCP tool name: `mcp_<server>_<tool>`. */
export const MCP_PREFIX = 'mcp_';

/**
 * The server of an MCP tool name (`mcp_<server>_<tool>`: everything up to the first `_` after `mcp_`), or
 * undefined for a name that is not an MCP tool. Server names therefore cannot contain `_` (gemini-cli's rule).
 */
export function mcpServerOf(toolName: string): string | undefined {
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  const rest = toolName.slice(MCP_PREFIX.length);
  const cut = rest.indexOf('_');
  if (cut <= 0 || cut === rest.length - 1) return undefined;
  return rest.slice(0, cut);
}

/**
 * gemini-cli's `formatMcpToolName`: the tool name a rule with `mcpName` stands for. `*` for either part is a
 * wildcard: (`*`, `*`) → `mcp_*`, (`github`, `*`) → `mcp_github_*`, (`*`, `search`) → `mcp_*_search`.
 */
export function formatMcpToolName(server: string, tool: string | undefined): string {
  if (server === '*' && (tool === undefined || tool === '*')) return `${MCP_PREFIX}*`;
  if (tool === undefined || tool === '*') return `${MCP_PREFIX}${server}_*`;
  if (tool.startsWith(`${MCP_PREFIX}${server}_`)) return tool;
  return `${MCP_PREFIX}${server}_${tool}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A matcher for a rule's tool name: exact, `*` for everything, or a pattern where `*` matches any characters. */
export function toolNameMatcher(pattern: string): (toolName: string) => boolean {
  if (pattern === '*') return () => true;
  if (!pattern.includes('*')) return (toolName) => toolName === pattern;
  // Rule names come from user files: matched on the linear-time engine (`a*a*a*…` cannot backtrack).
  const regex = compileLinearRegex(`(?s)^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return (toolName) => regex.test(toolName);
}
