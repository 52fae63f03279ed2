/** Prefix of every MCP tool's name: `mcp_<server>_<tool>`. */
export const MCP_TOOL_PREFIX = 'mcp_';

/** Gemini's limit on a function name is 64; gemini-cli keeps one character of margin. */
const SAFE_NAME_LENGTH = 63;

/**
 * gemini-cli's `generateValidName`: the `mcp_` prefix (unless present), every character outside
 * `A-Za-z0-9_.:-` replaced with `_`, a `_` before a leading non-letter, and a name over 63 characters shortened to
 * its first 30 and last 30 characters joined by `...`.
 */
export function generateValidName(name: string): string {
  let valid = name.startsWith(MCP_TOOL_PREFIX) ? name : `${MCP_TOOL_PREFIX}${name}`;
  valid = valid.replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (/^[^a-zA-Z_]/.test(valid)) valid = `_${valid}`;
  if (valid.length > SAFE_NAME_LENGTH) valid = `${valid.slice(0, 30)}...${valid.slice(-30)}`;
  return valid;
}

/** The name the model sees for a server's tool: `mcp_<server>_<tool>`, made valid as gemini-cli does. */
export function mcpToolName(serverName: string, toolName: string): string {
  return generateValidName(`${serverName}_${toolName}`);
}

/**
 * gemini-cli's `parseMcpToolName`: the server and tool of `mcp_<server>_<tool>` (split at the first `_` after the
 * prefix), or undefined for a name that is not of that form.
 */
export function parseMcpToolName(
  name: string,
): { serverName: string; toolName: string } | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const match = /^([^_]+)_(.+)$/s.exec(name.slice(MCP_TOOL_PREFIX.length));
  return match ? { serverName: match[1] as string, toolName: match[2] as string } : undefined;
}
