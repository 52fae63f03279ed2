import { ModelApiError } from '../errors.js';

/**
 * A {@link ModelApiError} raised from an HTTP answer of the Gemini API, with what the retry layer needs: the
 * server's `Retry-After` (already converted to milliseconds) and the parsed JSON error body (which may hold a
 * `google.rpc.RetryInfo`). Thrown by the Gemini adapter; `instanceof ModelApiError` holds.
 */
export class ModelHttpError extends ModelApiError {
  /** Delay requested by the `Retry-After` response header, in ms (undefined when absent or unparsable). */
  readonly retryAfterMs: number | undefined;
  /** The parsed JSON error body (`{error: {code, message, status, details}}`), when there was one. */
  readonly body: unknown;
  /** The API endpoint the request went to (base URL), when known. */
  readonly endpoint: string | undefined;
  /** The transport error code when no HTTP answer came (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, …). */
  readonly networkCode: string | undefined;

  constructor(
    message: string,
    details: {
      status?: number;
      retryable?: boolean;
      retryAfterMs?: number;
      body?: unknown;
      endpoint?: string;
      networkCode?: string;
    },
    options: { cause?: unknown } = {},
  ) {
    super(message, { status: details.status, retryable: details.retryable }, options);
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
    this.endpoint = details.endpoint;
    this.networkCode = details.networkCode;
  }
}

/**
 * Parses a `Retry-After` header value (delay in seconds, or an HTTP date) into milliseconds from `now`.
 * Returns undefined for a missing or unparsable value; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
