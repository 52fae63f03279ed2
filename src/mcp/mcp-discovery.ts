import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  PromptSchema,
  ResourceSchema,
  ToolSchema,
  type Prompt,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { compileArgumentsCheck, isValidJsonSchema } from '../tools/schema/json-schema-validator.js';
import { isToolEnabled, type McpServerConfig } from './mcp-config.js';
import { EMPTY_OBJECT_SCHEMA, transformInputSchema } from './mcp-schema.js';

/** More pages than any real server sends: a server that keeps answering with a cursor is cut off here. */
const MAX_PAGES = 100;

/** A page of a list answer (`tools/list`, …), each item checked on its own (one bad item does not lose the others). */
const Page = z.looseObject({ nextCursor: z.string().optional() });

/** A tool of a server, ready to be offered: its definition, the schema Gemini gets, and its argument check. */
export interface DiscoveredTool {
  /** The definition as the server sent it (with an empty object schema when it had none). */
  definition: Tool;
  /** The input schema after gemini-cli's transform (`type: [X, 'null']` → `nullable`). */
  declaredSchema: Record<string, unknown>;
  /** Checks the model's arguments against the server's schema (gemini-cli's Ajv wording). */
  check: (args: unknown) => string | null;
}

/** What discovering one list yields: the usable items and a warning per item that was left out. */
export interface Discovered<T> {
  items: T[];
  warnings: string[];
}

function isMethodNotFound(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.MethodNotFound;
}

async function listAll(
  client: Client,
  method: 'tools/list' | 'resources/list' | 'prompts/list',
  key: 'tools' | 'resources' | 'prompts',
  options: RequestOptions,
): Promise<unknown[]> {
  const schema = Page.extend({ [key]: z.array(z.unknown()) });
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let answer: { nextCursor?: string | undefined } & Record<string, unknown>;
    try {
      answer = await client.request(
        { method, params: cursor === undefined ? {} : { cursor } },
        schema,
        options,
      );
    } catch (error) {
      if (isMethodNotFound(error)) return items;
      throw error;
    }
    items.push(...(answer[key] as unknown[]));
    cursor = answer.nextCursor;
    if (cursor === undefined || cursor === '') break;
  }
  return items;
}

/**
 * The argument check of a schema, compiled on first use (compiling costs milliseconds per schema, and most of a
 * server's tools are never called). A schema Ajv cannot compile is not checked, as in gemini-cli.
 */
function lazyCheck(schema: Record<string, unknown>): (args: unknown) => string | null {
  let compiled: ((args: unknown) => string | null) | undefined;
  let tried = false;
  return (args) => {
    if (!tried) {
      tried = true;
      compiled = compileArgumentsCheck(schema);
    }
    if (compiled) return compiled(args);
    return typeof args === 'object' && args !== null && !Array.isArray(args)
      ? null
      : 'Value of params must be an object';
  };
}

function nameOf(item: unknown): string {
  const name = (item as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `'${name}'` : '(without a name)';
}

/**
 * Lists a server's tools (every page) when it has the tools capability, keeps those `includeTools` /
 * `excludeTools` allow, and prepares each: a tool whose definition or input schema is unusable is left out with a
 * warning instead of failing the server.
 */
export async function discoverTools(
  client: Client,
  serverName: string,
  config: McpServerConfig,
  options: RequestOptions,
): Promise<Discovered<DiscoveredTool>> {
  if (client.getServerCapabilities()?.tools == null) return { items: [], warnings: [] };
  const raw = await listAll(client, 'tools/list', 'tools', options);
  const items: DiscoveredTool[] = [];
  const warnings: string[] = [];
  for (const entry of raw) {
    const withSchema =
      typeof entry === 'object' && entry !== null && !('inputSchema' in entry)
        ? { ...entry, inputSchema: EMPTY_OBJECT_SCHEMA }
        : entry;
    const parsed = ToolSchema.safeParse(withSchema);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      warnings.push(
        `Tool ${nameOf(entry)} of MCP server '${serverName}' was skipped: its definition is invalid ` +
          `(${issue ? `${issue.path.join('.') || 'tool'}: ${issue.message}` : 'unknown problem'}).`,
      );
      continue;
    }
    const definition = parsed.data;
    if (!isToolEnabled(definition.name, config)) continue;
    let declaredSchema: Record<string, unknown> | undefined;
    try {
      if (isValidJsonSchema(definition.inputSchema)) {
        declaredSchema = transformInputSchema(definition.inputSchema) as Record<string, unknown>;
      }
    } catch {
      declaredSchema = undefined;
    }
    if (declaredSchema === undefined) {
      warnings.push(
        `Tool '${definition.name}' of MCP server '${serverName}' was skipped: its input schema is not a valid JSON Schema.`,
      );
      continue;
    }
    const check = lazyCheck(definition.inputSchema);
    items.push({ definition, declaredSchema, check });
  }
  return { items, warnings };
}

/** Lists a server's resources (every page) when it has the resources capability. */
export async function discoverResources(
  client: Client,
  options: RequestOptions,
): Promise<Resource[]> {
  if (client.getServerCapabilities()?.resources == null) return [];
  const raw = await listAll(client, 'resources/list', 'resources', options);
  return raw.flatMap((item) => {
    const parsed = ResourceSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Lists a server's prompts (every page) when it has the prompts capability. */
export async function discoverPrompts(client: Client, options: RequestOptions): Promise<Prompt[]> {
  if (client.getServerCapabilities()?.prompts == null) return [];
  const raw = await listAll(client, 'prompts/list', 'prompts', options);
  return raw.flatMap((item) => {
    const parsed = PromptSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
