/**
 * The event union and the tool-response shapes of gemini-cli 0.61: every `GeminiEventType` exists here with the
 * same value (and a union member, checked by `npm run typecheck`), `traceId` rides on content, thought and
 * tool_call_request, `context_window_will_overflow` is emitted as gemini-cli emits it, and `tool_call_response`
 * carries gemini-cli's `errorType` and wording.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  GeminiEventType,
  tool,
  z,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';

/** gemini-cli 0.61's `GeminiEventType` (packages/core/src/core/turn.ts), key → value, as recorded from its bundle. */
const GEMINI_CLI_0_61_EVENT_TYPES: Record<string, string> = {
  Content: 'content',
  ToolCallRequest: 'tool_call_request',
  ToolCallResponse: 'tool_call_response',
  ToolCallConfirmation: 'tool_call_confirmation',
  UserCancelled: 'user_cancelled',
  Error: 'error',
  ChatCompressed: 'chat_compressed',
  Thought: 'thought',
  MaxSessionTurns: 'max_session_turns',
  Finished: 'finished',
  LoopDetected: 'loop_detected',
  Citation: 'citation',
  Retry: 'retry',
  ContextWindowWillOverflow: 'context_window_will_overflow',
  InvalidStream: 'invalid_stream',
  ModelInfo: 'model_info',
  AgentExecutionStopped: 'agent_execution_stopped',
  AgentExecutionBlocked: 'agent_execution_blocked',
};

/** Every value of our `GeminiEventType` has a member in the union (a compile error otherwise). */
type EventTypeValue = (typeof GeminiEventType)[keyof typeof GeminiEventType];
const everyTypeHasAMember: [Exclude<EventTypeValue, ServerGeminiStreamEvent['type']>] extends [
  never,
]
  ? true
  : false = true;

async function collect(stream: AsyncIterable<ServerGeminiStreamEvent>) {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('GeminiEventType', () => {
  it('has every gemini-cli 0.61 event type, under the same key and value', () => {
    expect(everyTypeHasAMember).toBe(true);
    for (const [key, value] of Object.entries(GEMINI_CLI_0_61_EVENT_TYPES)) {
      expect(GeminiEventType, key).toHaveProperty(key, value);
    }
  });

  const bundle = '/work/ref/gemini/node_modules/@google/gemini-cli/bundle';
  it.skipIf(!existsSync(bundle))('matches the installed gemini-cli (live, when present)', () => {
    const live: Record<string, string> = {};
    for (const file of readdirSync(bundle).filter((f) => f.endsWith('.js'))) {
      const text = readFileSync(join(bundle, file), 'utf8');
      if (!text.includes('"agent_execution_blocked"')) continue;
      for (const m of text.matchAll(/GeminiEventType2\["(\w+)"\] = "(\w+)"/g)) {
        live[m[1] as string] = m[2] as string;
      }
      break;
    }
    expect(live).toEqual(GEMINI_CLI_0_61_EVENT_TYPES);
  });
});

describe('traceId', () => {
  it('is the responseId on content, thought and tool_call_request', async () => {
    const chunk = (parts: object[], finish?: boolean): GenerateContentResponse =>
      ({
        responseId: 'resp-1',
        candidates: [
          { content: { role: 'model', parts }, ...(finish ? { finishReason: 'STOP' } : {}) },
        ],
      }) as GenerateContentResponse;
    const echo = tool({ name: 'echo', description: 'Echo', inputSchema: z.object({}) }, () => 'ok');
    const model = new ScriptedModel([
      [
        chunk([{ text: '**Plan** think', thought: true }]),
        chunk([{ text: 'calling' }, { functionCall: { name: 'echo', args: {} } }], true),
      ],
      textTurn('done'),
    ]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      tools: [echo],
    });
    const events = await collect(agent.sendStream('go'));
    const of = (type: string) => events.find((e) => e.type === type) as Record<string, unknown>;
    expect(of('thought')).toMatchObject({ traceId: 'resp-1' });
    expect(of('content')).toMatchObject({ value: 'calling', traceId: 'resp-1' });
    expect(of('tool_call_request')).toMatchObject({ value: { name: 'echo', traceId: 'resp-1' } });
    // textTurn has no responseId: no traceId key at all.
    expect(events.filter((e) => e.type === 'content').at(-1)).toEqual({
      type: 'content',
      value: 'done',
    });
  });
});

describe('context_window_will_overflow', () => {
  it('a prompt that cannot fit after the last request is neither sent nor stored', async () => {
    const model = new ScriptedModel([
      modelTurn([{ text: 'big history' }], {
        promptTokenCount: 1_048_000,
        candidatesTokenCount: 2,
        totalTokenCount: 1_048_002,
      }),
      textTurn('small one fits'),
    ]);
    // At 1,048,000 tokens gemini-cli compresses first (threshold 0.5); this test is about the check alone.
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      context: { compressionThreshold: false },
    });
    const session = agent.session();
    await collect(session.sendStream('start'));
    const before = session.getHistory().length;
    // 400 non-ASCII characters count 1.5 tokens each: 600 > 1,048,576 − 1,048,000 = 576.
    const events = await collect(session.sendStream('漢'.repeat(400)));
    expect(events).toEqual([
      {
        type: 'context_window_will_overflow',
        value: { estimatedRequestTokenCount: 600, remainingTokenCount: 576 },
      },
    ]);
    expect(model.generateRequests).toHaveLength(1);
    expect(session.getHistory().length).toBe(before);
    // 2,000 ASCII characters (500 tokens) still fit.
    const ok = await collect(session.sendStream('x'.repeat(2000)));
    expect(ok.filter((e) => e.type === 'content').map((e) => e.value)).toEqual(['small one fits']);
    await session.close();
  });

  it('a first prompt larger than the whole window (past 100,000 characters, length / 4)', async () => {
    const model = new ScriptedModel([textTurn('never')]);
    const agent = new GeminiCliAgent({ contentGenerator: model, builtinTools: false });
    const events = await collect(agent.sendStream('x'.repeat(4_200_000)));
    expect(events).toEqual([
      {
        type: 'context_window_will_overflow',
        value: { estimatedRequestTokenCount: 1_050_000, remainingTokenCount: 1_048_576 },
      },
    ]);
    expect(model.generateRequests).toHaveLength(0);
  });
});

describe('tool_call_response shapes (gemini-cli §3.3)', () => {
  it('errorType on every failure, with gemini-cli wording', async () => {
    const fail = tool(
      { name: 'fail', description: 'Fails', inputSchema: z.object({ n: z.number() }) },
      () => {
        throw new Error('unused');
      },
    );
    const model = new ScriptedModel([
      callTurn({ name: 'nope', args: {} }, { name: 'fail', args: {} }),
      textTurn('ok'),
    ]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      tools: [fail],
    });
    const events = await collect(agent.sendStream('go'));
    const responses = events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []));
    expect(responses.map((r) => [r.errorType, r.error?.message])).toEqual([
      ['tool_not_registered', 'Tool "nope" not found. Did you mean "fail"?'],
      ['invalid_tool_params', "params must have required property 'n'"],
    ]);
    expect(responses[1]?.responseParts).toEqual([
      {
        functionResponse: {
          id: responses[1]?.callId,
          name: 'fail',
          response: { error: "params must have required property 'n'" },
        },
      },
    ]);
  });

  it('a running call the signal aborts gets gemini-cli’s cancel text; one that never ran its queued text', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = tool(
      { name: 'slow', description: 'Waits', inputSchema: z.object({}) },
      (_args, ctx) =>
        new Promise((_resolve, reject) => {
          started();
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    );
    const model = new ScriptedModel([callTurn({ name: 'slow', args: {} }), textTurn('never')]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      tools: [slow],
    });
    const controller = new AbortController();
    void running.then(() => controller.abort());
    const events = await collect(agent.sendStream('go', controller.signal));
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.type === 'tool_call_response' && response.value.error?.message).toBe(
      '[Operation Cancelled] User cancelled tool execution.',
    );
    expect(events.at(-1)).toEqual({ type: 'user_cancelled' });
  });
});
