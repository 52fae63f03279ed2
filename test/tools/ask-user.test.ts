/**
 * gemini-cli's ask_user through the real @google/genai client against FakeGeminiServer on loopback: offered only
 * with an onAskUser handler (in every mode), gemini's declaration and validation messages, the answers and the
 * dismissal as the model sees them, and every way the handler can go wrong (throw, wrong shape, abort) ending in a
 * result the model sees, never a hang.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  type AskUserHandler,
  type AskUserRequest,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
  type ToolCallResponseInfo,
} from '../../src/index.js';
import {
  FakeGeminiServer,
  type FakeGeminiRequest,
  type FakeGeminiTurn,
} from '../../src/testing/index.js';

function turn(parts: object[]): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    } as GenerateContentResponse,
  ];
}
const ask = (args: object) => turn([{ functionCall: { name: 'ask_user', args, id: 'ask-1' } }]);
const done = turn([{ text: 'ok' }]);

interface Body {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  tools?: Array<{
    functionDeclarations?: Array<{ name: string; parametersJsonSchema?: Record<string, unknown> }>;
  }>;
}
const declarations = (r: FakeGeminiRequest | undefined) =>
  ((r?.body as Body).tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
const declared = (r: FakeGeminiRequest | undefined) => declarations(r).map((d) => d.name);
const toolResponse = (r: FakeGeminiRequest | undefined) =>
  (r?.body as Body).contents.at(-1)?.parts[0]?.['functionResponse'] as {
    name: string;
    response: Record<string, unknown>;
  };

const QUESTIONS = [
  {
    question: 'Which auth?\\nPick one.',
    header: 'Auth',
    type: 'choice',
    options: [
      { label: 'OAuth 2.0', description: ' Industry standard ' },
      { label: 'API key', description: '' },
    ],
    multiSelect: true,
  },
  { question: 'Anything else?', header: 'Notes', type: 'text', placeholder: 'e.g. SSO' },
  { question: 'Ship it?', header: 'Ship', type: 'yesno' },
];

let root: string;
let server: FakeGeminiServer;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gemini-agent-ask-'));
  await mkdir(join(root, 'project'));
  await mkdir(join(root, 'home'));
  process.env['GEMINI_CLI_HOME'] = join(root, 'home');
});
afterEach(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

async function run(
  turns: FakeGeminiTurn[],
  options: Partial<GeminiCliAgentOptions> = {},
  signal?: AbortSignal,
): Promise<ServerGeminiStreamEvent[]> {
  server = new FakeGeminiServer({ turns });
  const agent = new GeminiCliAgent({
    cwd: join(root, 'project'),
    apiKey: 'test-key',
    baseUrl: await server.start(),
    retry: false,
    skillDiscovery: false,
    agentDiscovery: false,
    ...options,
  });
  const session = agent.session();
  const events: ServerGeminiStreamEvent[] = [];
  try {
    for await (const event of session.sendStream('go', signal)) events.push(event);
  } finally {
    await session.close();
    await agent.close();
  }
  return events;
}

const response = (events: ServerGeminiStreamEvent[]): ToolCallResponseInfo | undefined =>
  events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []))[0];

describe('ask_user', () => {
  it("is offered only with an onAskUser handler, in every approval mode, with gemini-cli's declaration", async () => {
    for (const mode of ['default', 'yolo', 'plan'] as const) {
      await run([done], { policy: { mode } });
      expect(declared(server.requests[0])).not.toContain('ask_user');
      await run([done], { policy: { mode }, onAskUser: () => ({ cancelled: true }) });
      expect(declared(server.requests[0])).toContain('ask_user');
    }
    const declaration = declarations(server.requests[0]).find((d) => d.name === 'ask_user');
    expect(declaration?.parametersJsonSchema).toMatchObject({
      required: ['questions'],
      properties: {
        questions: {
          minItems: 1,
          maxItems: 4,
          items: {
            required: ['question', 'header', 'type'],
            properties: { type: { enum: ['choice', 'text', 'yesno'], default: 'choice' } },
          },
        },
      },
    });
  });

  it('hands the handler the normalised questions and sends the answers back as gemini does', async () => {
    const seen: AskUserRequest[] = [];
    const events = await run([ask({ questions: QUESTIONS }), done], {
      onAskUser: (request) => {
        seen.push(request);
        return { answers: { '0': 'OAuth 2.0, API key', '1': '  ', '2': 'Yes\nbut later' } };
      },
    });
    expect(seen).toHaveLength(1);
    const request = events.find((e) => e.type === 'tool_call_request');
    expect(request?.type === 'tool_call_request' && seen[0]?.callId).toBe(
      request?.type === 'tool_call_request' && request.value.callId,
    );
    expect(seen[0]?.questions).toEqual([
      {
        question: 'Which auth?\nPick one.',
        header: 'Auth',
        type: 'choice',
        options: [
          { label: 'OAuth 2.0', description: 'Industry standard' },
          { label: 'API key', description: '' },
        ],
        multiSelect: true,
      },
      { question: 'Anything else?', header: 'Notes', type: 'text', placeholder: 'e.g. SSO' },
      { question: 'Ship it?', header: 'Ship', type: 'yesno' },
    ]);
    // A blank answer is no answer (gemini's dialog drops it).
    expect(toolResponse(server.requests[1])).toEqual({
      id: 'ask-1',
      name: 'ask_user',
      response: {
        output: JSON.stringify({ answers: { '0': 'OAuth 2.0, API key', '2': 'Yes\nbut later' } }),
      },
    });
    expect(response(events)?.resultDisplay).toBe(
      '**User answered:**\n  Auth → OAuth 2.0, API key\n  Ship → Yes\n         but later',
    );
    expect(response(events)?.description).toBe(
      'Asking user: Which auth?\\nPick one., Anything else?, Ship it?',
    );
  });

  it("a dismissal and an empty submission are gemini-cli's texts", async () => {
    let events = await run([ask({ questions: QUESTIONS.slice(1) }), done], {
      onAskUser: async () => ({ cancelled: true }),
    });
    expect(toolResponse(server.requests[1]).response).toEqual({
      output: 'User dismissed ask_user dialog without answering.',
    });
    expect(response(events)?.resultDisplay).toBe('User dismissed dialog');
    events = await run([ask({ questions: QUESTIONS.slice(1) }), done], {
      onAskUser: () => ({ answers: {} }),
    });
    expect(toolResponse(server.requests[1]).response).toEqual({ output: '{"answers":{}}' });
    expect(response(events)?.resultDisplay).toBe('User submitted without answering questions.');
  });

  it.each([
    [{ questions: [] }, 'params/questions must NOT have fewer than 1 items'],
    [
      { questions: [{ question: 'Q?', type: 'text' }] },
      "params/questions/0 must have required property 'header'",
    ],
    [
      {
        questions: [
          {
            question: 'Q?',
            header: 'H',
            type: 'choice',
            options: [{ label: 'a', description: '' }],
          },
        ],
      },
      "Question 1: type='choice' requires 'options' array with 2-4 items.",
    ],
    [
      {
        questions: [
          { question: 'Q?', header: 'H', type: 'text' },
          {
            question: 'R?',
            header: 'H',
            type: 'choice',
            options: ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label, description: '' })),
          },
        ],
      },
      "Question 2: 'options' array must have at most 4 items.",
    ],
    [
      {
        questions: [
          {
            question: 'Q?',
            header: 'H',
            type: 'choice',
            options: [
              { label: 'a', description: '' },
              { label: '  ', description: '' },
            ],
          },
        ],
      },
      "Question 1, option 2: 'label' is required and must be a non-empty string.",
    ],
  ])('invalid questions %j never reach the handler: %s', async (args, message) => {
    let asked = 0;
    await run([ask(args), done], {
      onAskUser: () => {
        asked += 1;
        return { cancelled: true };
      },
    });
    expect(asked).toBe(0);
    expect(toolResponse(server.requests[1]).response).toEqual({ error: message });
  });

  it.each<[string, AskUserHandler, string]>([
    [
      'throws',
      () => {
        throw new Error('terminal closed');
      },
      'Could not ask the user: the onAskUser handler failed: terminal closed',
    ],
    [
      'rejects',
      () => Promise.reject(new Error('no tty')),
      'Could not ask the user: the onAskUser handler failed: no tty',
    ],
    [
      'returns a string',
      (() => 'OAuth') as unknown as AskUserHandler,
      'Could not ask the user: onAskUser returned "OAuth"; it must return { answers: { "<question index>": "<answer>" } } or { cancelled: true }.',
    ],
    [
      'answers a question that was not asked',
      () => ({ answers: { '3': 'x' } }),
      'Could not ask the user: onAskUser answered question "3", but there are 2 questions (keys "0" to "1"); it must return { answers: { "<question index>": "<answer>" } } or { cancelled: true }.',
    ],
    [
      'answers with a number',
      (() => ({ answers: { '0': 42 } })) as unknown as AskUserHandler,
      'Could not ask the user: onAskUser returned {"answers":{"0":42}}; it must return { answers: { "<question index>": "<answer>" } } or { cancelled: true }.',
    ],
  ])('a handler that %s is an error the model sees', async (_what, handler, message) => {
    const events = await run([ask({ questions: QUESTIONS.slice(1) }), done], {
      onAskUser: handler,
    });
    expect(toolResponse(server.requests[1]).response).toEqual({ error: message });
    expect(events.at(-1)?.type).toBe('finished');
    if (!message.includes('handler failed')) {
      expect(events).toContainEqual({
        type: 'warning',
        value: {
          code: 'ASK_USER_BAD_ANSWER',
          message: message.replace('Could not ask the user: ', ''),
          source: 'ask_user',
        },
      });
    }
  });

  it('an abort while the handler waits cancels the call and ends the stream (the handler is told)', async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const events = await run(
      [ask({ questions: QUESTIONS.slice(1) }), done],
      {
        onAskUser: (_request, { signal }) => {
          handlerSignal = signal;
          setImmediate(() => controller.abort());
          return new Promise(() => undefined); // never answers
        },
      },
      controller.signal,
    ).catch((error: unknown) => [{ type: 'error', value: error } as never]);
    expect(handlerSignal?.aborted).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(response(events)?.errorType).toBe('cancelled');
    expect(events.at(-1)?.type).toBe('user_cancelled');
  });

  it('a rule the developer writes still decides (a deny hides the tool)', async () => {
    await run([done], {
      onAskUser: () => ({ cancelled: true }),
      policy: { rules: [{ toolName: 'ask_user', decision: 'deny' }] },
    });
    expect(declared(server.requests[0])).not.toContain('ask_user');
  });

  it('onAskUser must be a function', () => {
    expect(() => new GeminiCliAgent({ onAskUser: 'yes' as never })).toThrow(/onAskUser/);
  });
});
