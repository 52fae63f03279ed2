import { AbortError, AuthenticationError, GeminiAgentError } from '../errors.js';
import { errorCodeOf } from './failure-info.js';
import { abortErrorFrom } from '../core/abort.js';
import { ModelHttpError, parseRetryAfter } from './model-http-error.js';
import { classifyError, findErrorBody, isAbort } from './retry-classify.js';

/** What the adapter's fetch wrapper saw of the last non-OK HTTP answer. */
export interface CapturedResponse {
  status: number;
  retryAfter: string | null;
}

function advice(status: number | undefined, model: string): string {
  switch (status) {
    case 400:
      return 'The request was rejected as invalid: check the model name, the parameters and the tool schemas.';
    case 404:
      return `Model "${model}" was not found: check the model name.`;
    case 429:
      return 'Rate limit or quota exceeded: wait and retry, or raise your quota.';
    default:
      if (status !== undefined && status >= 500)
        return 'The Gemini service failed: try again later.';
      return 'Check your network connection and the base URL.';
  }
}

/** What a transport error code means, for the message of a failure that got no HTTP answer. */
function connectionCause(code: string | undefined, endpoint: string | undefined): string {
  const at = endpoint === undefined ? 'the Gemini API' : endpoint;
  switch (code) {
    case 'ECONNREFUSED':
      return `the connection to ${at} was refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host of ${at} could not be resolved (DNS)`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `connecting to ${at} timed out`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return `the connection to ${at} was reset`;
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `the network of ${at} is unreachable`;
    default:
      if (code !== undefined && /CERT|SSL|TLS|EPROTO/.test(code))
        return `the TLS connection to ${at} failed (${code})`;
      return `the request to ${at} failed`;
  }
}

/** ErrorInfo reasons and messages of a 400 that is really a bad API key. */
function isInvalidKey(body: unknown, raw: string): boolean {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (Array.isArray(details)) {
    for (const d of details as Array<{ reason?: unknown }>) {
      if (d?.reason === 'API_KEY_INVALID' || d?.reason === 'API_KEY_EXPIRED') return true;
    }
  }
  return /API key (not valid|expired|invalid)/i.test(raw);
}

function authError(
  status: number,
  raw: string,
  endpoint: string | undefined,
  cause: unknown,
): AuthenticationError {
  const at = endpoint === undefined ? '' : ` (${endpoint})`;
  const what =
    status === 403
      ? 'The Gemini API refused the request as not permitted'
      : 'The Gemini API rejected the API key';
  const fix =
    status === 403
      ? 'Check GEMINI_API_KEY (or the apiKey option): the key, or its project, must be allowed to use this model and the Generative Language API; with Vertex AI, check GOOGLE_API_KEY or your Application Default Credentials.'
      : 'Check GEMINI_API_KEY (or the apiKey option; GOOGLE_API_KEY with Vertex AI): it is missing a character, expired or revoked. Get a key at https://aistudio.google.com/apikey.';
  return new AuthenticationError(
    `${what}${at}: HTTP ${status}: ${raw} ${fix}`,
    { status },
    { cause },
  );
}

function isMalformedData(error: unknown): boolean {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 6; e = e.cause, i++) {
    if (e instanceof SyntaxError || /exception parsing stream chunk/i.test(e.message)) return true;
  }
  return false;
}

/** The SDK error somewhere in the cause chain (our own fetch wrapper's, e.g. the response cap). */
function sdkErrorIn(error: unknown): GeminiAgentError | undefined {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 6; e = e.cause, i++) {
    if (e instanceof GeminiAgentError) return e;
  }
  return undefined;
}

/**
 * Translates an error of the `@google/genai` client (an `ApiError` with `status`, a fetch/undici network error,
 * a stream error chunk) into the SDK's typed errors: {@link AbortError} when the call was aborted; an
 * {@link AuthenticationError} for 401, 403 and a 400 whose key is invalid; otherwise a {@link ModelHttpError} (a
 * `ModelApiError`) carrying `status`, `retryable`, the endpoint, the transport code, the server's `Retry-After`
 * (read by the adapter's fetch wrapper, since the client's ApiError does not keep headers) and the JSON body.
 */
export function translateClientError(
  error: unknown,
  context: {
    model: string;
    signal?: AbortSignal;
    captured?: CapturedResponse;
    now?: number;
    endpoint?: string;
  },
): GeminiAgentError {
  const own = sdkErrorIn(error);
  if (own !== undefined) return own;
  if (context.signal?.aborted) return abortErrorFrom(context.signal);
  if (isAbort(error)) return new AbortError('The model call was aborted.', { cause: error });
  const now = context.now ?? Date.now();
  const body = findErrorBody(error);
  const info = classifyError(error, now);
  const captured = context.captured;
  const status = info.status ?? captured?.status;
  const endpoint = context.endpoint;
  const retryAfterMs =
    captured !== undefined && captured.status === status
      ? parseRetryAfter(captured.retryAfter, now)
      : undefined;
  const apiMessage =
    typeof body === 'object' && body !== null
      ? (body as { error?: { message?: unknown } }).error?.message
      : undefined;
  const raw =
    typeof apiMessage === 'string'
      ? apiMessage
      : error instanceof Error
        ? error.message
        : String(error);
  if (status === 401 || status === 403 || (status === 400 && isInvalidKey(body, raw))) {
    return authError(status, raw, endpoint, error);
  }
  const networkCode = status === undefined ? errorCodeOf(error) : undefined;
  if (status === undefined) {
    const malformed = isMalformedData(error);
    const head = malformed
      ? `Gemini API sent malformed data${endpoint === undefined ? '' : ` (${endpoint})`}`
      : `Cannot reach the Gemini API: ${connectionCause(networkCode, endpoint)}`;
    const tail = malformed
      ? 'Try again; if it persists, check that the base URL points to a Gemini API.'
      : 'Check your network connection, proxy and the base URL.';
    return new ModelHttpError(
      `${head}${networkCode !== undefined ? ` (${networkCode})` : ''}: ${raw}. ${tail}`,
      {
        retryable: info.retryable,
        body,
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(networkCode === undefined ? {} : { networkCode }),
      },
      { cause: error },
    );
  }
  const retryable = classifyError(
    new ModelHttpError(raw, { status, retryAfterMs, body }, { cause: error }),
    now,
  ).retryable;
  return new ModelHttpError(
    `Gemini API error ${status}: ${raw} ${advice(status, context.model)}`,
    {
      status,
      retryable,
      retryAfterMs,
      body,
      ...(endpoint === undefined ? {} : { endpoint }),
    },
    { cause: error },
  );
}
