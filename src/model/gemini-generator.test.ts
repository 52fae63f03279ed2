import { getEventListeners } from 'node:events';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, MissingCredentialsError, ModelApiError } from '../errors.js';
import { FakeGeminiServer } from '../testing/fake-gemini-server.js';
import { callTurn, textTurn } from '../testing/scripted-model.js';
import { GeminiContentGenerator } from './gemini-generator.js';
import type { ModelHttpError } from './model-http-error.js';

async function collect(
  stream: AsyncIterable<GenerateContentResponse>,
): Promise<GenerateContentResponse[]> {
  const out: GenerateContentResponse[] = [];
  for await (const c of stream) out.push(c);
  return out;
}
const texts = (chunks: GenerateContentResponse[]) =>
  chunks.map((c) => c.candidates?.[0]?.content?.parts?.[0]?.text);

let server: FakeGeminiServer;
beforeEach(() => {
  server = new FakeGeminiServer();
});
afterEach(async () => {
  await server.close();
});

describe('GeminiContentGenerator against FakeGeminiServer (real @google/genai client)', () => {
  it('streams a scripted answer reached through GOOGLE_GEMINI_BASE_URL', async () => {
    server.enqueue([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] } }] },
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: ' world' }] }, finishReason: 'STOP' },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
      },
    ] as unknown as GenerateContentResponse[]);
    const baseUrl = await server.start();
    const gen = new GeminiContentGenerator({
      env: { GEMINI_API_KEY: 'test-key-123', GOOGLE_GEMINI_BASE_URL: baseUrl },
    });
    const stream = await gen.generateContentStream({
      model: 'gemini-2.0-flash',
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      config: { systemInstruction: 'Be brief.', temperature: 0 },
    });
    const chunks = await collect(stream);
    expect(texts(chunks)).toEqual(['Hello', ' world']);
    expect(chunks[1]?.usageMetadata?.totalTokenCount).toBe(5);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0]!;
    expect(req.method).toBe('generateContentStream');
    expect(req.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(req.model).toBe('gemini-2.0-flash'); // sent exactly as given, never rewritten
    expect(req.headers['x-goog-api-key']).toBe('test-key-123');
    expect(req.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0 },
    });
    server.assertComplete();
  });

  it('reads the base URL from process.env like gemini-cli (explicit env absent)', async () => {
    server.enqueue(textTurn('from env'));
    const baseUrl = await server.start();
    const saved = {
      key: process.env['GEMINI_API_KEY'],
      url: process.env['GOOGLE_GEMINI_BASE_URL'],
    };
    process.env['GEMINI_API_KEY'] = 'env-key';
    process.env['GOOGLE_GEMINI_BASE_URL'] = baseUrl;
    try {
      const gen = new GeminiContentGenerator();
      const r = await gen.generateContent({ model: 'gemini-2.5-pro', contents: 'hi' });
      expect(r.candidates?.[0]?.content?.parts?.[0]?.text).toBe('from env');
      expect(server.requests[0]?.headers['x-goog-api-key']).toBe('env-key');
      expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    } finally {
      restore('GEMINI_API_KEY', saved.key);
      restore('GOOGLE_GEMINI_BASE_URL', saved.url);
    }
  });

  it('explicit apiKey and baseUrl beat the environment; auto resolves as gemini-cli resolves it', async () => {
    server.enqueue(callTurn({ name: 'add', args: { a: 1, b: 2 } }));
    const baseUrl = await server.start();
    const gen = new GeminiContentGenerator({
      apiKey: 'explicit',
      baseUrl,
      env: { GEMINI_API_KEY: 'from-env', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1' },
    });
    const chunks = await collect(await gen.generateContentStream({ model: 'auto', contents: 'x' }));
    expect(chunks[0]?.candidates?.[0]?.content?.parts?.[0]?.functionCall).toEqual({
      name: 'add',
      args: { a: 1, b: 2 },
    });
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('explicit');
    expect(server.requests[0]?.model).toBe('gemini-3.1-pro-preview');
  });

  it('countTokens goes to :countTokens', async () => {
    server.enqueue({ method: 'countTokens', countTokens: { totalTokens: 77 } });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const r = await gen.countTokens({ model: 'gemini-2.5-flash', contents: 'count me' });
    expect(r.totalTokens).toBe(77);
    expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
  });

  it('translates an HTTP error into ModelHttpError with status, Retry-After and body', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '7' } });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const err = await gen.generateContentStream({ model: 'm', contents: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ModelApiError);
    const e = err as ModelHttpError;
    expect(e.status).toBe(429);
    expect(e.retryable).toBe(true);
    expect(e.retryAfterMs).toBe(7000);
    expect(e.message).toContain('429');
    expect(e.body).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });

  it('400 is not retryable and says what to do', async () => {
    server.enqueue({
      status: 400,
      body: { error: { code: 400, message: 'bad schema', status: 'INVALID_ARGUMENT' } },
    });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const err = (await gen
      .generateContent({ model: 'm', contents: 'x' })
      .catch((e: unknown) => e)) as ModelApiError;
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err.status).toBe(400);
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('bad schema');
    expect(err.message).toContain('check the model name');
  });

  it('a connection reset is a retryable ModelApiError without status', async () => {
    server.enqueue({ resetBeforeResponse: true });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const err = (await gen
      .generateContent({ model: 'm', contents: 'x' })
      .catch((e: unknown) => e)) as ModelApiError;
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err.status).toBeUndefined();
    expect(err.retryable).toBe(true);
  });

  it('an abort during a slow stream rejects with AbortError', async () => {
    server.enqueue({ chunks: [...textTurn('a'), ...textTurn('b')], chunkDelayMs: 10_000 });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const ac = new AbortController();
    const pending = gen
      .generateContentStream({ model: 'm', contents: 'x' }, ac.signal)
      .then(collect);
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
  });

  it('30 calls with one long-lived signal leave no listener on it and print no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 30; i++) server.enqueue(textTurn(`answer ${i}`));
      const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
      const ac = new AbortController();
      for (let i = 0; i < 30; i++) {
        if (i % 2 === 0) {
          const chunks = await collect(
            await gen.generateContentStream({ model: 'm', contents: `q${i}` }, ac.signal),
          );
          expect(texts(chunks)).toEqual([`answer ${i}`]);
        } else {
          const r = await gen.generateContent({ model: 'm', contents: `q${i}` }, ac.signal);
          expect(r.candidates?.[0]?.content?.parts?.[0]?.text).toBe(`answer ${i}`);
        }
      }
      expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
      // Warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
      server.assertComplete();
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a stream left early unlinks from the signal; an abort still reaches a call in flight', async () => {
    server.enqueue([...textTurn('a'), ...textTurn('b')]);
    server.enqueue({ chunks: textTurn('slow'), chunkDelayMs: 10_000 });
    const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await server.start() });
    const ac = new AbortController();
    for await (const _chunk of await gen.generateContentStream(
      { model: 'm', contents: 'x' },
      ac.signal,
    ))
      break;
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    const pending = gen.generateContent({ model: 'm', contents: 'y' }, ac.signal);
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });

  it('no credentials → MissingCredentialsError telling what to set', () => {
    expect(() => new GeminiContentGenerator({ env: {} })).toThrow(MissingCredentialsError);
    expect(() => new GeminiContentGenerator({ env: {} })).toThrow(
      'No Gemini credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION), sign in with `gemini-agent login` (Login with Google), set GOOGLE_APPLICATION_CREDENTIALS, or pass fakeResponses.',
    );
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

describe('malformed SSE data', () => {
  it('surfaces a non-retryable ModelApiError saying the data was malformed', async () => {
    const srv = new FakeGeminiServer({
      turns: [{ chunks: textTurn('fine'), malformed: { afterChunks: 1 } }],
    });
    try {
      const gen = new GeminiContentGenerator({ apiKey: 'k', baseUrl: await srv.start() });
      const seen: GenerateContentResponse[] = [];
      const err = await (async () => {
        for await (const c of await gen.generateContentStream({ model: 'm', contents: 'x' }))
          seen.push(c);
      })().catch((e: unknown) => e);
      expect(texts(seen)).toEqual(['fine']);
      expect(err).toBeInstanceOf(ModelApiError);
      expect((err as ModelApiError).message).toContain('malformed data');
      expect((err as ModelApiError).retryable).toBe(false);
    } finally {
      await srv.close();
    }
  });
});
