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

/**
 * A matcher for a rule's tool name: exact, `*` for everything, or a pattern where `*` matches any characters
 * (newlines included). Matched without a regular expression: the first literal piece must start the name, the
 * last must end it, and the ones between are found left to right (the leftmost occurrence of each is always a
 * valid choice for `*`-only patterns), so `a*a*a*…` from a user file costs time linear in the pieces' lengths
 * times the name's, with no backtracking.
 */
export function toolNameMatcher(pattern: string): (toolName: string) => boolean {
  if (pattern === '*') return () => true;
  if (!pattern.includes('*')) return (toolName) => toolName === pattern;
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  const last = pieces[pieces.length - 1] ?? '';
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '');
  const fixed = first.length + last.length;
  return (toolName) => {
    if (toolName.length < fixed || !toolName.startsWith(first) || !toolName.endsWith(last)) {
      return false;
    }
    const end = toolName.length - last.length;
    let at = first.length;
    for (const piece of middle) {
      const found = toolName.indexOf(piece, at);
      if (found === -1 || found + piece.length > end) return false;
      at = found + piece.length;
    }
    return true;
  };
}
