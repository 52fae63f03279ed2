import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  GeminiCliSession,
  SessionBusyError,
  tool,
  z,
  type SessionContext,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from './history-assertions.js';

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

describe('limits', () => {
  it('maxTurns ends the stream with max_session_turns and a valid history', async () => {
    let runs = 0;
    const step = tool(
      { name: 'step', description: 's', inputSchema: z.object({ i: z.number() }) },
      () => ++runs,
    );
    const model = new ScriptedModel([
      callTurn({ name: 'step', args: { i: 1 } }),
      callTurn({ name: 'step', args: { i: 2 } }),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [step],
      limits: { maxTurns: 2 },
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(events.at(-1)).toEqual({ type: 'max_session_turns' });
    expect(runs).toBe(2);
    model.push((req) => {
      expectValidContents(req.contents as never);
      return textTurn('ok');
    });
    expect((await session.send('continue')).text).toBe('ok');
  });

  it('the same call 5 times in a row ends with loop_detected (the 5th does not run)', async () => {
    let runs = 0;
    const ping = tool(
      { name: 'ping', description: 'p', inputSchema: z.object({ x: z.number(), y: z.number() }) },
      () => ++runs,
    );
    const model = new ScriptedModel([
      callTurn({ name: 'ping', args: { x: 1, y: 2 } }),
      callTurn({ name: 'ping', args: { y: 2, x: 1 } }),
      callTurn({ name: 'ping', args: { x: 1, y: 2 } }),
      callTurn({ name: 'ping', args: { x: 1, y: 2 } }),
      callTurn({ name: 'ping', args: { x: 1, y: 2 } }),
    ]);
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [ping],
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(events.at(-1)).toEqual({ type: 'loop_detected' });
    expect(runs).toBe(4);
    model.push((req) => {
      expectValidContents(req.contents as never);
      return textTurn('ok');
    });
    expect((await session.send('stop looping')).text).toBe('ok');
  });

  it('rejects bad limits', () => {
    expect(() =>
      new GeminiCliAgent({ builtinTools: false, limits: { maxTurns: 0 } }).session(),
    ).toThrow(ConfigurationError);
    expect(() =>
      new GeminiCliAgent({ builtinTools: false, limits: { toolTimeoutMs: -1 } }).session(),
    ).toThrow(ConfigurationError);
  });
});

describe('sessions', () => {
  it('a second sendStream while one runs gets SessionBusyError; history is never interleaved', async () => {
    const model = new ScriptedModel([textTurn('one'), textTurn('two')], { chunkDelayMs: 10 });
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
    }).session();
    const first = session.sendStream('first');
    const firstEvent = await first.next();
    expect(firstEvent.done).toBe(false);
    await expect(session.sendStream('second').next()).rejects.toBeInstanceOf(SessionBusyError);
    for await (const _ of first) void _;
    expect((await session.send('second')).text).toBe('two');
    expect(session.getHistory().map((c) => c.role)).toEqual(['user', 'model', 'user', 'model']);
  });

  it('initialize() is idempotent and lazy; session ids default to UUIDs', async () => {
    const model = new ScriptedModel([textTurn('hi')]);
    const agent = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
    });
    const session = agent.session();
    expect(session).toBeInstanceOf(GeminiCliSession);
    expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(agent.session({ sessionId: 'mine' }).id).toBe('mine');
    await Promise.all([session.initialize(), session.initialize()]);
    await session.initialize();
    expect((await session.send('hi')).text).toBe('hi');
  });

  it('rejects an empty prompt with a ConfigurationError', async () => {
    const session = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: new ScriptedModel([]),
    }).session();
    await expect(session.sendStream('').next()).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('tools get a fresh SessionContext: transcript copy, cwd, timestamp, fs, shell, agent, session, signal', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ctx-'));
    await writeFile(path.join(dir, 'note.txt'), 'hello file');
    const seen: Array<{ ctx: SessionContext; file: string | null; out: string; err: string }> = [];
    const inspect = tool(
      { name: 'inspect', description: 'i', inputSchema: z.object({}) },
      async (_a, ctx) => {
        const file = await ctx.fs.readFile('note.txt');
        const res = await ctx.shell.exec('echo out; echo err 1>&2');
        seen.push({ ctx, file, out: res.stdout, err: res.stderr });
        return 'ok';
      },
    );
    const model = new ScriptedModel([
      callTurn({ name: 'inspect' }),
      callTurn({ name: 'inspect' }),
      textTurn('done'),
    ]);
    const agent = new GeminiCliAgent({
      builtinTools: false,
      contentGenerator: model,
      retry: false,
      tools: [inspect],
      cwd: dir,
      // ctx.shell commands pass the policy like run_shell_command (they ask by default): allow `echo`.
      policy: {
        rules: [{ toolName: 'run_shell_command', commandPrefix: 'echo', decision: 'allow' }],
      },
    });
    const session = agent.session({ sessionId: 'ctx-session' });
    await drain(session.sendStream('look'));
    expect(seen).toHaveLength(2);
    const [a, b] = seen as [(typeof seen)[0], (typeof seen)[0]];
    expect(a.ctx.sessionId).toBe('ctx-session');
    expect(a.ctx.cwd).toBe(await realpath(dir));
    expect(a.ctx.agent).toBe(agent);
    expect(a.ctx.session).toBe(session);
    expect(a.ctx.signal).toBeInstanceOf(AbortSignal);
    expect(new Date(a.ctx.timestamp).toISOString()).toBe(a.ctx.timestamp);
    expect(a.file).toBe('hello file');
    expect(a.out.trim()).toBe('out');
    expect(a.err.trim()).toBe('err');
    expect(a.ctx.transcript).toHaveLength(2);
    expect(b.ctx.transcript).toHaveLength(4);
    expect(Object.isFrozen(a.ctx.transcript)).toBe(true);
    expect(b.ctx).not.toBe(a.ctx);
    // The transcript is a copy: the session's history is unaffected by it.
    (a.ctx.transcript[0]?.parts ?? []).push({ text: 'tampered' });
    expect(JSON.stringify(session.getHistory())).not.toContain('tampered');
  });
});
