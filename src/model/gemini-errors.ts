import { AbortError, GeminiAgentError } from '../errors.js';
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
    case 401:
      return 'The API key was rejected: check GEMINI_API_KEY (or apiKey).';
    case 403:
      return 'Permission denied: check that the API key or project may use this model and API.';
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

function isMalformedData(error: unknown): boolean {
  for (let e: unknown = error, i = 0; e instanceof Error && i < 6; e = e.cause, i++) {
    if (e instanceof SyntaxError || /exception parsing stream chunk/i.test(e.message)) return true;
  }
  return false;
}

/**
 * Translates an error of the `@google/genai` client (an `ApiError` with `status`, a fetch/undici network error,
 * a stream error chunk) into the SDK's typed errors: {@link AbortError} when the call was aborted, otherwise a
 * {@link ModelHttpError} (a `ModelApiError`) carrying `status`, `retryable`, the server's `Retry-After` (read
 * by the adapter's fetch wrapper, since the client's ApiError does not keep headers) and the JSON body.
 */
export function translateClientError(
  error: unknown,
  context: { model: string; signal?: AbortSignal; captured?: CapturedResponse; now?: number },
): GeminiAgentError {
  if (error instanceof GeminiAgentError) return error;
  if (context.signal?.aborted) return abortErrorFrom(context.signal);
  if (isAbort(error)) return new AbortError('The model call was aborted.', { cause: error });
  const now = context.now ?? Date.now();
  const body = findErrorBody(error);
  const info = classifyError(error, now);
  const captured = context.captured;
  const status = info.status ?? captured?.status;
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
  const head =
    status !== undefined
      ? `Gemini API error ${status}`
      : `Gemini API request failed${info.networkCode ? ` (${info.networkCode})` : ''}`;
  const retryable = classifyError(
    new ModelHttpError(raw, { status, retryAfterMs, body }, { cause: error }),
    now,
  ).retryable;
  return new ModelHttpError(
    `${head}: ${raw} ${
      status === undefined && isMalformedData(error)
        ? 'The API sent malformed data: try again; if it persists, check that the base URL points to a Gemini API.'
        : advice(status, context.model)
    }`,
    { status, retryable: status === undefined ? info.retryable : retryable, retryAfterMs, body },
    { cause: error },
  );
}
