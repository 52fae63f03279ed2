import { afterEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z, type ServerGeminiStreamEvent } from '../../src/index.js';
import {
  FakeGeminiServer,
  callTurn,
  textTurn,
  type FakeGeminiTurn,
} from '../../src/testing/index.js';
import { INTERRUPTED_PLACEHOLDER } from '../../src/loop/request-contents.js';
import { expectValidContents } from './history-assertions.js';

interface Body {
  contents?: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<{ functionDeclarations?: Array<Record<string, unknown>> }>;
}

const servers: FakeGeminiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(
  ...turns: FakeGeminiTurn[]
): Promise<{ server: FakeGeminiServer; baseUrl: string }> {
  const server = new FakeGeminiServer({ turns });
  servers.push(server);
  return { server, baseUrl: await server.start() };
}

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const bodies = (server: FakeGeminiServer): Body[] => server.requests.map((r) => r.body as Body);
const systemText = (b: Body | undefined): string | undefined =>
  b?.systemInstruction?.parts?.map((p) => p.text ?? '').join('');

describe('through the real @google/genai client and FakeGeminiServer', () => {
  it('static instructions reach systemInstruction verbatim, in the GEMINI.md slot', async () => {
    const { server, baseUrl } = await serve(textTurn('Ahoy!'));
    const instructions = 'You are a pirate.\nRespond in pirate speak.';
    const agent = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      instructions,
      apiKey: 'test-key',
      baseUrl,
      retry: false,
    });
    const events = await drain(agent.session().sendStream('Say hello.'));
    expect(events.filter((e) => e.type === 'content').map((e) => e.value)).toEqual(['Ahoy!']);
    const system = systemText(bodies(server)[0]);
    expect(system).toMatch(/^You are an autonomous agent/);
    expect(system).toMatch(
      new RegExp(
        `# Contextual Instructions \\(GEMINI\\.md\\)\n[^]*<loaded_context>\n${instructions}\n</loaded_context>$`,
      ),
    );
    server.assertComplete();
  });

  it('a tool loop: declarations, fresh dynamic instructions per call, functionResponse in the next request', async () => {
    const { server, baseUrl } = await serve(
      callTurn({ name: 'add', args: { a: 5, b: 3 } }),
      textTurn('8'),
    );
    let n = 0;
    const calls: unknown[] = [];
    const agent = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      systemPrompt: 'none',
      instructions: () => `Secret number is ${++n}`,
      apiKey: 'test-key',
      baseUrl,
      retry: false,
      tools: [
        tool(
          {
            name: 'add',
            description: 'Adds two numbers',
            inputSchema: z.object({ a: z.number(), b: z.number() }),
          },
          (args) => {
            calls.push(args);
            return args.a + args.b;
          },
        ),
      ],
    });
    const events = await drain(agent.session().sendStream('What is 5 + 3?'));
    expect(calls).toEqual([{ a: 5, b: 3 }]);
    expect(
      events
        .filter((e) => e.type === 'content')
        .map((e) => e.value)
        .join(''),
    ).toBe('8');
    const [first, second] = bodies(server);
    expect([systemText(first), systemText(second)]).toEqual([
      'Secret number is 1',
      'Secret number is 2',
    ]);
    expect(first?.tools?.[0]?.functionDeclarations?.[0]).toMatchObject({
      name: 'add',
      description: 'Adds two numbers',
      parametersJsonSchema: { type: 'object', required: ['a', 'b'] },
    });
    const last = second?.contents?.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.parts[0]).toMatchObject({
      functionResponse: { name: 'add', response: { output: '8' } },
    });
    const requestId = (
      events.find((e) => e.type === 'tool_call_request')?.value as { callId: string }
    ).callId;
    expect((last?.parts[0]?.['functionResponse'] as { id: string }).id).toBe(
      requestId.replace(/^add__/, ''),
    );
    expectValidContents((second?.contents ?? []) as never);
    server.assertComplete();
  });

  it('three 300 ms tools of one turn overlap in time', async () => {
    const { server, baseUrl } = await serve(
      callTurn(
        { name: 'slow', args: { id: 'a' } },
        { name: 'slow', args: { id: 'b' } },
        { name: 'slow', args: { id: 'c' } },
      ),
      textTurn('done'),
    );
    const spans: Array<{ start: number; end: number }> = [];
    const slow = tool(
      { name: 'slow', description: 's', inputSchema: z.object({ id: z.string() }) },
      async ({ id }) => {
        const start = performance.now();
        await new Promise((r) => setTimeout(r, 300));
        spans.push({ start, end: performance.now() });
        return id;
      },
    );
    const agent = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      apiKey: 'k',
      baseUrl,
      retry: false,
      tools: [slow],
    });
    await drain(agent.session().sendStream('go'));
    expect(spans).toHaveLength(3);
    expect(Math.max(...spans.map((s) => s.start))).toBeLessThan(
      Math.min(...spans.map((s) => s.end)),
    );
    const outputs = bodies(server)[1]
      ?.contents?.at(-1)
      ?.parts.map(
        (p) => (p['functionResponse'] as { response: { output: string } }).response.output,
      );
    expect(outputs).toEqual(['a', 'b', 'c']);
  });

  it('an API error emits error, rejects typed, and the next sendStream works', async () => {
    const { server, baseUrl } = await serve({ status: 400 }, textTurn('recovered'));
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      apiKey: 'k',
      baseUrl,
      retry: false,
    }).session();
    const events: ServerGeminiStreamEvent[] = [];
    const error = await (async () => {
      for await (const e of session.sendStream('first')) events.push(e);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: expect.any(String) });
    expect(events.at(-1)?.type).toBe('error');
    expect((await session.send('second')).text).toBe('recovered');
    // The failed prompt keeps its own turn: never merged into the next one.
    expect(bodies(server)[1]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'first' }] },
      { role: 'model', parts: [{ text: INTERRUPTED_PLACEHOLDER }] },
      { role: 'user', parts: [{ text: 'second' }] },
    ]);
  });

  it('abort mid-stream over HTTP ends promptly, drops the partial turn, and the session goes on', async () => {
    const chunk = (text: string, finish?: string) => ({
      candidates: [
        {
          content: { role: 'model', parts: [{ text }] },
          ...(finish ? { finishReason: finish } : {}),
        },
      ],
    });
    const { server, baseUrl } = await serve(
      {
        chunks: [chunk('partial '), chunk('more '), chunk('end', 'STOP')] as never,
        chunkDelayMs: 150,
      },
      textTurn('fresh'),
    );
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      apiKey: 'k',
      baseUrl,
      retry: false,
    }).session();
    const controller = new AbortController();
    const events: ServerGeminiStreamEvent[] = [];
    for await (const e of session.sendStream('first', controller.signal)) {
      events.push(e);
      if (e.type === 'content') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['model_info', 'content', 'user_cancelled']);
    expect((await session.send('second')).text).toBe('fresh');
    // The cancelled prompt stays a turn of its own, answered by what was shown and the interruption marker.
    expect(bodies(server)[1]?.contents).toEqual([
      { role: 'user', parts: [{ text: 'first' }] },
      { role: 'model', parts: [{ text: 'partial ' }, { text: INTERRUPTED_PLACEHOLDER }] },
      { role: 'user', parts: [{ text: 'second' }] },
    ]);
  });
});
