import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, InternalError, ModelApiError } from '../errors.js';
import { FakeGeminiServer } from '../testing/fake-gemini-server.js';
import { ScriptedModel, textTurn } from '../testing/scripted-model.js';
import type { ContentGenerator } from './content-generator.js';
import { createContentGenerator } from './create-content-generator.js';
import { classifyError } from './retry-classify.js';
import { retryWithBackoff, type RetryAttemptInfo, type RetryOptions } from './retry.js';

async function collect(stream: AsyncIterable<GenerateContentResponse>): Promise<string[]> {
  const out: string[] = [];
  for await (const c of stream) out.push(c.candidates?.[0]?.content?.parts?.[0]?.text ?? '');
  return out;
}

let server: FakeGeminiServer;
beforeEach(() => {
  server = new FakeGeminiServer();
});
afterEach(async () => {
  await server.close();
});

async function generator(retry: RetryOptions): Promise<ContentGenerator> {
  const baseUrl = await server.start();
  return createContentGenerator({
    env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: baseUrl },
    retry,
  });
}
const req = { model: 'gemini-2.5-pro', contents: 'hi' };

describe('retries through the real client and FakeGeminiServer', () => {
  it('429 with Retry-After: 1 waits at least 1 s, then succeeds', async () => {
    server.enqueue({ status: 429, headers: { 'Retry-After': '1' } }, textTurn('ok'));
    const retries: RetryAttemptInfo[] = [];
    const gen = await generator({ initialDelayMs: 1, onRetry: (i) => retries.push(i) });
    const started = Date.now();
    const chunks = await collect(await gen.generateContentStream(req));
    const elapsed = Date.now() - started;
    expect(chunks).toEqual(['ok']);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(server.requests).toHaveLength(2);
  });

  it('503, 503, 200 succeeds', async () => {
    server.enqueue({ status: 503 }, { status: 503 }, textTurn('third time'));
    const gen = await generator({ initialDelayMs: 1, maxDelayMs: 5 });
    expect(await collect(await gen.generateContentStream(req))).toEqual(['third time']);
    expect(server.requests).toHaveLength(3);
    server.assertComplete();
  });

  it('generateContent is retried too (500 then 200)', async () => {
    server.enqueue({ status: 500 }, textTurn('unary'));
    const gen = await generator({ initialDelayMs: 1 });
    const r = await gen.generateContent(req);
    expect(r.candidates?.[0]?.content?.parts?.[0]?.text).toBe('unary');
  });

  it('400 is not retried and surfaces a typed error with the status', async () => {
    server.enqueue({ status: 400 }, textTurn('never'));
    const gen = await generator({ initialDelayMs: 1 });
    const err = (await gen.generateContentStream(req).catch((e: unknown) => e)) as ModelApiError;
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('MODEL_API');
    expect(server.requests).toHaveLength(1);
  });

  it.each([401, 403, 404])('%i is not retried', async (status) => {
    server.enqueue({ status });
    const gen = await generator({ initialDelayMs: 1 });
    const err = (await gen.generateContent(req).catch((e: unknown) => e)) as ModelApiError;
    expect(err.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it('a reset before the first chunk is retried', async () => {
    server.enqueue({ chunks: textTurn('lost'), resetAfterChunks: 0 }, textTurn('after reset'));
    const gen = await generator({ initialDelayMs: 1 });
    expect(await collect(await gen.generateContentStream(req))).toEqual(['after reset']);
    expect(server.requests).toHaveLength(2);
  });

  it('a reset before any answer (network error) is retried', async () => {
    server.enqueue({ resetBeforeResponse: true }, textTurn('reconnected'));
    const gen = await generator({ initialDelayMs: 1 });
    expect(await collect(await gen.generateContentStream(req))).toEqual(['reconnected']);
  });

  it('a failure after the first chunk surfaces (not retried here)', async () => {
    server.enqueue(
      { chunks: [...textTurn('partial'), ...textTurn('rest')], resetAfterChunks: 1 },
      textTurn('unused'),
    );
    const gen = await generator({ initialDelayMs: 1 });
    const seen: string[] = [];
    const stream = await gen.generateContentStream(req);
    const err = await (async () => {
      for await (const c of stream) seen.push(c.candidates?.[0]?.content?.parts?.[0]?.text ?? '');
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['partial']);
    expect(err).toBeInstanceOf(ModelApiError);
    expect((err as ModelApiError).retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with a ModelApiError carrying the status', async () => {
    server.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
    const gen = await generator({ initialDelayMs: 1, maxAttempts: 3 });
    const err = (await gen.generateContent(req).catch((e: unknown) => e)) as ModelApiError;
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err.status).toBe(503);
    expect(err.message).toContain('Gave up after 3 attempts');
    expect(server.requests).toHaveLength(3);
  });

  it('honours google.rpc.RetryInfo retryDelay from the error body', async () => {
    server.enqueue(
      {
        status: 429,
        body: {
          error: {
            code: 429,
            message: 'quota',
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '42s' }],
          },
        },
      },
      textTurn('ok'),
    );
    const slept: number[] = [];
    const gen = await generator({ initialDelayMs: 1, sleep: async (ms) => void slept.push(ms) });
    expect(await collect(await gen.generateContentStream(req))).toEqual(['ok']);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThanOrEqual(42_000);
    expect(slept[0]).toBeLessThanOrEqual(42_000 * 1.2);
  });

  it('an abort during a long backoff rejects at once with AbortError', async () => {
    server.enqueue({ status: 503 }, textTurn('never'));
    const ac = new AbortController();
    const gen = await generator({
      initialDelayMs: 60_000,
      onRetry: () => setTimeout(() => ac.abort(), 5),
    });
    const pending = gen.generateContentStream(req, ac.signal);
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), 2_000).unref(),
    );
    const outcome = await Promise.race([
      pending.then(
        () => 'resolved',
        (e: unknown) => e,
      ),
      timeout,
    ]);
    expect(outcome).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('retryWithBackoff', () => {
  it('backs off exponentially with jitter, capped by maxDelayMs', async () => {
    const slept: number[] = [];
    let calls = 0;
    const result = await retryWithBackoff(
      async () => {
        if (++calls < 5) throw Object.assign(new Error('unavailable'), { status: 503 });
        return 'done';
      },
      {
        initialDelayMs: 100,
        maxDelayMs: 300,
        random: () => 0.5,
        sleep: async (ms) => void slept.push(ms),
      },
    );
    expect(result).toBe('done');
    expect(slept).toEqual([100, 200, 300, 300]);
  });

  it('connection failures share connectionBudgetMs (attempt time and waits); HTTP errors do not', async () => {
    const slept: number[] = [];
    let clock = 0;
    let calls = 0;
    const refused = () =>
      Object.assign(new TypeError('fetch failed'), {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      });
    const error = await retryWithBackoff(
      async () => {
        calls++;
        clock += 1000; // each attempt takes 1 s to fail
        throw refused();
      },
      {
        initialDelayMs: 1000,
        connectionBudgetMs: 8000,
        random: () => 0.5,
        now: () => clock,
        sleep: async (ms) => {
          slept.push(ms);
          clock += ms;
        },
      },
    ).catch((e: unknown) => e);
    // 1 s + 1 s wait + 1 s + 2 s wait + 1 s = 6 s; the next wait (4 s) would pass 8 s.
    expect(slept).toEqual([1000, 2000]);
    expect(calls).toBe(3);
    expect((error as Error).message).toContain('Gave up after 3 attempts in 6 s');
    let httpCalls = 0;
    await retryWithBackoff(
      async () => {
        if (++httpCalls < 6) throw Object.assign(new Error('unavailable'), { status: 503 });
      },
      { initialDelayMs: 5000, connectionBudgetMs: 1, sleep: async () => undefined },
    );
    expect(httpCalls).toBe(6);
  });

  it('parses a Retry-After HTTP date against the injected clock', async () => {
    const slept: number[] = [];
    const now = Date.parse('2025-01-01T00:00:00Z');
    let calls = 0;
    await retryWithBackoff(
      async () => {
        if (++calls === 1) {
          throw Object.assign(new Error('slow down'), {
            status: 429,
            headers: { 'Retry-After': 'Wed, 01 Jan 2025 00:00:03 GMT' },
          });
        }
        return 1;
      },
      {
        initialDelayMs: 10,
        random: () => 0,
        now: () => now,
        sleep: async (ms) => void slept.push(ms),
      },
    );
    expect(slept).toEqual([3000]);
  });

  it('does not retry SDK errors such as a ScriptedModel running out of turns', async () => {
    const model = new ScriptedModel([]);
    const gen = await createContentGenerator({
      contentGenerator: model,
      retry: { initialDelayMs: 1 },
    });
    await expect(gen.generateContentStream(req)).rejects.toBeInstanceOf(InternalError);
    expect(model.requests).toHaveLength(1);
  });
});

describe('classifyError', () => {
  it('finds network codes through the cause chain', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const err = new TypeError('terminated', { cause: socket });
    expect(classifyError(new Error('outer', { cause: err }))).toMatchObject({
      retryable: true,
      networkCode: 'UND_ERR_SOCKET',
    });
    for (const code of [
      'ECONNRESET',
      'ETIMEDOUT',
      'ECONNREFUSED',
      'EPIPE',
      'ENOTFOUND',
      'EAI_AGAIN',
    ]) {
      expect(
        classifyError(new Error('x', { cause: Object.assign(new Error(code), { code }) }))
          .retryable,
      ).toBe(true);
    }
    expect(classifyError(new TypeError('fetch failed')).retryable).toBe(true);
  });

  it('retries 429, 499 and 5xx only', () => {
    const withStatus = (status: number) =>
      classifyError(Object.assign(new Error('e'), { status })).retryable;
    expect([429, 499, 500, 502, 503, 504].map(withStatus)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([400, 401, 403, 404, 409, 422].map(withStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(classifyError(new Error('plain bug')).retryable).toBe(false);
  });

  it('treats daily quota and huge server delays as terminal', () => {
    const daily = Object.assign(new Error('q'), {
      status: 429,
      body: {
        error: {
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }],
            },
          ],
        },
      },
    });
    expect(classifyError(daily).retryable).toBe(false);
    const huge = Object.assign(new Error('q'), { status: 429, retryAfterMs: 3_600_000 });
    expect(classifyError(huge).retryable).toBe(false);
  });
});
