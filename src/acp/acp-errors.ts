import { RequestError } from '@agentclientprotocol/sdk';
import { AuthenticationError, GeminiAgentError, ModelApiError } from '../errors.js';

/** gemini-cli's text for a rate-limited model call (HTTP 429). */
export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Try again later.';

/** Codes of the SDK's own errors that are the client's fault (bad request parameters). */
const INVALID_PARAMS_CODES = new Set(['CONFIGURATION', 'SESSION_EXISTS', 'APPROVAL_UNKNOWN_CALL']);
/** Codes of the SDK's errors saying the session is in a state that does not allow the request now. */
const INVALID_STATE_CODES = new Set(['SESSION_LOCKED', 'SESSION_BUSY', 'SESSION_CLOSED']);

/** `-32002` for a session that is not active on this connection, with `data.sessionId` as ACP expects. */
export function sessionNotFound(sessionId: string, hint?: string): RequestError {
  return new RequestError(
    -32002,
    `Resource not found: session ${sessionId}${hint ? ` ${hint}` : ''}`,
    { sessionId },
  );
}

/** `-32602` with a message saying what to send instead. */
export function invalidParams(message: string, data?: unknown): RequestError {
  return new RequestError(-32602, `Invalid params: ${message}`, data);
}

/** `-32600`: the request is well formed but the session's state does not allow it now. */
export function invalidState(message: string, data?: unknown): RequestError {
  return new RequestError(-32600, `Invalid request: ${message}`, data);
}

/**
 * Extracts the readable message of a Google API error body that ended up in an error message as JSON (as
 * gemini-cli's `getAcpErrorMessage` does).
 */
export function readableMessage(message: string): string {
  let text = message.trim();
  for (let depth = 0; depth < 5; depth++) {
    const start = text.indexOf('{');
    if (start === -1 || !text.endsWith('}')) return text;
    try {
      const parsed = JSON.parse(text.slice(start)) as { error?: { message?: unknown } };
      const next = parsed.error?.message;
      if (typeof next !== 'string' || next === text) return text;
      text = next.trim();
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The one place where the SDK's errors become JSON-RPC errors (CONVENTIONS: protocol edges translate errors in
 * one place): missing credentials → `-32000` (authentication required); unknown sessions → `-32002`; bad
 * parameters → `-32602`; a session that is busy or open elsewhere → `-32600`; model API errors → gemini-cli's
 * codes (the HTTP status, 429 with its rate-limit text, else 500); anything else → `-32603`.
 */
export function toRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof GeminiAgentError) {
    const data = { code: error.code };
    if (error.code === 'MISSING_CREDENTIALS' || error instanceof AuthenticationError) {
      return new RequestError(-32000, `Authentication required: ${error.message}`, data);
    }
    if (error.code === 'SESSION_NOT_FOUND') return new RequestError(-32002, error.message, data);
    if (INVALID_PARAMS_CODES.has(error.code)) return invalidParams(error.message, data);
    if (INVALID_STATE_CODES.has(error.code)) return invalidState(error.message, data);
    if (error instanceof ModelApiError) {
      if (error.status === 429) return new RequestError(429, RATE_LIMIT_MESSAGE, data);
      return new RequestError(error.status ?? 500, readableMessage(error.message), data);
    }
    return new RequestError(-32603, `Internal error: ${error.message}`, data);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new RequestError(-32603, `Internal error: ${message}`);
}
