import { GeminiAgentError, InvalidStreamError } from '../errors.js';

/** What a failed model call says about itself: enough for a `retry` event and a one-line message. */
export interface FailureInfo {
  /** The cause in a few words: `HTTP 503`, `ECONNREFUSED`, `NO_FINISH_REASON`. */
  reason: string;
  status?: number;
  /** Network error code, or the invalid-stream type. */
  code?: string;
  /** The API endpoint, when the error carries it. */
  endpoint?: string;
  message: string;
}

function* causeChain(error: unknown, depth = 6): Generator<unknown> {
  let current: unknown = error;
  for (let i = 0; i < depth && current !== undefined && current !== null; i++) {
    yield current;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
}

/** The first string `code` in the cause chain (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`, `UND_ERR_SOCKET`). */
export function errorCodeOf(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    // The SDK's own errors carry SDK codes (MODEL_API, …), not transport ones.
    if (typeof e !== 'object' || e === null || e instanceof GeminiAgentError) continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  }
  return undefined;
}

/** The HTTP status in the cause chain, if any. */
function statusOf(error: unknown): number | undefined {
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const s = (e as { status?: unknown }).status;
    if (typeof s === 'number' && s >= 100 && s < 600) return s;
  }
  return undefined;
}

/** The endpoint a model error names (`ModelHttpError.endpoint`), if any. */
export function endpointOf(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const endpoint = (e as { endpoint?: unknown }).endpoint;
    if (typeof endpoint === 'string') return endpoint;
  }
  return undefined;
}

/** Describes a failed model call (HTTP status, network code or invalid-stream type, endpoint, message). */
export function describeFailure(error: unknown): FailureInfo {
  const message = error instanceof Error ? error.message : String(error);
  const endpoint = endpointOf(error);
  const where = endpoint === undefined ? {} : { endpoint };
  if (error instanceof InvalidStreamError) {
    return { reason: error.type, code: error.type, message, ...where };
  }
  const status = statusOf(error);
  if (status !== undefined) return { reason: `HTTP ${status}`, status, message, ...where };
  const code = errorCodeOf(error);
  if (code !== undefined) return { reason: code, code, message, ...where };
  return { reason: 'network error', message, ...where };
}
