import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  tool,
  z,
  type AgentTool,
  type Feature,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function lastResponses(contents: unknown): unknown[] {
  const last = (contents as Content[]).at(-1);
  return (last?.parts ?? []).map((p) => p.functionResponse?.response);
}

const ran: Array<Record<string, unknown>> = [];
const write = tool(
  {
    name: 'note',
    description: 'Writes a note',
    inputSchema: z.object({ text: z.string() }),
  },
  (args) => {
    ran.push(args);
    return 'noted';
  },
);

function agentWith(model: ScriptedModel, options: GeminiCliAgentOptions): GeminiCliAgent {
  return new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    persist: false,
    tools: [write],
    ...options,
  });
}

describe('decision interceptors', () => {
  it('deny answers the model (type policy_violation unless given); the tool does not run', async () => {
    ran.length = 0;
    const guard: Feature = {
      name: 'guard',
      async interceptToolDecision(check, next) {
        if (String(check.args['text']).includes('secret')) {
          return { outcome: 'deny', message: 'No secrets in notes.' };
        }
        if (check.args['text'] === 'later')
          return { outcome: 'deny', message: 'Busy.', type: 'busy' };
        return next();
      },
    };
    const model = new ScriptedModel([
      callTurn(
        { name: 'note', args: { text: 'the secret is 42' } },
        { name: 'note', args: { text: 'later' } },
      ),
      (request) => {
        expect(lastResponses(request.contents)).toEqual([
          { error: 'No secrets in notes.' },
          { error: 'Busy.' },
        ]);
        return textTurn('ok');
      },
    ]);
    const events = await drain(
      agentWith(model, { features: [guard] })
        .session()
        .sendStream('go'),
    );
    const errors = events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value.error] : []));
    expect(errors).toEqual([
      { message: 'No secrets in notes.', type: 'policy_violation' },
      { message: 'Busy.', type: 'busy' },
    ]);
    expect(ran).toEqual([]);
  });

  it('rewritten arguments are what the policy checks and what the tool runs with', async () => {
    ran.length = 0;
    const redact: Feature = {
      name: 'redact',
      async interceptToolDecision(check, next) {
        const text = String(check.args['text']).replace(/\d+/g, '#');
        const validation = await check.tool.validate({ text });
        if (!validation.ok) return { outcome: 'deny', message: validation.error };
        return next({ ...check, args: validation.args });
      },
    };
    const model = new ScriptedModel([
      callTurn(
        { name: 'note', args: { text: 'call 555 1234' } },
        { name: 'note', args: { text: 'call #' } },
      ),
      textTurn('ok'),
    ]);
    const agent = agentWith(model, {
      features: [redact],
      // The policy sees the rewritten arguments: this rule catches both calls.
      policy: {
        rules: [{ toolName: 'note', argsPattern: 'call #', decision: 'deny', priority: 10 }],
      },
    });
    await drain(agent.session().sendStream('go'));
    expect(ran).toEqual([]);

    const model2 = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'pin 1234' } }),
      textTurn('ok'),
    ]);
    await drain(
      agentWith(model2, { features: [redact] })
        .session()
        .sendStream('go'),
    );
    expect(ran).toEqual([{ text: 'pin #' }]);
  });
});

describe('stop()', () => {
  it('from a tool interceptor: the results are stored, no further model call, the stream ends cleanly', async () => {
    const stopper: Feature = {
      name: 'stopper',
      async interceptTool(run, next) {
        const result = await next();
        run.emit({
          type: 'warning',
          value: { code: 'STOPPED', message: 'stopping here', source: 'stopper' },
        });
        run.stop();
        return result;
      },
    };
    const model = new ScriptedModel([callTurn({ name: 'note', args: { text: 'x' } })]);
    const session = agentWith(model, { features: [stopper] }).session();
    const events = await drain(session.sendStream('go'));
    expect(events.map((e) => e.type)).toEqual([
      'model_info',
      'tool_call_request',
      'finished',
      'warning',
      'tool_call_response',
    ]);
    expect(session.getHistory().map((c) => c.role)).toEqual(['user', 'model', 'user']);
    model.assertComplete();
    // The next prompt runs normally.
    model.push(textTurn('again'));
    expect((await session.send('more')).text).toBe('again');
  });

  it('from a model interceptor: calls of that turn are answered as cancelled, history stays valid', async () => {
    ran.length = 0;
    const stopper: Feature = {
      name: 'stopper',
      async interceptModel(call, next) {
        call.stop();
        return next();
      },
    };
    const model = new ScriptedModel([callTurn({ name: 'note', args: { text: 'x' } })]);
    const session = agentWith(model, { features: [stopper] }).session();
    await drain(session.sendStream('go'));
    expect(ran).not.toContainEqual({ text: 'x' });
    const last = session.getHistory().at(-1);
    expect(last?.role).toBe('user');
    expect(last?.parts?.[0]?.functionResponse?.response).toMatchObject({
      error: expect.stringContaining('Cancelled'),
    });
  });
});

describe('turn interceptors', () => {
  it('rewrite the prompt, retry with a new prompt, or end the turn without running the loop', async () => {
    let retried = false;
    const turns: Feature = {
      name: 'turns',
      async *interceptTurn(turn, next) {
        const text = turn.prompt?.[0]?.text ?? '';
        if (text === 'skip') {
          yield { type: 'warning', value: { code: 'SKIPPED', message: 'skipped' } };
          return;
        }
        yield* next({ ...turn, prompt: [{ text: `${text}!` }] });
        if (text === 'retry' && !retried) {
          retried = true;
          yield* next({ ...turn, prompt: [{ text: 'second try' }] });
        }
      },
    };
    const model = new ScriptedModel([textTurn('one'), textTurn('two'), textTurn('three')]);
    const session = agentWith(model, { features: [turns] }).session();
    expect((await session.send('hello')).text).toBe('one');
    const skipped = await drain(session.sendStream('skip'));
    expect(skipped).toEqual([{ type: 'warning', value: { code: 'SKIPPED', message: 'skipped' } }]);
    expect((await session.send('retry')).text).toBe('twothree');
    const prompts = session
      .getHistory()
      .filter((c) => c.role === 'user')
      .map((c) => c.parts?.[0]?.text);
    expect(prompts).toEqual(['hello!', 'retry!', 'second try']);
  });
});

describe('emit', () => {
  it('a tool reports progress into the stream; a warning from initialize reaches the first stream', async () => {
    const slow: AgentTool = {
      name: 'slow',
      displayName: 'Slow',
      description: 'Takes a while',
      kind: 'read',
      parametersJsonSchema: { type: 'object', properties: {} },
      validate: (args) => ({ ok: true, args }),
      describe: () => 'slow',
      async execute(_args, _ctx, call) {
        call.emit?.({
          type: 'tool_progress',
          value: { callId: call.callId, name: 'slow', progress: 1, total: 2 },
        });
        return { llmContent: 'done' };
      },
    };
    const feature: Feature = {
      name: 'noisy',
      tools: [slow],
      initialize(session) {
        session.emit({
          type: 'warning',
          value: { code: 'SERVER_DOWN', message: 'server x did not start', source: 'noisy' },
        });
      },
    };
    const model = new ScriptedModel([callTurn({ name: 'slow', args: {} }), textTurn('ok')]);
    const session = agentWith(model, { features: [feature] }).session();
    await session.initialize();
    const events = await drain(session.sendStream('go'));
    expect(events[0]).toEqual({
      type: 'warning',
      value: { code: 'SERVER_DOWN', message: 'server x did not start', source: 'noisy' },
    });
    const progress = events.findIndex((e) => e.type === 'tool_progress');
    const response = events.findIndex((e) => e.type === 'tool_call_response');
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(response);
  });
});

describe('lifecycle', () => {
  it('a failing initialize undoes the features set up before it; a failing dispose is reported after all ran', async () => {
    const log: string[] = [];
    const good = (name: string, failOnDispose = false): Feature => ({
      name,
      initialize() {
        log.push(`init ${name}`);
        return () => {
          log.push(`dispose ${name}`);
          if (failOnDispose) throw new Error(`${name} would not stop`);
        };
      },
    });
    const broken: Feature = {
      name: 'broken',
      initialize() {
        throw new Error('cannot connect');
      },
    };
    const model = new ScriptedModel([]);
    const failing = agentWith(model, { features: [good('a'), good('b'), broken] }).session();
    await expect(failing.initialize()).rejects.toThrow('cannot connect');
    expect(log).toEqual(['init a', 'init b', 'dispose b', 'dispose a']);

    log.length = 0;
    const agent = agentWith(model, { features: [good('a', true), good('b')] });
    const session = agent.session();
    await session.initialize();
    await expect(session.close()).rejects.toMatchObject({
      code: 'FEATURE_DISPOSE_FAILED',
      message: expect.stringContaining('a would not stop'),
    });
    expect(log).toEqual(['init a', 'init b', 'dispose b', 'dispose a']);
    // The lease was released anyway: the session can be resumed.
    await expect(agent.resumeSession(session.id)).resolves.toBeDefined();
  });

  it('rejects malformed features with a ConfigurationError naming the part', () => {
    const bad = (features: unknown) => () =>
      new GeminiCliAgent({ features: features as Feature[] }).session();
    expect(bad('x')).toThrow(ConfigurationError);
    expect(bad([{}])).toThrow('features[0] needs a non-empty name.');
    expect(bad([{ name: 'f', interceptTool: 'nope' }])).toThrow(
      'Feature "f": interceptTool must be a function.',
    );
    expect(bad([{ name: 'f', tools: 3 }])).toThrow('Feature "f": tools must be an array');
  });
});
