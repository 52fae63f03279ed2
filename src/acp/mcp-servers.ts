import type { McpServer } from '@agentclientprotocol/sdk';
import { invalidParams } from './acp-errors.js';

/**
 * A client MCP server in gemini-cli's `MCPServerConfig` shape (settings key `mcpServers.<name>`): stdio
 * (`command`, `args`, `env`, `cwd` = the session cwd), Streamable HTTP (`httpUrl`) or SSE (`url` with
 * `type: 'sse'`), with `headers`.
 */
export type ClientMcpServerConfig =
  | { command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { httpUrl: string; headers: Record<string, string> }
  | { url: string; type: 'sse'; headers: Record<string, string> };

function pairs(list: ReadonlyArray<{ name: string; value: string }>, what: string, server: string) {
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    if (name.trim() === '')
      throw invalidParams(`MCP server "${server}" has a ${what} with an empty name.`);
    out[name] = value;
  }
  return out;
}

function checkUrl(url: string, server: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidParams(`MCP server "${server}" has an invalid url ${JSON.stringify(url)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidParams(
      `MCP server "${server}" must use an http:// or https:// url (got ${parsed.protocol}).`,
    );
  }
  return url;
}

/**
 * Validates the `mcpServers` of `session/new` / `load` / `resume` and converts them to gemini-cli's config shape,
 * keyed by name (gemini-cli merges them over the settings' servers, a same name overriding).
 *
 * @throws RequestError `-32602` for an empty or duplicate name, an empty command, or a bad url or header.
 */
export function clientMcpServers(
  servers: readonly McpServer[] | undefined,
  cwd: string,
): Record<string, ClientMcpServerConfig> {
  const configs: Record<string, ClientMcpServerConfig> = {};
  for (const server of servers ?? []) {
    const name = server.name.trim();
    if (name === '') throw invalidParams('an MCP server has an empty name.');
    if (Object.hasOwn(configs, name)) throw invalidParams(`two MCP servers are named "${name}".`);
    if ('type' in server && server.type === 'http') {
      configs[name] = {
        httpUrl: checkUrl(server.url, name),
        headers: pairs(server.headers, 'header', name),
      };
    } else if ('type' in server && server.type === 'sse') {
      configs[name] = {
        url: checkUrl(server.url, name),
        type: 'sse',
        headers: pairs(server.headers, 'header', name),
      };
    } else if ('command' in server) {
      if (server.command.trim() === '')
        throw invalidParams(`MCP server "${name}" has an empty command.`);
      configs[name] = {
        command: server.command,
        args: [...server.args],
        env: pairs(server.env, 'environment variable', name),
        cwd,
      };
    }
  }
  return configs;
}
