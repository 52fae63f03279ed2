import type { AuthClient } from 'google-auth-library';
import { AbortError, GeminiAgentError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { abortErrorFrom, throwIfAborted } from '../../core/abort.js';
import { describeAuthFailure } from '../auth/auth-failure.js';
import { ModelHttpError, parseRetryAfter } from '../model-http-error.js';
import { classifyError, isAbort } from '../retry-classify.js';

type Env = Readonly<Record<string, string | undefined>>;

/** gemini-cli's Code Assist endpoint and API version. */
export const CODE_ASSIST_ENDPOINT = 'https://cloudcode-pa.googleapis.com';
/** See {@link CODE_ASSIST_ENDPOINT}. */
export const CODE_ASSIST_API_VERSION = 'v1internal';

/**
 * `<endpoint>/<version>` as gemini-cli builds it: `CODE_ASSIST_ENDPOINT` (default
 * `https://cloudcode-pa.googleapis.com`) and `CODE_ASSIST_API_VERSION` (default `v1internal`).
 */
export function codeAssistBaseUrl(env: Env = process.env): string {
  const endpoint = env['CODE_ASSIST_ENDPOINT'] ?? CODE_ASSIST_ENDPOINT;
  const version = env['CODE_ASSIST_API_VERSION'] || CODE_ASSIST_API_VERSION;
  return `${endpoint}/${version}`;
}

/** Options of {@link CodeAssistHttp}. */
export interface CodeAssistHttpOptions {
  env?: Env;
  /** Extra headers on every request (User-Agent, `GEMINI_CLI_CUSTOM_HEADERS`…). */
  headers?: Record<string, string>;
  logger?: Logger;
}

/**
 * The HTTP side of gemini-cli's `CodeAssistServer`: `POST <base>:<method>` with JSON, the streaming variant
 * with `?alt=sse`, and `GET <base>/<operation>`; the `Authorization` header comes from the google-auth-library
 * client (which refreshes the token when needed). A 401 gets one retry after a forced token refresh, as
 * `OAuth2Client.request` does. Failures become {@link ModelHttpError}s (status, `Retry-After`, JSON body) so the
 * SDK's retry policy can judge them; the request (with its token) is never part of an error.
 */
export class CodeAssistHttp {
  private readonly client: AuthClient;
  private readonly env: Env;
  private readonly headers: Record<string, string>;
  private readonly logger: Logger;

  constructor(client: AuthClient, options: CodeAssistHttpOptions = {}) {
    this.client = client;
    this.env = options.env ?? process.env;
    this.headers = options.headers ?? {};
    this.logger = options.logger ?? silentLogger;
  }

  /** `<base>:<method>`. */
  methodUrl(method: string): string {
    return `${codeAssistBaseUrl(this.env)}:${method}`;
  }

  /** POSTs `body` to `:<method>` and returns the parsed JSON answer. */
  async post<T>(method: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const response = await this.send(this.methodUrl(method), 'POST', body, signal);
    return (await readJson(response, method, signal)) as T;
  }

  /** GETs a long-running operation (`<base>/<name>`). */
  async getOperation<T>(name: string, signal?: AbortSignal): Promise<T> {
    const response = await this.send(
      `${codeAssistBaseUrl(this.env)}/${name}`,
      'GET',
      undefined,
      signal,
    );
    return (await readJson(response, 'getOperation', signal)) as T;
  }

  /**
   * POSTs to `:<method>?alt=sse` and yields each server-sent event's JSON, as gemini-cli reads them: `data:`
   * lines are joined until a blank line. A chunk that is not JSON is skipped with a warning (gemini-cli logs
   * and skips it too).
   */
  async postStream<T>(
    method: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<AsyncGenerator<T>> {
    const response = await this.send(`${this.methodUrl(method)}?alt=sse`, 'POST', body, signal);
    const logger = this.logger;
    const stream = response.body;
    return (async function* (): AsyncGenerator<T> {
      if (!stream) return;
      const decoder = new TextDecoder();
      let pending = '';
      let data: string[] = [];
      const flush = function* (): Generator<T> {
        if (data.length === 0) return;
        const chunk = data.join('\n');
        data = [];
        try {
          yield JSON.parse(chunk) as T;
        } catch {
          logger.warn('Code Assist stream: skipped a malformed JSON chunk.');
        }
      };
      const reader = stream.getReader();
      try {
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            throw transportError(error, method, signal);
          }
          pending += next.done ? decoder.decode() : decoder.decode(next.value, { stream: true });
          let index: number;
          while ((index = pending.search(/\r?\n/)) >= 0) {
            const line = pending.slice(0, index);
            pending = pending.slice(index + (pending[index] === '\r' ? 2 : 1));
            if (line.startsWith('data: ')) data.push(line.slice(6).trim());
            else if (line === '') yield* flush();
          }
          if (next.done) {
            if (pending.startsWith('data: ')) data.push(pending.slice(6).trim());
            yield* flush();
            return;
          }
        }
      } finally {
        reader.releaseLock();
        await stream.cancel().catch(() => undefined);
      }
    })();
  }

  private async send(
    url: string,
    method: 'GET' | 'POST',
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signal);
      const headers = new Headers({ 'Content-Type': 'application/json', ...this.headers });
      let auth: Headers;
      try {
        auth = await this.client.getRequestHeaders(url);
      } catch (error) {
        throw tokenError(error);
      }
      auth.forEach((value, key) => headers.set(key, value));
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        throw transportError(error, url, signal);
      }
      if (response.ok) return response;
      if (response.status === 401 && attempt === 1 && this.expireToken()) {
        await response.body?.cancel().catch(() => undefined);
        this.logger.debug('Code Assist API answered 401; refreshing the token and retrying once.');
        continue;
      }
      throw await httpError(response, method === 'GET' ? 'getOperation' : methodName(url));
    }
  }

  /**
   * Marks the cached access token as expired, so the next `getRequestHeaders` fetches a new one. Only for
   * clients that can get one: an `OAuth2Client` with a refresh token, or `Compute` (the metadata server).
   */
  private expireToken(): boolean {
    const client = this.client as unknown as {
      credentials?: { refresh_token?: unknown; expiry_date?: unknown };
      serviceAccountEmail?: unknown;
    };
    const credentials = client.credentials;
    if (!credentials) return false;
    const refreshable =
      typeof credentials.refresh_token === 'string' ||
      typeof client.serviceAccountEmail === 'string';
    if (refreshable) credentials.expiry_date = 1;
    return refreshable;
  }
}

function methodName(url: string): string {
  const m = /:([A-Za-z]+)(?:\?|$)/.exec(url);
  return m?.[1] ?? 'request';
}

async function readJson(
  response: Response,
  method: string,
  signal?: AbortSignal,
): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw transportError(error, method, signal);
  }
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelHttpError(
      `Code Assist API ${method} answered with malformed JSON. Check CODE_ASSIST_ENDPOINT, or try again later.`,
      { status: response.status, retryable: false },
    );
  }
}

const ADVICE: Record<number, string> = {
  400: 'The request was rejected as invalid: check the model name, the parameters and the tool schemas.',
  401: 'The Google credentials were rejected: sign in again with `gemini-agent login`.',
  403: 'Permission denied: check that the account (and GOOGLE_CLOUD_PROJECT, if set) may use Gemini Code Assist.',
  404: 'Not found: check the model name (and CODE_ASSIST_ENDPOINT, if set).',
  429: 'Rate limit or quota exceeded: wait and retry, or use another model or auth method.',
};

async function httpError(response: Response, method: string): Promise<ModelHttpError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  const apiMessage = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  const status = response.status;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  const advice =
    ADVICE[status] ?? (status >= 500 ? 'The Code Assist service failed: try again later.' : '');
  const detail =
    typeof apiMessage === 'string' ? apiMessage : response.statusText || 'request failed';
  const probe = new ModelHttpError(detail, { status, retryAfterMs, body });
  return new ModelHttpError(
    `Code Assist API error ${status} (${method}): ${detail}. ${advice}`.trim(),
    {
      status,
      retryable: classifyError(probe).retryable,
      retryAfterMs,
      body,
    },
  );
}

function transportError(error: unknown, what: string, signal?: AbortSignal): GeminiAgentError {
  if (error instanceof GeminiAgentError) return error;
  if (signal?.aborted) return abortErrorFrom(signal);
  if (isAbort(error)) return new AbortError('The Code Assist call was aborted.', { cause: error });
  const info = classifyError(error);
  const message = error instanceof Error ? error.message : String(error);
  const code = info.networkCode ? ` (${info.networkCode})` : '';
  return new ModelHttpError(
    `Code Assist API request failed${code}: ${message} (${what}). Check your network connection and ` +
      'CODE_ASSIST_ENDPOINT, if set.',
    { retryable: info.retryable },
    { cause: error },
  );
}

function tokenError(error: unknown): GeminiAgentError {
  if (error instanceof GeminiAgentError) return error;
  const failure = describeAuthFailure(error);
  return new ModelHttpError(
    `Could not get a Google access token: ${failure.message}. Sign in again with \`gemini-agent login\`.`,
    {
      status: failure.status === 401 || failure.status === 400 ? 401 : failure.status,
      retryable: false,
    },
  );
}
