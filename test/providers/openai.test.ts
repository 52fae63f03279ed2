import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  MissingCredentialsError,
  ModelApiError,
  ModelCapabilityError,
  openAICompatible,
  tool,
  z,
  type Logger,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { createContentGenerator } from '../../src/model/index.js';
import { FakeOpenAIServer, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';

const servers: FakeOpenAIServer[] = [];
const dirs: string[] = [];
const savedEnv = new Map<string, string | undefined>();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const [k, v] of savedEnv) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  savedEnv.clear();
});

function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (!savedEnv.has(k)) savedEnv.set(k, process.env[k]);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

async function serve(
  ...turns: ConstructorParameters<typeof FakeOpenAIServer>[0][]
): Promise<FakeOpenAIServer> {
  const server = new FakeOpenAIServer(turns[0]);
  servers.push(server);
  await server.start();
  return server;
}

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const text = (events: ServerGeminiStreamEvent[]) =>
  events
    .filter((e) => e.type === 'content')
    .map((e) => e.value)
    .join('');

const add = tool(
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
  },
  ({ a, b }) => a + b,
);

type Message = { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string };

describe('the OpenAI-compatible provider through the real openai client', () => {
  it('streams text; system instruction, user message, model name, usage request and key are sent', async () => {
    const server = await serve({
      apiKey: 'sk-test',
      turns: [textTurn('Hello from a local model')],
    });
    const warnings: string[] = [];
    const agent = new GeminiCliAgent({
      builtinTools: false,
      instructions: 'Be brief.',
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1`, apiKey: 'sk-test' }),
      model: 'llama3.2',
      retry: false,
      logger: { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} },
    });
    const events = await drain(agent.session().sendStream('Say hi.'));
    // gemini-cli's Gemini defaults (temperature 1, topP 0.95, topK 64, thoughts) are not sent to another provider.
    expect(server.chatBodies[0]).not.toHaveProperty('temperature');
    expect(server.chatBodies[0]).not.toHaveProperty('top_p');
    expect(warnings).toEqual([]);
    expect(text(events)).toBe('Hello from a local model');
    const finished = events.find((e) => e.type === 'finished');
    expect(finished?.value).toMatchObject({ reason: 'STOP' });
    const body = server.chatBodies[0] as {
      model: string;
      messages: Message[];
      stream: boolean;
      stream_options: unknown;
    };
    expect(body.model).toBe('llama3.2');
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages[0]?.role).toBe('system');
    expect(String(body.messages[0]?.content)).toContain('Be brief.');
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: expect.stringContaining('Say hi.'),
    });
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-test');
  });

  it('parallel tool calls and their results map both ways; declarations are JSON Schema', async () => {
    const server = await serve({
      turns: [
        callTurn(
          { name: 'add', args: { a: 1, b: 2 }, id: 'call_a' },
          { name: 'add', args: { a: 3, b: 4 }, id: 'call_b' },
        ),
        textTurn('3 and 7'),
      ],
    });
    const agent = new GeminiCliAgent({
      builtinTools: false,
      tools: [add],
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1` }),
      model: 'qwen3',
      retry: false,
    });
    const events = await drain(agent.session().sendStream('Add both.'));
    expect(text(events)).toBe('3 and 7');
    const requests = events.filter((e) => e.type === 'tool_call_request').map((e) => e.value);
    expect(requests).toMatchObject([
      { name: 'add', args: { a: 1, b: 2 } },
      { name: 'add', args: { a: 3, b: 4 } },
    ]);
    const [first, second] = server.chatBodies as Array<{ messages: Message[]; tools: unknown[] }>;
    expect(first?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'add',
          description: 'Adds two numbers',
          parameters: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
        },
      },
    ]);
    expect(JSON.stringify(first?.tools)).not.toContain('$schema');
    const tail = second?.messages.slice(-3);
    expect(tail?.[0]).toMatchObject({
      role: 'assistant',
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
        { id: 'call_b', type: 'function', function: { name: 'add', arguments: '{"a":3,"b":4}' } },
      ],
    });
    expect(tail?.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: '3' },
      { role: 'tool', tool_call_id: 'call_b', content: '7' },
    ]);
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('usage, thoughts (reasoning_content) and finish reasons come back in the neutral form', async () => {
    const server = await serve({
      turns: [
        modelTurn([{ text: 'Let me think.', thought: true }, { text: 'Done' }], {
          promptTokenCount: 11,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 2,
          totalTokenCount: 18,
        }),
        [
          {
            candidates: [
              { content: { role: 'model', parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' },
            ],
          } as unknown as GenerateContentResponse,
        ],
      ],
    });
    const agent = new GeminiCliAgent({
      builtinTools: false,
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1`, model: 'deepseek-r1' }),
      retry: false,
    });
    const session = agent.session();
    const events = await drain(session.sendStream('Think.'));
    expect(events.find((e) => e.type === 'thought')?.value).toMatchObject({
      description: 'Let me think.',
    });
    expect(events.find((e) => e.type === 'finished')?.value).toEqual({
      reason: 'STOP',
      usageMetadata: {
        promptTokenCount: 11,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 2,
        totalTokenCount: 18,
      },
    });
    expect(server.chatBodies[0]?.['model']).toBe('deepseek-r1');
    const cut = await drain(session.sendStream('Again.'));
    expect(cut.find((e) => e.type === 'finished')?.value).toMatchObject({ reason: 'MAX_TOKENS' });
  });

  it("'openai:gpt-4.1' uses OPENAI_API_KEY and OPENAI_BASE_URL; 'ollama:' uses OLLAMA_HOST without a key", async () => {
    const openai = await serve({ apiKey: 'sk-env', turns: [textTurn('from openai')] });
    setEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${openai.baseUrl}/v1` });
    const agent = new GeminiCliAgent({
      builtinTools: false,
      model: 'openai:gpt-4.1',
      retry: false,
      generationConfig: { maxOutputTokens: 64 },
    });
    expect(text(await drain(agent.session().sendStream('hi')))).toBe('from openai');
    expect(openai.chatBodies[0]).toMatchObject({ model: 'gpt-4.1', max_tokens: 64 });

    const ollama = await serve({ turns: [textTurn('from ollama')] });
    setEnv({ OLLAMA_HOST: ollama.baseUrl.replace('http://', '') });
    const local = new GeminiCliAgent({
      builtinTools: false,
      model: 'ollama:llama3.2',
      retry: false,
    });
    expect(text(await drain(local.session().sendStream('hi')))).toBe('from ollama');
    expect(ollama.chatBodies[0]?.['model']).toBe('llama3.2');
    expect(ollama.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('OPENAI_API_KEY is never sent to a base URL given in code; OpenAI itself needs a key', async () => {
    const server = await serve({ turns: [textTurn('ok')] });
    setEnv({ OPENAI_API_KEY: 'sk-must-not-leak' });
    const agent = new GeminiCliAgent({
      builtinTools: false,
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1`, model: 'm' }),
      retry: false,
    });
    await drain(agent.session().sendStream('hi'));
    expect(JSON.stringify(server.requests.map((r) => r.headers))).not.toContain('sk-must-not-leak');

    setEnv({ OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined });
    const error = await createContentGenerator({
      provider: openAICompatible(),
      model: 'gpt-4.1',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialsError);
    expect((error as Error).message).toContain('set OPENAI_API_KEY');
    expect(() => openAICompatible({ baseURL: 'localhost:11434' })).toThrow(
      /must be an http:\/\/ or https:\/\/ URL/,
    );
  });

  it('errors: 401 is typed and says what to check; 429 and resets go through the retry policy', async () => {
    const denied = await serve({ apiKey: 'right', turns: [] });
    const wrongKey = new GeminiCliAgent({
      builtinTools: false,
      provider: openAICompatible({ baseURL: `${denied.baseUrl}/v1`, apiKey: 'wrong', model: 'm' }),
    });
    const error = await drain(wrongKey.session().sendStream('hi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelApiError);
    expect((error as ModelApiError).status).toBe(401);
    expect((error as Error).message).toContain('the apiKey option of openAICompatible()');

    const flaky = await serve({
      turns: [
        { status: 429, headers: { 'retry-after-ms': '1' } },
        { resetBeforeResponse: true, chunks: [] },
        textTurn('third time'),
      ],
    });
    const retries: number[] = [];
    const agent = new GeminiCliAgent({
      builtinTools: false,
      provider: openAICompatible({ baseURL: `${flaky.baseUrl}/v1`, model: 'm' }),
      retry: { initialDelayMs: 1, maxDelayMs: 2, onRetry: (i) => retries.push(i.attempt) },
    });
    expect(text(await drain(agent.session().sendStream('hi')))).toBe('third time');
    expect(retries).toEqual([1, 2]);
  });

  it('features Chat Completions lacks fail with ModelCapabilityError; settings without an equivalent warn once', async () => {
    const server = await serve({ turns: [textTurn('a'), textTurn('b')] });
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
    const generator = await createContentGenerator({
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1` }),
      model: 'm',
      retry: false,
      logger,
    });
    const grounded = await generator
      .generateContentStream({
        model: 'm',
        contents: 'news?',
        config: { tools: [{ googleSearch: {} }] },
      })
      .catch((e: unknown) => e);
    expect(grounded).toBeInstanceOf(ModelCapabilityError);
    expect(grounded).toMatchObject({
      capability: 'grounding',
      provider: 'openai',
      code: 'MODEL_CAPABILITY_UNSUPPORTED',
    });
    await expect(generator.countTokens({ model: 'm', contents: 'x' })).rejects.toMatchObject({
      capability: 'countTokens',
    });
    await expect(
      generator.generateContent({
        model: 'm',
        contents: [
          {
            role: 'user',
            parts: [{ fileData: { fileUri: 'gs://bucket/a.mp4', mimeType: 'video/mp4' } }],
          },
        ],
      }),
    ).rejects.toBeInstanceOf(ModelCapabilityError);
    for (let i = 0; i < 2; i++) {
      const stream = await generator.generateContentStream({
        model: 'm',
        contents: 'x',
        config: { topK: 40 },
      });
      for await (const _ of stream) void _;
    }
    expect(warnings.filter((w) => w.includes('topK'))).toHaveLength(1);
    expect(server.chatBodies[0]).not.toHaveProperty('top_k');
  });

  it('a tool call with broken arguments is reported as MALFORMED_FUNCTION_CALL, not run', async () => {
    const base = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm' };
    const server = await serve({
      turns: [
        {
          openai: [
            {
              ...base,
              choices: [
                {
                  index: 0,
                  delta: {
                    tool_calls: [
                      {
                        index: 0,
                        id: 'c',
                        type: 'function',
                        function: { name: 'add', arguments: '{"a": 1,' },
                      },
                    ],
                  },
                  finish_reason: null,
                },
              ],
            },
            { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
          ],
        },
      ],
    });
    const generator = await createContentGenerator({
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1` }),
      model: 'm',
      retry: false,
    });
    const chunks: GenerateContentResponse[] = [];
    for await (const c of await generator.generateContentStream({ model: 'm', contents: 'x' }))
      chunks.push(c);
    expect(chunks.at(-1)?.candidates?.[0]).toMatchObject({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      content: { parts: [] },
    });
  });

  it('embeddings, and the non-streamed call', async () => {
    const server = await serve({
      turns: [callTurn({ name: 'add', args: { a: 1, b: 1 }, id: 'k' })],
    });
    const generator = await createContentGenerator({
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1` }),
      model: 'm',
      retry: false,
    });
    const once = await generator.generateContent({ model: 'm', contents: 'x' });
    expect(once.candidates?.[0]?.content?.parts).toEqual([
      { functionCall: { name: 'add', args: { a: 1, b: 1 }, id: 'k' } },
    ]);
    const embedded = await generator.embedContent?.({
      model: 'text-embedding-3-small',
      contents: ['ab', 'cde'],
    });
    expect(embedded?.embeddings).toEqual([{ values: [2, 0, 1] }, { values: [3, 1, 1] }]);
  });

  it('record with the provider, replay offline: the file holds the neutral form and replays the same events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openai-record-'));
    dirs.push(dir);
    const file = join(dir, 'recording.jsonl');
    const server = await serve({
      turns: [callTurn({ name: 'add', args: { a: 2, b: 2 }, id: 'r1' }), textTurn('four')],
    });
    const live = new GeminiCliAgent({
      builtinTools: false,
      tools: [add],
      provider: openAICompatible({ baseURL: `${server.baseUrl}/v1`, model: 'm' }),
      recordResponses: file,
      retry: false,
    });
    const recorded = await drain(live.session().sendStream('2+2'));
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; response: unknown[] });
    expect(lines.map((l) => l.method)).toEqual(['generateContentStream', 'generateContentStream']);
    expect(JSON.stringify(lines[0]?.response)).toContain('"functionCall"');
    const replayed = await drain(
      new GeminiCliAgent({ builtinTools: false, tools: [add], fakeResponses: file })
        .session()
        .sendStream('2+2'),
    );
    // A replay file keeps candidates and usage only (as gemini-cli's), so no responseId: no traceId either;
    // durationMs is wall time.
    const strip = (events: ServerGeminiStreamEvent[]) =>
      events
        .filter((e) => e.type !== 'model_info')
        .map((e) =>
          JSON.stringify(e)
            .replace(/"prompt_id":"[^"]+"/g, '"prompt_id":"P"')
            .replace(/,"traceId":"[^"]+"/g, '')
            .replace(/"durationMs":\d+/g, '"durationMs":0'),
        );
    expect(strip(replayed)).toEqual(strip(recorded));
  });

  it('session.setModel routes to another provider mid-session and back', async () => {
    const a = await serve({ turns: [textTurn('one')] });
    const b = await serve({ apiKey: 'k2', turns: [textTurn('two')] });
    setEnv({ OPENAI_API_KEY: 'k2', OPENAI_BASE_URL: `${b.baseUrl}/v1` });
    const agent = new GeminiCliAgent({
      builtinTools: false,
      provider: openAICompatible({ id: 'local', baseURL: `${a.baseUrl}/v1`, model: 'small' }),
      retry: false,
    });
    const session = agent.session();
    expect(text(await drain(session.sendStream('first')))).toBe('one');
    session.setModel('openai:gpt-4.1-mini');
    expect(text(await drain(session.sendStream('second')))).toBe('two');
    expect(b.chatBodies[0]?.['model']).toBe('gpt-4.1-mini');
    const messages = (b.chatBodies[0]?.['messages'] ?? []) as Message[];
    expect(messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', expect.stringContaining('first')],
      ['assistant', 'one'],
      ['user', expect.stringContaining('second')],
    ]);
  });
});
