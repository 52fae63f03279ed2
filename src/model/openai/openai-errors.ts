import { AbortError, GeminiAgentError } from '../../errors.js';
import { abortErrorFrom } from '../../core/abort.js';
import { ModelHttpError, parseRetryAfter } from '../model-http-error.js';
import { classifyError, isAbort } from '../retry-classify.js';

function advice(
  status: number | undefined,
  provider: string,
  model: string,
  keyHint: string,
): string {
  switch (status) {
    case 400:
      return 'The request was rejected as invalid: check the model name, the parameters and the tool schemas.';
    case 401:
      return `The API key was rejected: check ${keyHint}.`;
    case 403:
      return 'Permission denied: check that the key may use this model.';
    case 404:
      return `Model "${model}" (or the endpoint) was not found on the ${provider} server: check the model name and the base URL.`;
    case 429:
      return 'Rate limit or quota exceeded: wait and retry, or raise your quota.';
    default:
      if (status !== undefined && status >= 500)
        return `The ${provider} server failed: try again later.`;
      return 'Check your network connection, the base URL and that the server is running.';
  }
}

function headerOf(headers: unknown, name: string): string | null {
  if (headers && typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name);
  return null;
}

/**
 * Translates an error of the `openai` client into the SDK's typed errors: {@link AbortError} for an abort,
 * otherwise a {@link ModelHttpError} with the HTTP status, `retryable` (429, 5xx, connection failures and
 * timeouts), the server's delay (`retry-after-ms` / `retry-after`) and the JSON error body — the same shape the
 * Gemini adapter produces, so the SDK's retry policy treats every provider alike.
 */
export function translateOpenAIError(
  error: unknown,
  context: { provider: string; model: string; keyHint: string; signal?: AbortSignal },
): GeminiAgentError {
  if (error instanceof GeminiAgentError) return error;
  if (context.signal?.aborted) return abortErrorFrom(context.signal);
  const name = (error as { name?: unknown } | null)?.name;
  if (isAbort(error) || name === 'APIUserAbortError') {
    return new AbortError('The model call was aborted.', { cause: error });
  }
  const e = error as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  const ms = headerOf(e.headers, 'retry-after-ms');
  const retryAfterMs =
    ms !== null && Number.isFinite(Number(ms)) && ms.trim() !== ''
      ? Number(ms)
      : parseRetryAfter(headerOf(e.headers, 'retry-after'));
  const body = e.error === undefined ? undefined : { error: e.error };
  const detail =
    typeof (e.error as { message?: unknown } | undefined)?.message === 'string'
      ? String((e.error as { message: string }).message)
      : typeof e.message === 'string'
        ? e.message
        : String(error);
  const connection = name === 'APIConnectionError' || name === 'APIConnectionTimeoutError';
  const head =
    status !== undefined
      ? `${context.provider} API error ${status}`
      : `${context.provider} API request failed${name === 'APIConnectionTimeoutError' ? ' (timeout)' : ''}`;
  const probe = new ModelHttpError(detail, { status, retryAfterMs, body }, { cause: error });
  const retryable =
    status === undefined
      ? connection || classifyError(error).retryable
      : classifyError(probe).retryable;
  return new ModelHttpError(
    `${head}: ${detail} ${advice(status, context.provider, context.model, context.keyHint)}`,
    { status, retryable, retryAfterMs, body },
    { cause: error },
  );
}
