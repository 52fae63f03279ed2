import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Environment } from '../settings/env-expansion.js';
import { MISSING_TRANSPORT_MESSAGE, type McpServerConfig } from './mcp-config.js';
import { expandHeaders, stdioServerEnv, type RedactionLists } from './mcp-env.js';
import { ProcessGroupStdioTransport } from './stdio-transport.js';

/** What building a transport needs besides the server's configuration. */
export interface TransportContext {
  /** The host environment (redacted before a server sees it). */
  env: Environment;
  redaction: RedactionLists;
  /** Where a stdio server runs when its configuration has no `cwd`. */
  cwd: string;
  maxMessageBytes: number;
  killGraceMs: number;
  onStderr(chunk: string): void;
}

/**
 * gemini-cli's `McpComplianceTransport`: fills a missing `structuredContent` of a result whose first content block
 * is JSON text, so a server that forgets it still satisfies a tool's output schema.
 */
export class ComplianceTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(readonly inner: Transport) {
    inner.onmessage = (message) => {
      fixStructuredContent(message);
      this.onmessage?.(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function fixStructuredContent(message: JSONRPCMessage): void {
  if (!('result' in message)) return;
  const result = message.result as Record<string, unknown>;
  const content = result['content'];
  if (!Array.isArray(content) || content.length === 0 || result['structuredContent']) return;
  const first = content[0] as { type?: unknown; text?: unknown } | null;
  if (first?.type !== 'text' || typeof first.text !== 'string') return;
  try {
    result['structuredContent'] = JSON.parse(first.text);
  } catch {
    // plain text, not JSON
  }
}

/**
 * A fetch that answers a GET 404 as 405, as gemini-cli does: servers without the optional SSE GET stream of
 * Streamable HTTP then work (the SDK ignores 405).
 */
const tolerantFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  return init?.method === 'GET' && response.status === 404
    ? new Response(null, { status: 405, statusText: 'Method Not Allowed' })
    : response;
};

/** A Streamable HTTP or SSE transport for a network server (headers expanded against the redacted env). */
export function createNetworkTransport(
  config: McpServerConfig,
  kind: 'http' | 'sse',
  context: Pick<TransportContext, 'env' | 'redaction'>,
): Transport {
  const headers = expandHeaders(config.headers, context.env, context.redaction);
  const requestInit: RequestInit = Object.keys(headers).length > 0 ? { headers } : {};
  const url = new URL(config.httpUrl ?? config.url ?? '');
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit, fetch: tolerantFetch });
  return new ComplianceTransport(transport);
}

/** The stdio transport for a local server: its environment is gemini-cli's (redacted host env + its own). */
export function createStdioTransport(
  config: McpServerConfig,
  context: TransportContext,
): ProcessGroupStdioTransport {
  if (!config.command) throw new Error(MISSING_TRANSPORT_MESSAGE);
  return new ProcessGroupStdioTransport({
    command: config.command,
    args: config.args ?? [],
    env: stdioServerEnv(context.env, config.env, context.redaction),
    cwd: config.cwd ?? context.cwd,
    maxMessageBytes: context.maxMessageBytes,
    killGraceMs: context.killGraceMs,
    onStderr: context.onStderr,
  });
}
