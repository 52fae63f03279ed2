/**
 * The MCP shapes the public API hands out (`agent.mcp`), written after the MCP specification (2025-06-18) so
 * the package's type declarations never name `@modelcontextprotocol/sdk`: that SDK is an optional peer
 * dependency, and an app without it must still type-check with `skipLibCheck: false`. The SDK's own types are
 * assignable to these (`mcp-connection.ts` relies on it).
 */

/** Where a server is: `connected`, `connecting`, `failed` (with a reason), or `disabled` (never started). */
export type McpServerState = 'connected' | 'connecting' | 'failed' | 'disabled';

/** Free-form metadata of an MCP object (`_meta`). */
export type McpMeta = { [key: string]: unknown };

/** An icon of a prompt, resource or tool. */
export interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Hints about who a piece of content is for and how important it is. */
export interface McpAnnotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

/** One argument of a server's prompt. */
export interface McpPromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as a server lists it (`prompts/list`). */
export interface McpPromptInfo {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
  icons?: McpIcon[];
  _meta?: McpMeta;
}

/** A resource as a server lists it (`resources/list`). */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: McpAnnotations;
  size?: number;
  icons?: McpIcon[];
  _meta?: McpMeta;
}

/** A resource's text or binary (base64 `blob`) contents. */
export type McpResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: McpMeta }
  | { uri: string; mimeType?: string; blob: string; _meta?: McpMeta };

/** One block of a prompt message: text, image, audio, a link to a resource or an embedded resource. */
export type McpContentBlock =
  | { type: 'text'; text: string; annotations?: McpAnnotations; _meta?: McpMeta }
  | {
      type: 'image' | 'audio';
      data: string;
      mimeType: string;
      annotations?: McpAnnotations;
      _meta?: McpMeta;
    }
  | ({ type: 'resource_link' } & McpResourceInfo)
  | {
      type: 'resource';
      resource: McpResourceContents;
      annotations?: McpAnnotations;
      _meta?: McpMeta;
    };

/** One message of a filled-in prompt. */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: McpContentBlock;
}

/** A server's answer to `prompts/get`. */
export interface McpGetPromptResult {
  description?: string;
  messages: McpPromptMessage[];
  _meta?: McpMeta;
  [key: string]: unknown;
}

/** A server's answer to `resources/read`. */
export interface McpReadResourceResult {
  contents: McpResourceContents[];
  _meta?: McpMeta;
  [key: string]: unknown;
}

/** What the manager and `agent.mcp` use of one server's connection. */
export interface McpServerHandle {
  readonly name: string;
  readonly state: McpServerState;
  readResource(uri: string, signal?: AbortSignal): Promise<McpReadResourceResult>;
  getPrompt(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpGetPromptResult>;
}
