/**
 * Fault catalogue — the network and the API's answers: connection failures get a short budget and name the cause
 * and the endpoint; 429/500/503 are retried honouring the server's delay; a bad API key is an
 * AuthenticationError naming GEMINI_API_KEY, never retried. Every `retry` event says what failed and where.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, GeminiCliAgent, ModelApiError } from '../../src/index.js';
import { googleErrorBody, textTurn } from '../../src/testing/index.js';
import {
  collect,
  expectStoredHistory,
  fakeGemini,
  instantRetry,
  ofType,
  tempProject,
} from './fault-helpers.js';

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function run(baseUrl: string) {
  const cwd = await tempProject();
  const { retry, delays } = instantRetry();
  const agent = new GeminiCliAgent({
    cwd,
    apiKey: 'test-key',
    baseUrl,
    builtinTools: false,
    skillDiscovery: false,
    retry,
  });
  const session = agent.session();
  const result = await collect(session.sendStream('Hello?'));
  return { ...result, delays, session, cwd };
}

describe('connection failures', () => {
  it('a refused connection stops within the 30 s budget, each retry naming ECONNREFUSED and the endpoint', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const { events, error, delays, session, cwd } = await run(baseUrl);
    // 5 s + 10 s waited; the next 20 s would pass the 30 s budget.
    expect(delays).toEqual([5000, 10_000]);
    const retries = ofType(events, 'retry').map((e) => e.value);
    expect(retries).toHaveLength(2);
    for (const [i, r] of retries.entries()) {
      expect(r).toMatchObject({
        attempt: i + 1,
        maxAttempts: 10,
        phase: 'connect',
        reason: 'ECONNREFUSED',
        code: 'ECONNREFUSED',
        endpoint: baseUrl,
      });
      expect(r.delayMs).toBe(delays[i]);
    }
    expect(error).toBeInstanceOf(ModelApiError);
    const message = (error as Error).message;
    expect(message).toContain(`the connection to ${baseUrl} was refused`);
    expect(message).toContain('ECONNREFUSED');
    expect(message).toContain('Gave up after 3 attempts');
    expect(ofType(events, 'error')).toHaveLength(1);
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('a host that does not resolve names the DNS failure', async () => {
    const { error, events } = await run('http://gemini-api.invalid');
    expect(error).toBeInstanceOf(ModelApiError);
    expect((error as Error).message).toContain('could not be resolved (DNS)');
    expect(ofType(events, 'retry')[0]?.value.code).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
  });

  it('a TLS failure names the TLS error', async () => {
    const server = await fakeGemini();
    const { error } = await run(server.baseUrl.replace('http://', 'https://'));
    expect((error as Error).message).toMatch(/TLS connection to https:\/\/127\.0\.0\.1:\d+ failed/);
  });

  it('a reset before any answer is retried and recovers', async () => {
    const server = await fakeGemini({ resetBeforeResponse: true }, textTurn('Hi.'));
    const { events, error, session } = await run(server.baseUrl);
    expect(error).toBeUndefined();
    expect(ofType(events, 'retry').map((e) => e.value.phase)).toEqual(['connect']);
    expect(session.getHistory().at(-1)).toEqual({ role: 'model', parts: [{ text: 'Hi.' }] });
  });
});

describe('HTTP errors', () => {
  it.each([429, 500, 503])(
    '%i with Retry-After is retried after the server delay and recovers',
    async (status) => {
      const server = await fakeGemini(
        { status, headers: { 'retry-after': '30' } },
        textTurn('Recovered.'),
      );
      const { events, error, delays, session, cwd } = await run(server.baseUrl);
      expect(error).toBeUndefined();
      expect(delays).toEqual([33_000]); // 30 s asked for, plus gemini-cli's 0–20 % jitter (here 10 %)
      expect(ofType(events, 'retry')[0]?.value).toMatchObject({
        attempt: 1,
        phase: 'connect',
        status,
        reason: `HTTP ${status}`,
        endpoint: server.baseUrl,
      });
      await session.close();
      await expectStoredHistory(cwd, session.id, session.getHistory());
    },
  );

  it.each<[string, object]>([
    ['401', { status: 401 }],
    ['403', { status: 403 }],
    [
      '400 API_KEY_INVALID',
      {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'API key not valid. Please pass a valid API key.',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
              },
            ],
          },
        },
      },
    ],
  ])(
    'a bad key (%s) is an AuthenticationError naming GEMINI_API_KEY, not retried',
    async (_n, reply) => {
      const server = await fakeGemini(reply);
      const { events, error, session, cwd } = await run(server.baseUrl);
      expect(server.requests).toHaveLength(1);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ code: 'AUTHENTICATION' });
      expect((error as Error).message).toContain('GEMINI_API_KEY');
      expect((error as Error).message).not.toMatch(/model name|tool schemas/);
      expect(ofType(events, 'error')[0]?.value.error.code).toBe('AUTHENTICATION');
      expect(ofType(events, 'retry')).toEqual([]);
      await session.close();
      await expectStoredHistory(cwd, session.id, session.getHistory());
    },
  );

  it('another 400 stays a ModelApiError about the request', async () => {
    const server = await fakeGemini({
      status: 400,
      body: googleErrorBody(400, 'Invalid JSON payload received.'),
    });
    const { error } = await run(server.baseUrl);
    expect(error).toBeInstanceOf(ModelApiError);
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('check the model name');
  });
});
