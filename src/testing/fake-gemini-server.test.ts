import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from './fake-gemini-server.js';
import { textTurn } from './scripted-model.js';

const FIXTURES = resolve(process.cwd(), 'test/fixtures/gemini-cli-sdk-test-data');
let server: FakeGeminiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function sseData(text: string): unknown[] {
  return text
    .split('\r\n\r\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => JSON.parse(e.slice(6)) as unknown);
}

describe('FakeGeminiServer (raw HTTP)', () => {
  it('serves a replay file as SSE and records the request', async () => {
    server = new FakeGeminiServer({ replay: resolve(FIXTURES, 'tool-success.json') });
    const base = await server.start();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await post(
      `${base}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`,
      { contents: [] },
      {
        'x-goog-api-key': 'abc',
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    const [chunk] = sseData(text) as Array<{
      candidates: Array<{ content: { parts: unknown[] } }>;
    }>;
    expect(chunk?.candidates[0]?.content.parts[0]).toEqual({
      functionCall: { name: 'add', args: { a: 5, b: 3 } },
    });
    expect(server.requests[0]).toMatchObject({
      method: 'generateContentStream',
      httpMethod: 'POST',
      path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
      apiVersion: 'v1beta',
      model: 'gemini-2.5-pro',
      body: { contents: [] },
    });
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('abc');
    expect(server.remaining).toBe(7);
  });

  it('accepts inline JSONL lines and answers generateContent with the merged chunks', async () => {
    server = new FakeGeminiServer({
      replay: [{ method: 'generateContent', response: textTurn('inline')[0] as object }],
    });
    const base = await server.start();
    const res = await post(`${base}/v1beta/models/m:generateContent`, {});
    expect(await res.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'inline' }] } }],
    });
    server.assertComplete();
  });

  it('injects an error status with headers and a Google-shaped body', async () => {
    server = new FakeGeminiServer({ turns: [{ status: 429, headers: { 'retry-after': '3' } }] });
    const base = await server.start();
    const res = await post(`${base}/v1beta/models/m:generateContent`, {});
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });

  it('answers countTokens with an estimate without consuming a turn', async () => {
    server = new FakeGeminiServer({ turns: [textTurn('kept')] });
    const base = await server.start();
    const res = await post(`${base}/v1beta/models/m:countTokens`, {
      contents: [{ parts: [{ text: 'abcd' }] }],
    });
    expect(((await res.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    expect(server.remaining).toBe(1);
  });

  it('answers a request with no turn left (or the wrong method) with 400 and records it', async () => {
    server = new FakeGeminiServer({
      replay: [{ method: 'countTokens', response: { totalTokens: 1 } }],
    });
    const base = await server.start();
    const wrong = await post(`${base}/v1beta/models/m:generateContent`, {});
    expect(wrong.status).toBe(400);
    const none = await post(`${base}/v1beta/models/m:generateContent`, {});
    expect(none.status).toBe(400);
    expect(server.unexpected.map((u) => u.reason)).toEqual([
      'the next scripted turn is for countTokens',
      'no scripted turn left',
    ]);
    expect(() => server?.assertComplete()).toThrow(/unexpected generateContent request/);
    const notFound = await fetch(`${base}/v1beta/models`);
    expect(notFound.status).toBe(404);
  });

  it('resets the connection after N chunks and delays chunks', async () => {
    server = new FakeGeminiServer({
      turns: [
        { chunks: [...textTurn('a'), ...textTurn('b')], resetAfterChunks: 1, chunkDelayMs: 20 },
      ],
    });
    const base = await server.start();
    const res = await post(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`, {});
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"text":"a"');
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'ended cleanly';
      })(),
    ).rejects.toThrow();
  });

  it('sends malformed SSE data when asked', async () => {
    server = new FakeGeminiServer({
      turns: [{ chunks: textTurn('a'), malformed: { afterChunks: 1, data: '{oops' } }],
    });
    const base = await server.start();
    const text = await (
      await post(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`, {})
    ).text();
    expect(text).toContain('data: {oops\r\n\r\n');
  });

  it('function turns see the request; close() ends open connections', async () => {
    server = new FakeGeminiServer({
      turns: [
        (r) => textTurn(`model was ${r.model}`),
        { chunks: textTurn('slow'), chunkDelayMs: 60_000 },
      ],
    });
    const base = await server.start();
    const res = await post(`${base}/v1beta/models/echo-model:generateContent`, {});
    expect(JSON.stringify(await res.json())).toContain('model was echo-model');
    const pending = post(`${base}/v1beta/models/m:streamGenerateContent?alt=sse`, {}).then((r) =>
      r.text(),
    );
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    await expect(pending).rejects.toThrow();
    server = undefined;
  });
});
