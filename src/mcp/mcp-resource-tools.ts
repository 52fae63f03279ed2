import type { AgentTool, ToolResult, ToolValidation } from '../core/agent-tool.js';
import { MCP_TOOL_ERROR } from './mcp-content.js';
import type { McpResourceInfo } from './mcp-types.js';

/** gemini-cli's name of the tool that lists MCP resources. */
export const LIST_MCP_RESOURCES_TOOL_NAME = 'list_mcp_resources';
/** gemini-cli's name of the tool that reads an MCP resource. */
export const READ_MCP_RESOURCE_TOOL_NAME = 'read_mcp_resource';

/** A resource with the server it belongs to. */
export type McpResource = McpResourceInfo & { serverName: string };

/** What the resource tools read from: the connected servers' resources, and a way to read one. */
export interface ResourceSource {
  resources(): McpResource[];
  read(
    resource: McpResource,
    signal: AbortSignal,
  ): Promise<{ contents: ReadonlyArray<Record<string, unknown>> }>;
}

/**
 * gemini-cli's lookup: `<server>:<uri>` first, then a bare URI of any server.
 */
export function findResource(
  resources: readonly McpResource[],
  id: string,
): McpResource | undefined {
  const colon = id.indexOf(':');
  if (colon > 0) {
    const server = id.slice(0, colon);
    const uri = id.slice(colon + 1);
    const qualified = resources.find((r) => r.serverName === server && r.uri === uri);
    if (qualified) return qualified;
  }
  return resources.find((r) => r.uri === id);
}

function failure(message: string, type: string): ToolResult {
  return {
    llmContent: `Error: ${message}`,
    returnDisplay: `Error: ${message}`,
    error: { message, type },
  };
}

function objectArgs(args: Record<string, unknown>): ToolValidation {
  return { ok: true, args };
}

/** gemini-cli's `list_mcp_resources` (kind `search`). */
export function listMcpResourcesTool(source: ResourceSource): AgentTool {
  return {
    name: LIST_MCP_RESOURCES_TOOL_NAME,
    displayName: 'List MCP Resources',
    description: 'Lists all available resources exposed by connected MCP servers.',
    kind: 'search',
    parametersJsonSchema: {
      type: 'object',
      properties: {
        serverName: {
          description: 'Optional filter to list resources from a specific server.',
          type: 'string',
        },
      },
      required: [],
    },
    validate(args) {
      const server = args['serverName'];
      if (server !== undefined && typeof server !== 'string') {
        return { ok: false, error: 'params/serverName must be string' };
      }
      return objectArgs(args);
    },
    describe: () => 'List MCP resources',
    execute(args) {
      const server = typeof args['serverName'] === 'string' ? args['serverName'] : '';
      const resources = source.resources().filter((r) => server === '' || r.serverName === server);
      if (resources.length === 0) {
        const message = server
          ? `No resources found for server: ${server}`
          : 'No MCP resources found.';
        return Promise.resolve({ llmContent: message, returnDisplay: message });
      }
      let content = 'Available MCP Resources:\n';
      for (const r of resources) {
        content += `- ${r.serverName}:${r.uri}`;
        if (r.name) content += ` | ${r.name}`;
        if (r.description) content += ` | ${r.description}`;
        content += '\n';
      }
      return Promise.resolve({
        llmContent: content,
        returnDisplay: `Listed ${resources.length} resources.`,
      });
    },
  };
}

/** gemini-cli's `read_mcp_resource` (kind `read`): text contents joined, binary ones named. */
export function readMcpResourceTool(source: ResourceSource): AgentTool {
  const describe = (args: Record<string, unknown>): string => {
    const uri = String(args['uri'] ?? '');
    const resource = findResource(source.resources(), uri);
    return resource
      ? `Read MCP resource "${resource.name}" from server "${resource.serverName}"`
      : `Read MCP resource: ${uri}`;
  };
  return {
    name: READ_MCP_RESOURCE_TOOL_NAME,
    displayName: 'Read MCP Resource',
    description: 'Reads the content of a specified Model Context Protocol (MCP) resource.',
    kind: 'read',
    parametersJsonSchema: {
      type: 'object',
      properties: {
        uri: { description: 'The URI of the MCP resource to read.', type: 'string' },
      },
      required: ['uri'],
    },
    validate(args) {
      if (typeof args['uri'] !== 'string') {
        return { ok: false, error: "params must have required property 'uri'" };
      }
      return objectArgs(args);
    },
    describe,
    async execute(args, _ctx, call) {
      const uri = String(args['uri'] ?? '');
      if (uri === '') return failure('No URI provided.', 'invalid_tool_params');
      const resource = findResource(source.resources(), uri);
      if (!resource) return failure(`Resource not found for URI: ${uri}`, 'mcp_resource_not_found');
      try {
        const result = await source.read(resource, call.signal);
        let text = '';
        for (const content of result.contents) {
          if (typeof content['text'] === 'string' && content['text'])
            text += `${content['text']}\n`;
          else if (typeof content['blob'] === 'string' && content['blob']) {
            text += `[Binary Data (${String(content['mimeType'])})]\n`;
          }
        }
        return {
          llmContent: text || 'No content returned from resource.',
          returnDisplay: `Successfully read resource "${resource.name}" from server "${resource.serverName}"`,
        };
      } catch (error) {
        if (call.signal.aborted) throw error;
        const message = `Failed to read resource: ${error instanceof Error ? error.message : String(error)}`;
        return failure(message, MCP_TOOL_ERROR);
      }
    },
  };
}
