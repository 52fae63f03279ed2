import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  ModelVisibleError,
  SessionNotFoundError,
  tool,
  z,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/gemini-cli-sdk-test-data/${name}.json`, import.meta.url));

async function collect(stream: AsyncIterable<ServerGeminiStreamEvent>): Promise<{
  events: ServerGeminiStreamEvent[];
  text: string;
}> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const text = events.map((e) => (e.type === 'content' ? e.value : '')).join('');
  return { events, text };
}

describe('reference SDK scenarios replayed from gemini-cli recordings', () => {
  it('static instructions: a pirate greeting', async () => {
    const agent = new GeminiCliAgent({
      instructions: 'You are a pirate. Respond in pirate speak.',
      model: 'gemini-2.0-flash',
      fakeResponses: fixture('agent-static-instructions'),
    });
    const session = agent.session();
    expect(session.id).toMatch(/^[0-9a-f-]{36}$/i);
    const { text, events } = await collect(session.sendStream('Say hello.'));
    expect(text.toLowerCase()).toMatch(/ahoy|matey|arrr/);
    expect(events[0]).toEqual({ type: 'model_info', value: 'gemini-2.0-flash' });
    expect(events.at(-1)?.type).toBe('finished');
  });

  it('dynamic instructions: called once per model call, with a fresh context', async () => {
    let calls = 0;
    const seen: string[] = [];
    const agent = new GeminiCliAgent({
      instructions: (ctx) => {
        calls++;
        seen.push(ctx.sessionId);
        return `Secret number is ${calls}`;
      },
      model: 'gemini-2.0-flash',
      fakeResponses: fixture('agent-dynamic-instructions'),
    });
    const session = agent.session();
    expect((await collect(session.sendStream('What is the secret number?'))).text).toContain('1');
    expect((await collect(session.sendStream('What is the secret number now?'))).text).toContain(
      '2',
    );
    expect(calls).toBe(2);
    expect(seen).toEqual([session.id, session.id]);
  });

  it('async instructions work like sync ones', async () => {
    const agent = new GeminiCliAgent({
      instructions: async () => 'The secret number is 1.',
      fakeResponses: fixture('agent-async-instructions'),
    });
    const { text } = await collect(agent.session().sendStream('What is the secret number?'));
    expect(text).toContain('1');
  });

  it('resumes a session with its history', async () => {
    const agent = new GeminiCliAgent({
      instructions: 'Remember the word "BANANA".',
      model: 'gemini-2.0-flash',
      fakeResponses: fixture('agent-resume-session'),
    });
    const first = agent.session({ sessionId: 'resume-test-fixed-id' });
    expect((await collect(first.sendStream('What is the word?'))).text).toContain('BANANA');
    const resumed = await agent.resumeSession(first.id);
    expect(resumed.id).toBe('resume-test-fixed-id');
    expect(resumed.getHistory()).toEqual(first.getHistory());
    const { text } = await collect(resumed.sendStream('What is the word again?'));
    expect(text).toContain('BANANA');
    expect(resumed.getHistory()).toHaveLength(4);
  });

  it('resumeSession of an unknown id throws SessionNotFoundError', async () => {
    const agent = new GeminiCliAgent({ fakeResponses: fixture('agent-resume-session') });
    await expect(agent.resumeSession('nope')).rejects.toThrow(SessionNotFoundError);
    await expect(agent.resumeSession('nope')).rejects.toThrow('Session with ID nope not found');
  });

  it('invalid instructions throw; missing instructions are fine', () => {
    expect(() => new GeminiCliAgent({} as never).session()).not.toThrow();
    expect(() => new GeminiCliAgent({ instructions: 123 as unknown as string }).session()).toThrow(
      'Instructions must be a string or a function.',
    );
  });

  it('an error thrown by dynamic instructions rejects the stream before any model call', async () => {
    const agent = new GeminiCliAgent({
      instructions: () => {
        throw new Error('Dynamic instruction failure');
      },
      fakeResponses: fixture('agent-static-instructions'),
    });
    await expect(collect(agent.session().sendStream('Say hello.'))).rejects.toThrow(
      'Dynamic instruction failure',
    );
  });

  it('tool success: add runs with the recorded args and the model answers 8', async () => {
    const calls: Array<{ a: number; b: number }> = [];
    const agent = new GeminiCliAgent({
      instructions: 'You are a helpful assistant.',
      fakeResponses: fixture('tool-success'),
      tools: [
        tool(
          {
            name: 'add',
            description: 'Adds two numbers',
            inputSchema: z.object({ a: z.number(), b: z.number() }),
          },
          async (args) => {
            calls.push(args);
            return args.a + args.b;
          },
        ),
      ],
    });
    const { text, events } = await collect(agent.session().sendStream('What is 5 + 3?'));
    expect(calls).toEqual([{ a: 5, b: 3 }]);
    expect(text).toContain('8');
    const request = events.find((e) => e.type === 'tool_call_request');
    expect(request?.value).toMatchObject({
      name: 'add',
      args: { a: 5, b: 3 },
      isClientInitiated: false,
    });
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.type === 'tool_call_response' && response.value.responseParts).toEqual([
      {
        functionResponse: {
          id: (request?.value as { callId: string }).callId,
          name: 'add',
          response: { output: '8' },
        },
      },
    ]);
  });

  it('ModelVisibleError: the model sees the message and quotes it', async () => {
    const inputs: string[] = [];
    const agent = new GeminiCliAgent({
      instructions: 'You are a helpful assistant.',
      fakeResponses: fixture('tool-error-recovery'),
      tools: [
        tool(
          {
            name: 'failVisible',
            description: 'Fails with a visible error if input is "fail"',
            inputSchema: z.object({ input: z.string() }),
          },
          async ({ input }) => {
            inputs.push(input);
            if (input === 'fail') throw new ModelVisibleError('Tool failed visibly');
            return 'Success';
          },
        ),
      ],
    });
    const { text, events } = await collect(
      agent
        .session()
        .sendStream('Call the tool with "fail". If it fails, tell me the error message.'),
    );
    expect(inputs).toEqual(['fail']);
    expect(text).toContain('Tool failed visibly');
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.value).toMatchObject({ error: { message: 'Tool failed visibly' } });
  });

  it('sendErrorsToModel: a plain Error reaches the model as { error }', async () => {
    let runs = 0;
    const agent = new GeminiCliAgent({
      instructions: 'You are a helpful assistant.',
      fakeResponses: fixture('tool-catchall-error'),
      tools: [
        tool(
          {
            name: 'checkSystemStatus',
            description: 'Checks the current system status',
            inputSchema: z.object({}),
            sendErrorsToModel: true,
          },
          async () => {
            runs++;
            throw new Error('Standard error caught');
          },
        ),
      ],
    });
    const { text, events } = await collect(
      agent.session().sendStream('Check the system status and report any errors.'),
    );
    expect(runs).toBe(1);
    expect(text.toLowerCase()).toContain('error');
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(
      response?.type === 'tool_call_response' && response.value.responseParts[0],
    ).toMatchObject({
      functionResponse: { name: 'checkSystemStatus', response: { error: 'Standard error caught' } },
    });
  });
});
