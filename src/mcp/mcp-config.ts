import { z } from 'zod';

/** gemini-cli's default time limit for an MCP server's connect, list and call requests (10 minutes). */
export const MCP_DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

const text = (what: string) => z.string({ error: `expected ${what}` });
const stringMap = (what: string) =>
  z.record(z.string(), text('a string'), { error: `expected ${what}` });
const names = z.array(text('a tool name'), { error: 'expected an array of tool names' });

/**
 * One MCP server, in gemini-cli's `MCPServerConfig` shape (settings key `mcpServers.<name>`):
 *
 * - stdio: `command`, `args`, `env` (expanded with `$VAR`, never redacted), `cwd`;
 * - Streamable HTTP: `url` with `type: 'http'` (or `httpUrl`, deprecated); SSE: `url` with `type: 'sse'`; `url`
 *   alone tries Streamable HTTP, then SSE; `headers` (values expanded with `$VAR` against the redacted env);
 * - `timeout` (ms, connect, list and call; default 10 minutes), `trust` (no confirmation, in a trusted folder),
 *   `includeTools` / `excludeTools` (exclude wins; an include entry may be `name(...)`), `description`.
 *
 * gemini-cli's other keys (`tcp`, `extension`, `oauth`, `authProviderType`, `targetAudience`,
 * `targetServiceAccount`) are accepted and kept.
 */
export const McpServerConfig = z.looseObject(
  {
    command: text('a command').optional(),
    args: z.array(text('a string'), { error: 'expected an array of strings' }).optional(),
    env: stringMap('an object of environment variables').optional(),
    cwd: text('a directory path').optional(),
    url: text('a URL').optional(),
    httpUrl: text('a URL').optional(),
    headers: stringMap('an object of HTTP headers').optional(),
    tcp: text('a host:port').optional(),
    type: z
      .enum(['stdio', 'sse', 'http'], { error: "expected 'sse', 'http' or 'stdio'" })
      .optional(),
    timeout: z
      .number({ error: 'expected a number of milliseconds > 0' })
      .gt(0, { error: 'expected a number of milliseconds > 0' })
      .refine(Number.isFinite, { error: 'expected a number of milliseconds > 0' })
      .optional(),
    trust: z.boolean({ error: 'expected true or false' }).optional(),
    description: text('a string').optional(),
    includeTools: names.optional(),
    excludeTools: names.optional(),
  },
  { error: 'expected an MCP server configuration such as { command, args } or { url }' },
);
/** One MCP server (see the schema's documentation). */
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The `mcpServers` option: servers by (non-empty) name. */
export const McpServersOption = z.record(
  z.string().refine((name) => name.trim() !== '', { error: 'expected a non-empty server name' }),
  McpServerConfig,
  { error: 'expected an object of MCP servers by name, such as { github: { command, args } }' },
);

/** How the SDK reaches a server. */
export type McpTransportKind = 'stdio' | 'http' | 'sse' | 'http+sse';

/**
 * The transport a configuration asks for, as gemini-cli picks it: `httpUrl`, then `url` with `type`, then `url`
 * alone (Streamable HTTP with an SSE fallback), then `command`. Undefined when none is set.
 */
export function transportKind(config: McpServerConfig): McpTransportKind | undefined {
  if (config.httpUrl) return 'http';
  if (config.url) {
    if (config.type === 'http') return 'http';
    if (config.type === 'sse') return 'sse';
    return 'http+sse';
  }
  if (config.command) return 'stdio';
  return undefined;
}

/** gemini-cli's text for a server without a transport. */
export const MISSING_TRANSPORT_MESSAGE =
  'Invalid configuration: missing httpUrl (for Streamable HTTP), url (for SSE), and command (for stdio).';

/** One line saying where a server is (for `mcp list` and status): `<url> (http)`, `<command args> (stdio)`. */
export function describeServer(config: McpServerConfig): string {
  if (config.httpUrl) return `${config.httpUrl} (http)`;
  if (config.url) return `${config.url} (${config.type ?? 'http'})`;
  if (config.command) return `${[config.command, ...(config.args ?? [])].join(' ')} (stdio)`;
  return '(no transport)';
}

/**
 * Checks one server configuration beyond its field types: a transport is set, and a URL parses as http(s).
 * Returns what is wrong, or undefined.
 */
export function configProblem(config: McpServerConfig): string | undefined {
  const kind = transportKind(config);
  if (kind === undefined) return MISSING_TRANSPORT_MESSAGE;
  if (kind === 'stdio') {
    return config.command?.trim() === '' ? 'the command is empty' : undefined;
  }
  const url = config.httpUrl ?? config.url ?? '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `${JSON.stringify(url)} is not an http:// or https:// URL`;
  }
  return undefined;
}

/**
 * gemini-cli's `isEnabled`: whether a server's tool is offered. `excludeTools` wins over `includeTools`; an
 * `includeTools` entry may carry arguments (`name(...)`).
 */
export function isToolEnabled(toolName: string, config: McpServerConfig): boolean {
  if (config.excludeTools?.includes(toolName)) return false;
  const include = config.includeTools;
  return (
    include === undefined ||
    include.some((entry) => entry === toolName || entry.startsWith(`${toolName}(`))
  );
}

/** Why a configured server does not start: blocked by `mcp.allowed` / `mcp.excluded`, or `undefined`. */
export function blockReason(
  name: string,
  lists: { allowed?: readonly string[] | undefined; excluded?: readonly string[] | undefined },
): string | undefined {
  const id = name.trim().toLowerCase();
  const has = (list: readonly string[]) => list.some((entry) => entry.trim().toLowerCase() === id);
  if (lists.allowed !== undefined && lists.allowed.length > 0 && !has(lists.allowed)) {
    return `Server '${name}' is not in mcp.allowed list. Add it to settings.json mcp.allowed array to enable.`;
  }
  if (lists.excluded !== undefined && has(lists.excluded)) {
    return `Server '${name}' is blocked by mcp.excluded. Remove it from settings.json mcp.excluded array to enable.`;
  }
  return undefined;
}

/**
 * What is wrong with the `mcpServers` option beyond field types (a server without a transport, a bad URL), as
 * `{ path, message }` entries for the options check.
 */
export function mcpServersProblems(servers: unknown): Array<{ path: string; message: string }> {
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return [];
  const problems: Array<{ path: string; message: string }> = [];
  for (const [name, config] of Object.entries(servers)) {
    if (!McpServerConfig.safeParse(config).success) continue;
    const problem = configProblem(config as McpServerConfig);
    if (problem !== undefined) problems.push({ path: `mcpServers.${name}`, message: problem });
  }
  return problems;
}
