import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { GeminiAgentError, ModelApiError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { abortableSleep, abortErrorFrom, throwIfAborted } from '../core/abort.js';
import type { ContentGenerator } from './content-generator.js';
import { describeFailure, type FailureInfo } from './failure-info.js';
import { ModelHttpError } from './model-http-error.js';
import { classifyError, isAbort } from './retry-classify.js';

/** What {@link RetryOptions.onRetry} receives before each backoff (the session turns it into a `retry` event). */
export interface RetryAttemptInfo extends FailureInfo {
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  /** The most attempts this call makes (connection failures may stop earlier, see `connectionBudgetMs`). */
  maxAttempts: number;
  /** How long the layer waits before the next attempt, in ms. */
  delayMs: number;
  /** The error of the failed attempt. */
  error: unknown;
}

/** Retry settings (`retry` option). Defaults match gemini-cli: 10 attempts, 5 s initial delay, 30 s cap. */
export interface RetryOptions {
  /** Total attempts including the first call (default 10; 1 disables retries). */
  maxAttempts?: number;
  /** Delay before the first retry, in ms (default 5000); doubles per retry with ±30 % jitter. */
  initialDelayMs?: number;
  /** Cap of the exponential delay, in ms (default 30000). A server-requested delay may exceed it. */
  maxDelayMs?: number;
  /**
   * Time budget for failures that got no HTTP answer at all (connection refused, DNS, TLS, reset before the
   * response), in ms: retrying stops once waiting again would pass it (default 30000). An unreachable API fails
   * within about this long instead of after all `maxAttempts`.
   */
  connectionBudgetMs?: number;
  /** Called before each backoff (for logging or UI). */
  onRetry?: (info: RetryAttemptInfo) => void;
  /** Sleep used for backoffs (tests inject one); must reject at once when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of randomness for jitter, in [0, 1) (default Math.random). */
  random?: () => number;
  /** Clock in ms since epoch, used to turn a `Retry-After` date into a delay (default Date.now). */
  now?: () => number;
  /** Logger for retry decisions (default silent). */
  logger?: Logger;
}

/** gemini-cli's defaults, plus the connection budget (ours). */
export const DEFAULT_RETRY = {
  maxAttempts: 10,
  initialDelayMs: 5000,
  maxDelayMs: 30_000,
  connectionBudgetMs: 30_000,
} as const;

/**
 * Runs `fn` until it succeeds, retrying errors that {@link classifyError} deems retryable (429, 499, 5xx,
 * network) with exponential backoff and jitter. A server delay hint (`Retry-After`, `RetryInfo`) is honoured:
 * the wait is at least that long (plus 0–20 % jitter). Failures without an HTTP answer (connection refused, DNS,
 * TLS) share the `connectionBudgetMs` budget: time spent in those attempts plus the waits after them. An abort
 * rejects at once with the SDK's `AbortError`, also during a backoff. After the last attempt the error is
 * rethrown as a {@link ModelApiError} naming the cause, the endpoint and the attempts; a non-retryable error is
 * rethrown unchanged.
 */
export async function retryWithBackoff<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_RETRY.maxAttempts);
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  const budgetMs = options.connectionBudgetMs ?? DEFAULT_RETRY.connectionBudgetMs;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const logger = options.logger ?? silentLogger;
  let current = options.initialDelayMs ?? DEFAULT_RETRY.initialDelayMs;
  let connectionSpentMs = 0;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal);
    const started = now();
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted) throw abortErrorFrom(signal);
      if (isAbort(error)) throw error;
      const info = classifyError(error, now());
      if (!info.retryable) throw error;
      const connection = info.status === undefined;
      if (connection) connectionSpentMs += Math.max(0, now() - started);
      let delayMs: number;
      if (info.serverDelayMs !== undefined) {
        delayMs = Math.round(Math.max(current, info.serverDelayMs) * (1 + 0.2 * random()));
      } else {
        delayMs = Math.max(0, Math.round(current * (1 + 0.3 * (2 * random() - 1))));
      }
      const overBudget = connection && connectionSpentMs + delayMs > budgetMs;
      if (attempt >= maxAttempts || overBudget) {
        throw finalError(error, info.status, attempt, overBudget ? connectionSpentMs : undefined);
      }
      if (connection) connectionSpentMs += delayMs;
      current = Math.min(maxDelayMs, current * 2);
      const failure = describeFailure(error);
      logger.debug('model call failed, retrying', { attempt, delayMs, ...failure });
      options.onRetry?.({
        attempt,
        maxAttempts,
        delayMs,
        error,
        ...failure,
      });
      await sleep(delayMs, signal);
    }
  }
}

function finalError(
  error: unknown,
  status: number | undefined,
  attempts: number,
  connectionSpentMs: number | undefined,
): ModelApiError {
  if (error instanceof ModelApiError && attempts === 1) return error;
  const message = error instanceof Error ? error.message : String(error);
  const failure = describeFailure(error);
  const code = status === undefined ? failure.code : undefined;
  const advice =
    connectionSpentMs !== undefined
      ? `Gave up after ${attempts} attempts in ${Math.round(connectionSpentMs / 1000)} s (retry.connectionBudgetMs): ` +
        'check the network connection, a proxy or firewall, and the base URL.'
      : `Gave up after ${attempts} attempts: the model API kept failing with a retryable error; try again ` +
        'later or raise retry.maxAttempts.';
  const copied = copyTransportDetails(error);
  return new ModelHttpError(
    `${message.replace(/\.\s*$/, '')}. ${advice}`,
    {
      ...copied,
      status,
      retryable: true,
      ...(failure.endpoint === undefined ? {} : { endpoint: failure.endpoint }),
      ...(code === undefined ? {} : { networkCode: code }),
    },
    { cause: error },
  );
}

function copyTransportDetails(error: unknown): { body?: unknown; retryAfterMs?: number } {
  if (!(error instanceof ModelHttpError)) return {};
  return {
    ...(error.body === undefined ? {} : { body: error.body }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  };
}

/**
 * Wraps a {@link ContentGenerator} with {@link retryWithBackoff}.
 *
 * Streams: the connection phase **and the first chunk** are retried; once a chunk has been yielded, a failure
 * surfaces from the iterator as is (a {@link ModelApiError} with `retryable` set, from the Gemini adapter).
 * Re-sending then is the loop's decision, as in gemini-cli where GeminiChat retries mid-stream failures and
 * emits a `retry` event so consumers drop the partial output.
 */
export class RetryingContentGenerator implements ContentGenerator {
  private readonly inner: ContentGenerator;
  private readonly options: RetryOptions;

  constructor(inner: ContentGenerator, options: RetryOptions = {}) {
    this.inner = inner;
    this.options = options;
    if (inner.embedContent) {
      const embed = inner.embedContent.bind(inner);
      this.embedContent = (params: EmbedContentParameters, signal?: AbortSignal) =>
        retryWithBackoff(() => embed(params, signal), this.options, signal);
    }
  }

  /** The wrapped generator's Code Assist tier, if any. */
  get userTier(): string | undefined {
    return this.inner.userTier;
  }

  /** The wrapped generator's tier name, if any. */
  get userTierName(): string | undefined {
    return this.inner.userTierName;
  }

  /** Present when the wrapped generator supports embeddings. */
  readonly embedContent?: (
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ) => Promise<EmbedContentResponse>;

  generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    return retryWithBackoff(() => this.inner.generateContent(params, signal), this.options, signal);
  }

  countTokens(params: CountTokensParameters, signal?: AbortSignal): Promise<CountTokensResponse> {
    return retryWithBackoff(() => this.inner.countTokens(params, signal), this.options, signal);
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    const opened = await retryWithBackoff(
      async () => {
        const stream = await this.inner.generateContentStream(params, signal);
        const iterator = stream[Symbol.asyncIterator]();
        try {
          const first = await iterator.next();
          return { iterator, first };
        } catch (error) {
          await iterator.return?.().catch(() => undefined);
          throw error;
        }
      },
      this.options,
      signal,
    );
    return continueStream(opened.iterator, opened.first);
  }
}

async function* continueStream(
  iterator: AsyncIterator<GenerateContentResponse>,
  first: IteratorResult<GenerateContentResponse>,
): AsyncGenerator<GenerateContentResponse> {
  let done = first.done === true;
  try {
    if (done) return;
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } catch (error) {
    done = true;
    if (error instanceof GeminiAgentError || isAbort(error)) throw error;
    const info = classifyError(error);
    throw new ModelApiError(
      `The model stream failed after content was received: ${error instanceof Error ? error.message : String(error)}`,
      { status: info.status, retryable: info.retryable },
      { cause: error },
    );
  } finally {
    if (!done) await iterator.return?.().catch(() => undefined);
  }
}
