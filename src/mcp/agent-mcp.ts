import type { Part } from '@google/genai';
import type { McpGetPromptResult, McpReadResourceResult } from './mcp-types.js';
import { raceAbort } from '../core/abort.js';
import { ConfigurationError, McpServerError } from '../errors.js';
import { findResource, type McpResource } from './mcp-resource-tools.js';
import type { McpManager, McpPrompt, McpServerStatus } from './mcp-manager.js';

/** A server's prompt filled in: the server's answer, and its messages as parts for `sendStream`. */
export interface McpPromptResult {
  description?: string;
  /** The messages as the server sent them. */
  messages: McpGetPromptResult['messages'];
  /** The messages' content as parts (text, images and audio as `inlineData`, embedded resources). */
  parts: Part[];
}

function contentParts(content: Record<string, unknown>): Part[] {
  switch (content['type']) {
    case 'text':
      return typeof content['text'] === 'string' ? [{ text: content['text'] }] : [];
    case 'image':
    case 'audio':
      return typeof content['data'] === 'string' && typeof content['mimeType'] === 'string'
        ? [{ inlineData: { mimeType: content['mimeType'], data: content['data'] } }]
        : [];
    case 'resource': {
      const resource = (content['resource'] ?? {}) as Record<string, unknown>;
      if (typeof resource['text'] === 'string') return [{ text: resource['text'] }];
      if (typeof resource['blob'] === 'string') {
        const mimeType =
          typeof resource['mimeType'] === 'string'
            ? resource['mimeType']
            : 'application/octet-stream';
        return [{ inlineData: { mimeType, data: resource['blob'] } }];
      }
      return [];
    }
    case 'resource_link':
      return [
        {
          text: `Resource Link: ${String(content['title'] ?? content['name'])} at ${String(content['uri'])}`,
        },
      ];
    default:
      return [];
  }
}

/**
 * An agent's MCP servers (`agent.mcp`). Every method starts the servers first if no session has yet (in
 * parallel, once) and waits until each is connected or failed.
 *
 * @example
 * ```ts
 * for (const server of await agent.mcp.status()) console.log(server.name, server.state, server.toolCount);
 * const review = await agent.mcp.getPrompt('github', 'review', { pr: '42' });
 * for await (const event of agent.session().sendStream(review.parts)) …
 * ```
 */
export class AgentMcp {
  /** @internal Built by the agent. */
  constructor(private readonly manager: () => McpManager) {}

  /** Each configured server: `connected`, `connecting`, `failed` (with `reason`) or `disabled`, and its counts. */
  async status(signal?: AbortSignal): Promise<McpServerStatus[]> {
    const manager = await this.started(signal);
    return manager.status();
  }

  /** The prompts of the connected servers. */
  async prompts(signal?: AbortSignal): Promise<McpPrompt[]> {
    return (await this.started(signal)).prompts();
  }

  /**
   * Fills in a server's prompt (`prompts/get`; argument values are sent as strings).
   *
   * @throws ConfigurationError for an unknown server or prompt, or a missing required argument.
   * @throws MissingDependencyError when servers are configured but `@modelcontextprotocol/sdk` is not installed.
   * @throws McpServerError when the server fails to answer.
   */
  async getPrompt(
    serverName: string,
    promptName: string,
    args: Record<string, unknown> = {},
    signal?: AbortSignal,
  ): Promise<McpPromptResult> {
    const manager = await this.started(signal, true);
    const prompt = manager
      .prompts()
      .find((p) => p.serverName === serverName && p.name === promptName);
    if (prompt === undefined) {
      const known = manager
        .prompts()
        .map((p) => `${p.serverName}/${p.name}`)
        .join(', ');
      throw new ConfigurationError(
        `MCP server '${serverName}' has no prompt '${promptName}' (prompts: ${known || 'none'}).`,
      );
    }
    const missing = (prompt.arguments ?? [])
      .filter((a) => a.required === true && (args[a.name] === undefined || args[a.name] === null))
      .map((a) => a.name);
    if (missing.length > 0) {
      throw new ConfigurationError(
        `Prompt '${promptName}' of MCP server '${serverName}' needs the argument(s) ${missing.join(', ')}.`,
      );
    }
    let result: McpGetPromptResult;
    try {
      result = await manager.getPrompt(serverName, promptName, args, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new McpServerError(
        `MCP server '${serverName}' could not get prompt '${promptName}': ${error instanceof Error ? error.message : String(error)}`,
        { serverName },
        { cause: error },
      );
    }
    return {
      ...(result.description === undefined ? {} : { description: result.description }),
      messages: result.messages,
      parts: result.messages.flatMap((m) => contentParts(m.content as Record<string, unknown>)),
    };
  }

  /** The resources of the connected servers. */
  async resources(signal?: AbortSignal): Promise<McpResource[]> {
    return (await this.started(signal)).resources();
  }

  /**
   * Reads a resource by URI (`<server>:<uri>` or a bare URI).
   *
   * @throws ConfigurationError when no connected server lists it.
   * @throws MissingDependencyError when servers are configured but `@modelcontextprotocol/sdk` is not installed.
   */
  async readResource(uri: string, signal?: AbortSignal): Promise<McpReadResourceResult> {
    const manager = await this.started(signal, true);
    const resource = findResource(manager.resources(), uri);
    if (resource === undefined) {
      throw new ConfigurationError(`No connected MCP server lists the resource ${uri}.`);
    }
    return manager.connectionOf(resource.serverName).readResource(resource.uri, signal);
  }

  private async started(signal?: AbortSignal, needsSdk = false): Promise<McpManager> {
    const manager = this.manager();
    await raceAbort(manager.start(), signal);
    if (needsSdk && manager.missingDependency !== undefined) throw manager.missingDependency;
    return manager;
  }
}
