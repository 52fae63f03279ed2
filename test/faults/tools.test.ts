/**
 * Fault catalogue — tools that throw, hang or are aborted, and a process killed (`kill -9`) mid-turn: each ends
 * with the event the user sees, and the history a new agent resumes from disk is the live one and valid for the
 * API (every call answered once). kill -9 while tools run: `test/scenarios/sessions-crash.test.ts`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  ModelVisibleError,
  ToolExecutionError,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ToolCallResponseInfo,
} from '../../src/index.js';
import { buildRequestContents } from '../../src/loop/request-contents.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from '../scenarios/history-assertions.js';
import { runChild, SDK_ENTRY, type ChildScript } from '../scenarios/sessions-child-process.js';
import { collect, expectStoredHistory, ofType, tempProject } from './fault-helpers.js';

const children: ChildScript[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
});

function agent(cwd: string, model: ScriptedModel, extra: GeminiCliAgentOptions = {}) {
  return new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    builtinTools: false,
    skillDiscovery: false,
    retry: false,
    ...extra,
  });
}

const errorOf = (r: ToolCallResponseInfo | undefined): unknown =>
  (r?.responseParts[0]?.functionResponse?.response as { error?: unknown } | undefined)?.error;

describe('tools that fail', () => {
  it('a ModelVisibleError goes to the model as the answer; the turn goes on', async () => {
    const cwd = await tempProject();
    const picky = tool({ name: 'picky', description: 'Refuses', inputSchema: z.object({}) }, () => {
      throw new ModelVisibleError('Try a smaller number.');
    });
    const model = new ScriptedModel([callTurn({ name: 'picky' }), textTurn('I will.')]);
    const session = agent(cwd, model, { tools: [picky] }).session();
    const { events, error } = await collect(session.sendStream('go'));
    expect(error).toBeUndefined();
    expect(errorOf(ofType(events, 'tool_call_response')[0]?.value)).toBe('Try a smaller number.');
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('any other throw rejects with ToolExecutionError; every call of the turn is answered on disk', async () => {
    const cwd = await tempProject();
    const boom = tool({ name: 'boom', description: 'Fails', inputSchema: z.object({}) }, () => {
      throw new Error('secret detail');
    });
    const ok = tool({ name: 'ok', description: 'Works', inputSchema: z.object({}) }, () => 'fine');
    const model = new ScriptedModel([callTurn({ name: 'boom' }, { name: 'ok' })]);
    const session = agent(cwd, model, { tools: [boom, ok] }).session();
    const { events, error } = await collect(session.sendStream('go'));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(ofType(events, 'tool_call_response')).toHaveLength(2);
    const history = session.getHistory();
    expect(history.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(JSON.stringify(history)).not.toContain('secret detail');
    await session.close();
    await expectStoredHistory(cwd, session.id, history);
  });

  it('a tool hung past limits.toolTimeoutMs is stopped and answered with the timeout', async () => {
    const cwd = await tempProject();
    let aborted = false;
    const hang = tool(
      { name: 'hang', description: 'Hangs', inputSchema: z.object({}) },
      (_, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise<string>(() => undefined);
      },
    );
    const model = new ScriptedModel([callTurn({ name: 'hang' }), textTurn('It timed out.')]);
    const session = agent(cwd, model, { tools: [hang], limits: { toolTimeoutMs: 50 } }).session();
    const { events, error } = await collect(session.sendStream('go'));
    expect(error).toBeUndefined();
    expect(errorOf(ofType(events, 'tool_call_response')[0]?.value)).toBe(
      'Tool "hang" timed out after 50 ms and was stopped.',
    );
    expect(aborted).toBe(true);
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('an abort while a tool runs ends with user_cancelled; the call is answered as cancelled on disk', async () => {
    const cwd = await tempProject();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = tool({ name: 'wait', description: 'Waits', inputSchema: z.object({}) }, () => {
      started();
      return new Promise<string>(() => undefined); // ignores the signal: the loop must still end
    });
    const model = new ScriptedModel([callTurn({ name: 'wait' })]);
    const session = agent(cwd, model, { tools: [wait] }).session();
    const controller = new AbortController();
    void running.then(() => controller.abort());
    const { events, error } = await collect(session.sendStream('go', controller.signal));
    expect(error).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'user_cancelled' });
    expect(ofType(events, 'tool_call_response')[0]?.value.error?.type).toBe('cancelled');
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });
});

describe('kill -9 mid-turn', () => {
  it('while the model call is in flight: the prompt is on disk, a resume continues with a valid request', async () => {
    const cwd = await tempProject();
    const child = await runChild(
      cwd,
      'killed-mid-model-call',
      `
import { GeminiCliAgent } from ${JSON.stringify(SDK_ENTRY)};
import { ScriptedModel, textTurn } from ${JSON.stringify(SDK_ENTRY.replace('index.ts', 'testing/index.ts'))};
const model = new ScriptedModel([
  textTurn('first answer'),
  () => {
    console.log('model-called');
    setInterval(() => undefined, 1000);
    return new Promise(() => undefined);
  },
]);
const agent = new GeminiCliAgent({ cwd: ${JSON.stringify(cwd)}, contentGenerator: model,
  builtinTools: false, skillDiscovery: false, retry: false });
const session = agent.session({ sessionId: 'killed-mid-call' });
await session.send('first prompt');
await session.send('second prompt');
`,
    );
    children.push(child);
    await child.waitFor('model-called');
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    const model = new ScriptedModel([
      (request) => {
        expectValidContents(request.contents as never);
        return textTurn('after the crash');
      },
    ]);
    const session = await agent(cwd, model).resumeSession('killed-mid-call');
    const texts = session.getHistory().map((c) => c.parts?.[0]?.text);
    expect(texts.slice(0, 3)).toEqual(['first prompt', 'first answer', 'second prompt']);
    expectValidContents(buildRequestContents(session.getHistory()));
    expect((await session.send('third prompt')).text).toBe('after the crash');
    await session.close();
    await expectStoredHistory(cwd, 'killed-mid-call', session.getHistory());
  });
});
