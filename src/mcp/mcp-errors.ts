import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

function statusOf(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    return typeof error.code === 'number' ? error.code : undefined;
  }
  return undefined;
}

/** Whether a connection failure is the server asking for credentials (HTTP 401). */
export function isAuthFailure(error: unknown): boolean {
  return error instanceof UnauthorizedError || statusOf(error) === 401;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail =
      cause instanceof Error && !error.message.includes(cause.message) ? ` (${cause.message})` : '';
    return `${error.message}${detail}`;
  }
  return String(error);
}

/**
 * gemini-cli's `Error connecting to MCP server '<name>': <why>`, with what to do for a server that wants
 * credentials, and the server's last stderr lines when it wrote any.
 */
export function connectFailureMessage(name: string, error: unknown, stderrTail?: string): string {
  if (isAuthFailure(error)) {
    return (
      `MCP server '${name}' requires authentication (HTTP 401). OAuth sign-in is not supported yet: ` +
      `pass the credentials in its "headers" (e.g. "Authorization": "Bearer $TOKEN").`
    );
  }
  const output = stderrTail ? ` Server output: ${stderrTail}` : '';
  return `Error connecting to MCP server '${name}': ${messageOf(error)}${output}`;
}
