import type { GenerateContentParameters } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  ModelApiError,
  ModelVisibleError,
  ToolExecutionError,
  tool,
  z,
  type ServerGeminiStreamEvent,
  type ToolCallResponseInfo,
} from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { INTERRUPTED_PLACEHOLDER } from '../../src/loop/request-contents.js';
import { streamedTurn } from './chunks.js';
import { expectValidContents } from './history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

const responsesOf = (events: ServerGeminiStreamEvent[]): ToolCallResponseInfo[] =>
  events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []));

const errorOf = (r: ToolCallResponseInfo | undefined): unknown =>
  (r?.responseParts[0]?.functionResponse?.response as { error?: unknown } | undefined)?.error;

/** A turn that checks the request it receives is a valid history, then answers `text`. */
const validTurn = (text: string) => (request: GenerateContentParameters) => {
  expectValidContents(request.contents as never);
  return textTurn(text);
};

function counter() {
  let calls = 0;
  const t = tool(
    { name: 'count', description: 'counts', inputSchema: z.object({ n: z.number() }) },
    ({ n }) => {
      calls++;
      return n;
    },
  );
  return { tool: t, calls: () => calls };
}

/** Runs the first prompt, then proves the session still works with a second one. */
async function thenStillWorks(
  model: ScriptedModel,
  session: ReturnType<GeminiCliAgent['session']>,
) {
  model.push(validTurn('still here'));
  const after = await session.send('are you there?');
  expect(after.text).toBe('still here');
  model.assertComplete();
}

describe('every failure leaves a valid history (proved by a following sendStream)', () => {
  it('invalid args: the model gets a readable error and the action never runs', async () => {
    const c = counter();
    const model = new ScriptedModel([
      callTurn({ name: 'count', args: { n: 'seven' } }),
      validTurn('sorry'),
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [c.tool],
    }).session();
    const events = await drain(session.sendStream('count'));
    expect(c.calls()).toBe(0);
    const [response] = responsesOf(events);
    expect(errorOf(response)).toBe('params/n must be number');
    expect(response?.error?.type).toBe('invalid_tool_params');
    await thenStillWorks(model, session);
  });

  it('unknown tool: the error names the closest tools', async () => {
    const mk = (name: string) =>
      tool({ name, description: name, inputSchema: z.object({}) }, () => name);
    const model = new ScriptedModel([callTurn({ name: 'read_fil' }), validTurn('ok')]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: ['read_file', 'write_file', 'read_many', 'glob', 'shell'].map(mk),
    }).session();
    const events = await drain(session.sendStream('read'));
    expect(errorOf(responsesOf(events)[0])).toBe(
      'Tool "read_fil" not found. Did you mean one of: "read_file", "read_many", "shell"?',
    );
    await thenStillWorks(model, session);
  });

  it('visible tool error (ModelVisibleError) goes to the model and the loop continues', async () => {
    const model = new ScriptedModel([callTurn({ name: 'boom' }), validTurn('it failed')]);
    const boom = tool({ name: 'boom', description: 'fails', inputSchema: z.object({}) }, () => {
      throw new ModelVisibleError('visible failure');
    });
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [boom],
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(errorOf(responsesOf(events)[0])).toBe('visible failure');
    expect(events.at(-1)?.type).toBe('finished');
    await thenStillWorks(model, session);
  });

  it('invisible tool error rejects with ToolExecutionError (cause attached) after closing the history', async () => {
    const secret = new Error('database password is hunter2');
    const model = new ScriptedModel([
      callTurn({ name: 'boom' }, { name: 'count', args: { n: 1 } }),
    ]);
    const c = counter();
    const boom = tool({ name: 'boom', description: 'fails', inputSchema: z.object({}) }, () => {
      throw secret;
    });
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [boom, c.tool],
    }).session();
    const events: ServerGeminiStreamEvent[] = [];
    const error = await (async () => {
      for await (const e of session.sendStream('go')) events.push(e);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).cause).toBe(secret);
    expect((error as ToolExecutionError).toolName).toBe('boom');
    expect(c.calls()).toBe(1);
    const responses = responsesOf(events);
    expect(responses).toHaveLength(2);
    expect(String(errorOf(responses[0]))).not.toContain('hunter2');
    model.push((request) => {
      expectValidContents(request.contents as never);
      expect(JSON.stringify(request.contents)).not.toContain('hunter2');
      return textTurn('recovered');
    });
    expect((await session.send('next')).text).toBe('recovered');
    model.assertComplete();
  });

  it('a hung tool past its timeout gets an error response and its signal fires', async () => {
    let aborted = false;
    const hang = tool(
      { name: 'hang', description: 'never ends', inputSchema: z.object({}) },
      (_a, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      },
    );
    const model = new ScriptedModel([callTurn({ name: 'hang' }), validTurn('timed out')]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [hang],
      limits: { toolTimeoutMs: 50 },
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(errorOf(responsesOf(events)[0])).toBe(
      'Tool "hang" timed out after 50 ms and was stopped.',
    );
    expect(aborted).toBe(true);
    await thenStillWorks(model, session);
  });

  it('abort mid-tool: ctx.signal fires, pending calls are cancelled, user_cancelled, the stream ends', async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    const wait = tool(
      { name: 'wait', description: 'waits', inputSchema: z.object({}) },
      (_a, ctx) => {
        toolSignal = ctx.signal;
        started();
        return new Promise(() => undefined); // ignores the signal: the loop must still end
      },
    );
    const c = counter();
    const model = new ScriptedModel([
      callTurn({ name: 'count', args: { n: 2 } }, { name: 'wait' }),
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [wait, c.tool],
    }).session();
    const controller = new AbortController();
    void startedP.then(() => setTimeout(() => controller.abort(), 20));
    const events = await drain(session.sendStream('go', controller.signal));
    expect(toolSignal?.aborted).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'user_cancelled' });
    const responses = responsesOf(events);
    expect(responses.map((r) => r.error?.type)).toEqual([undefined, 'cancelled']);
    expect(errorOf(responses[1])).toMatch(/^\[Operation Cancelled\]/);
    expect(model.generateRequests).toHaveLength(1);
    await thenStillWorks(model, session);
  });

  it('abort mid-stream keeps the prompt as its own turn, answered by an interrupted model turn', async () => {
    const model = new ScriptedModel(
      [streamedTurn([{ text: 'partial ' }, { text: 'answer ' }, { text: 'never seen' }])],
      { chunkDelayMs: 20 },
    );
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
    }).session();
    const controller = new AbortController();
    const events: ServerGeminiStreamEvent[] = [];
    for await (const e of session.sendStream('first', controller.signal)) {
      events.push(e);
      if (e.type === 'content') controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(['model_info', 'content', 'user_cancelled']);
    const interrupted = {
      role: 'model',
      parts: [{ text: 'partial ' }, { text: INTERRUPTED_PLACEHOLDER }],
    };
    expect(session.getHistory()).toEqual([
      { role: 'user', parts: [{ text: 'first' }] },
      interrupted,
    ]);
    model.push((request) => {
      expect(request.contents).toEqual([
        { role: 'user', parts: [{ text: 'first' }] },
        interrupted,
        { role: 'user', parts: [{ text: 'second' }] },
      ]);
      return textTurn('fine');
    });
    expect((await session.send('second')).text).toBe('fine');
  });

  it('a functionCall without a name is answered with an error', async () => {
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { args: {} } }]),
      validTurn('oops'),
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [counter().tool],
    }).session();
    const events = await drain(session.sendStream('go'));
    const [response] = responsesOf(events);
    expect(response?.name).toBe('generic_tool');
    expect(String(errorOf(response))).toContain('had no name');
    await thenStillWorks(model, session);
  });

  it('args given as a JSON string are parsed and the tool runs', async () => {
    const c = counter();
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'count', args: '{"n": 4}' as never } }]),
      validTurn('4'),
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [c.tool],
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(c.calls()).toBe(1);
    expect(events.find((e) => e.type === 'tool_call_request')?.value).toMatchObject({
      args: { n: 4 },
    });
    await thenStillWorks(model, session);
  });

  it('args that are not valid JSON get an error and the tool does not run', async () => {
    const c = counter();
    const model = new ScriptedModel([
      modelTurn([{ functionCall: { name: 'count', args: '{"n": 4' as never } }]),
      validTurn('bad'),
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [c.tool],
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(c.calls()).toBe(0);
    expect(String(errorOf(responsesOf(events)[0]))).toContain('not valid JSON');
    await thenStillWorks(model, session);
  });

  it('a model API failure emits error, rejects with the typed error, and the prompt is kept', async () => {
    const failure = new ModelApiError('quota exhausted', { status: 429 });
    const model = new ScriptedModel([
      () => {
        throw failure;
      },
    ]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
    }).session();
    const events: ServerGeminiStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of session.sendStream('first')) events.push(e);
      })(),
    ).rejects.toBe(failure);
    expect(events.at(-1)).toEqual({
      type: 'error',
      value: { error: { message: 'quota exhausted', status: 429, code: 'MODEL_API' } },
    });
    await thenStillWorks(model, session);
  });

  it('a consumer that stops iterating mid-tool still leaves every call answered', async () => {
    const wait = tool(
      { name: 'wait', description: 'waits', inputSchema: z.object({}) },
      (_a, ctx) =>
        new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'))),
    );
    const model = new ScriptedModel([callTurn({ name: 'wait' })]);
    const session = new GeminiCliAgent({
      sessionContext: false,
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [wait],
    }).session();
    for await (const e of session.sendStream('go')) {
      if (e.type === 'tool_call_request') break;
    }
    await thenStillWorks(model, session);
  });
});
