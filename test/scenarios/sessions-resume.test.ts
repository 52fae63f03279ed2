import type { Content } from '@google/genai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  MemorySessionStore,
  SessionError,
  SessionNotFoundError,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import {
  FakeGeminiServer,
  ScriptedModel,
  callTurn,
  modelTurn,
  textTurn,
} from '../../src/testing/index.js';
import { expectValidContents } from './history-assertions.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/gemini-cli-sdk-test-data/${name}.json`, import.meta.url));

async function drain(stream: AsyncIterable<ServerGeminiStreamEvent>): Promise<string> {
  let text = '';
  for await (const e of stream) if (e.type === 'content') text += e.value;
  return text;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gas-sessions-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const add = tool(
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
  },
  ({ a, b }) => a + b,
);

describe('sessions stored in gemini-cli files, resumed exactly', () => {
  it("the reference resume scenario: line 1 'BANANA', the resumed session replays from line 1 again", async () => {
    const cwd = await project();
    const options: GeminiCliAgentOptions = {
      instructions: 'Remember the word "BANANA".',
      model: 'gemini-2.0-flash',
      fakeResponses: fixture('agent-resume-session'),
      cwd,
    };
    const agent = new GeminiCliAgent(options);
    const first = agent.session({ sessionId: 'resume-test-fixed-id' });
    expect(await drain(first.sendStream('What is the word?'))).toContain('BANANA');

    // Stored in gemini-cli's layout under GEMINI_CLI_HOME (the test setup's temp home, never the real one).
    const home = process.env['GEMINI_CLI_HOME'] as string;
    const slug = JSON.parse(await readFile(join(home, '.gemini', 'projects.json'), 'utf8'))
      .projects as Record<string, string>;
    const chats = join(home, '.gemini', 'tmp', Object.values(slug).at(-1) as string, 'chats');
    const files = (await readdir(chats)).filter((f) => f.endsWith('.jsonl'));
    expect(files.some((f) => /^session-\d{4}-\d\d-\d\dT\d\d-\d\d-resume-t\.jsonl$/.test(f))).toBe(
      true,
    );

    // Same agent, as the reference test does: the idle first session hands its lease over.
    const resumed = await agent.resumeSession('resume-test-fixed-id');
    expect(resumed.getHistory()).toEqual(first.getHistory());
    expect(await drain(resumed.sendStream('What is the word again?'))).toContain('BANANA');
    expect(resumed.getHistory()).toHaveLength(4);
    await expect(drain(first.sendStream('still there?'))).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
    });
    await resumed.close();

    // A fresh agent (a restart) resumes the four turns; session({ sessionId }) of a stored id continues it too.
    const again = await new GeminiCliAgent(options).resumeSession('resume-test-fixed-id');
    expect(again.getHistory()).toEqual(resumed.getHistory());
    await again.close();
    const reuse = new GeminiCliAgent(options).session({ sessionId: 'resume-test-fixed-id' });
    await reuse.initialize();
    expect(reuse.getHistory()).toEqual(resumed.getHistory());
    expect(await drain(reuse.sendStream('And once more?'))).toContain('BANANA');
    expect(reuse.getHistory()).toHaveLength(6);
    await reuse.close();
    const stored = await new GeminiCliAgent(options).resumeSession('resume-test-fixed-id');
    expect(stored.getHistory()).toEqual(reuse.getHistory());
    await stored.close();
  });

  it('session({ sessionId }) of an id this agent holds idle takes it over; a new id starts empty', async () => {
    const cwd = await project();
    const agent = new GeminiCliAgent({ cwd, fakeResponses: fixture('agent-resume-session') });
    const first = agent.session({ sessionId: 'chosen-id' });
    await drain(first.sendStream('What is the word?'));
    const second = agent.session({ sessionId: 'chosen-id' });
    await second.initialize();
    expect(second.getHistory()).toEqual(first.getHistory());
    await expect(drain(first.sendStream('still there?'))).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
    });
    await second.close();
    const fresh = agent.session({ sessionId: 'another-id' });
    await fresh.initialize();
    expect(fresh.getHistory()).toEqual([]);
    await fresh.close();
  });

  it('resumeSession errors are the reference ones', async () => {
    const cwd = await project();
    const agent = new GeminiCliAgent({ cwd, fakeResponses: fixture('agent-resume-session') });
    const none = await agent.resumeSession('nope').catch((e: unknown) => e);
    expect(none).toBeInstanceOf(SessionNotFoundError);
    expect((none as Error).message).toMatch(/^No sessions found in .*chats$/);
    const session = agent.session();
    await drain(session.sendStream('hi'));
    await expect(agent.resumeSession('nope')).rejects.toThrow('Session with ID nope not found');
    await session.close();
  });

  it('exactness: a fresh agent resumes a session with parallel calls and sends the same contents as the live one', async () => {
    const thinking = {
      text: '**Planning** two sums',
      thought: true,
      thoughtSignature: 'c2lnbmF0dXJlLTE=',
    };
    const script = () => [
      modelTurn([
        thinking,
        { text: 'Computing both.' },
        { functionCall: { id: 'sum-1', name: 'add', args: { a: 1, b: 2 } } },
        { functionCall: { id: 'sum-2', name: 'add', args: { a: 3, b: 4 } } },
      ]),
      textTurn('3 and 7.'),
      callTurn({ name: 'add', args: { a: 5, b: 6 }, id: 'sum-3' }),
      textTurn('11.'),
      textTurn('Done.'),
    ];
    const prompts = ['Add 1+2 and 3+4.', 'And 5+6?', 'Thanks!'];
    const run = async (resumeBeforeLast: boolean) => {
      const server = new FakeGeminiServer({ turns: script() });
      cleanups.push(() => server.close());
      const cwd = await project();
      const options: GeminiCliAgentOptions = {
        apiKey: 'test-key',
        baseUrl: await server.start(),
        model: 'gemini-2.5-flash',
        tools: [add],
        builtinTools: false,
        retry: false,
        // Two runs in two folders: their <session_context> differs, the history must not.
        sessionContext: false,
        cwd,
      };
      let session = new GeminiCliAgent(options).session({ sessionId: 'exact' });
      await drain(session.sendStream(prompts[0] as string));
      await drain(session.sendStream(prompts[1] as string));
      const live = session.getHistory();
      if (resumeBeforeLast) {
        await session.close();
        session = await new GeminiCliAgent(options).resumeSession('exact');
        expect(session.getHistory()).toEqual(live);
      }
      await drain(session.sendStream(prompts[2] as string));
      await session.close();
      server.assertComplete();
      return {
        bodies: server.requests.map((r) => r.body as { contents: Content[] }),
        live,
      };
    };
    const live = await run(false);
    const resumed = await run(true);
    expect(resumed.live).toEqual(live.live);
    const lastLive = live.bodies[3]?.contents as Content[];
    const firstResumed = resumed.bodies[4]?.contents as Content[];
    // The last request of the live session, its answer and the new prompt: exactly what the resumed one sends.
    expect(firstResumed).toEqual(live.bodies[4]?.contents);
    // (The synthetic signature gemini-cli puts on the first call of the active loop moves on with the new prompt.)
    const withoutSyntheticSignature = (contents: Content[]) =>
      JSON.parse(
        JSON.stringify(contents).replaceAll(
          ',"thoughtSignature":"skip_thought_signature_validator"',
          '',
        ),
      );
    expect(withoutSyntheticSignature(firstResumed.slice(0, lastLive.length))).toEqual(
      withoutSyntheticSignature(lastLive),
    );
    expect(firstResumed.slice(lastLive.length)).toEqual([
      { role: 'model', parts: [{ text: '11.' }] },
      { role: 'user', parts: [{ text: 'Thanks!' }] },
    ]);
    expectValidContents(firstResumed);
    // Both parallel calls and their answers survive with their (wire) ids.
    const ids = firstResumed.flatMap((c) =>
      (c.parts ?? []).flatMap((p) => [p.functionCall?.id, p.functionResponse?.id]),
    );
    expect(ids.filter((id) => id !== undefined)).toEqual([
      'sum-1',
      'sum-2',
      'sum-1',
      'sum-2',
      'sum-3',
      'sum-3',
    ]);
  });

  it('listSessions, fork (same history, new id) and deleteSession', async () => {
    const cwd = await project();
    const model = [callTurn({ name: 'add', args: { a: 2, b: 2 } }), textTurn('4')];
    const agent = new GeminiCliAgent({
      cwd,
      builtinTools: false,
      tools: [add],
      retry: false,
      contentGenerator: {
        generateContentStream: async () =>
          (async function* () {
            for (const chunk of model.shift() ?? textTurn('again')) yield chunk;
          })(),
        generateContent: async () => textTurn('unused')[0] as never,
        countTokens: async () => ({ totalTokens: 0 }),
      },
    });
    expect(await agent.listSessions()).toEqual([]);
    const session = agent.session({ sessionId: 'listed' });
    await drain(session.sendStream('What is 2 + 2?'));

    const [summary, ...rest] = await agent.listSessions();
    expect(rest).toEqual([]);
    expect(summary).toMatchObject({
      sessionId: 'listed',
      firstPrompt: 'What is 2 + 2?',
      messageCount: 4,
      kind: 'main',
    });
    expect(Date.parse(summary?.lastUpdated ?? '')).toBeGreaterThanOrEqual(
      Date.parse(summary?.startTime ?? ''),
    );

    const fork = await session.fork();
    expect(fork.id).not.toBe('listed');
    expect(fork.getHistory()).toEqual(session.getHistory());
    await drain(fork.sendStream('Only in the fork.'));
    expect(fork.getHistory()).toHaveLength(6);
    expect(session.getHistory()).toHaveLength(4);
    expect((await agent.listSessions()).map((s) => s.sessionId).sort()).toEqual(
      ['listed', fork.id].sort(),
    );

    // An idle session is handed over, to a delete too: the stale object then refuses to write.
    await agent.deleteSession('listed');
    await expect(drain(session.sendStream('gone'))).rejects.toMatchObject({
      code: 'SESSION_LOCKED',
    });
    await session.close();
    expect((await agent.listSessions()).map((s) => s.sessionId)).toEqual([fork.id]);
    await expect(agent.deleteSession('listed')).rejects.toBeInstanceOf(SessionNotFoundError);
    await expect(agent.resumeSession('listed')).rejects.toThrow('Session with ID listed not found');
    await fork[Symbol.asyncDispose]();
    await expect(drain(fork.sendStream('closed'))).rejects.toBeInstanceOf(SessionError);
  });

  it('one writer: a session in a turn is never taken over; an idle one is, and the stale object is refused', async () => {
    const cwd = await project();
    // Released by the test whether or not the tool has started yet (the model call resolves `running` before the
    // tool runs, so a release that only reached a started tool could be lost and the turn would never end).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const blocker = tool(
      { name: 'block', description: 'Waits', inputSchema: z.object({}) },
      async () => {
        await released;
        return 'released';
      },
    );
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const options: GeminiCliAgentOptions = {
      cwd,
      builtinTools: false,
      retry: false,
      tools: [blocker],
      contentGenerator: new ScriptedModel([
        (): ReturnType<typeof callTurn> => {
          started();
          return callTurn({ name: 'block' });
        },
        textTurn('done'),
      ]),
    };
    const a = new GeminiCliAgent(options);
    const first = a.session({ sessionId: 'one-writer' });
    await first.initialize();

    // While a turn runs, nobody else — this agent, another agent — can open the session for writing.
    const b = new GeminiCliAgent(options);
    const streaming = drain(first.sendStream('go'));
    await running;
    await expect(b.resumeSession('one-writer')).rejects.toMatchObject({
      name: 'SessionLockedError',
      code: 'SESSION_LOCKED',
    });
    await expect(b.session({ sessionId: 'one-writer' }).initialize()).rejects.toMatchObject({
      code: 'SESSION_LOCKED',
    });
    await expect(a.resumeSession('one-writer')).rejects.toMatchObject({ code: 'SESSION_LOCKED' });
    release();
    await streaming;

    // Idle between turns: another agent takes it over, with every turn; the stale object is refused.
    const second = await b.resumeSession('one-writer');
    expect(second.getHistory()).toEqual(first.getHistory());
    await expect(drain(first.sendStream('stale'))).rejects.toMatchObject({
      code: 'SESSION_LOCKED',
    });
    expect(second.getHistory()).toEqual(first.getHistory());
    await first.close();
    await second.close();
  });

  it('persist: false keeps sessions in memory; sessionStore takes any store', async () => {
    const cwd = await project();
    const home = process.env['GEMINI_CLI_HOME'] as string;
    const before = await readdir(join(home, '.gemini')).catch(() => []);
    const memory = new GeminiCliAgent({
      cwd,
      persist: false,
      fakeResponses: fixture('agent-resume-session'),
    });
    const session = memory.session({ sessionId: 'in-memory' });
    await drain(session.sendStream('What is the word?'));
    await session.close();
    expect((await memory.listSessions()).map((s) => s.sessionId)).toEqual(['in-memory']);
    expect((await memory.resumeSession('in-memory')).getHistory()).toHaveLength(2);
    expect(await readdir(join(home, '.gemini')).catch(() => [])).toEqual(before);

    const store = new MemorySessionStore();
    const options = { cwd, sessionStore: store, fakeResponses: fixture('agent-resume-session') };
    const writer = new GeminiCliAgent(options).session({ sessionId: 'shared-store' });
    await drain(writer.sendStream('What is the word?'));
    await writer.close();
    const reader = await new GeminiCliAgent(options).resumeSession('shared-store');
    expect(reader.getHistory()).toEqual(writer.getHistory());
    expect((await store.load('shared-store')).messages).toHaveLength(2);

    expect(() => new GeminiCliAgent({ persist: false, sessionStore: store })).toThrow(
      'persist: false keeps sessions in memory, but a sessionStore was given too',
    );
    expect(() => new GeminiCliAgent({ sessionStore: {} as unknown as MemorySessionStore })).toThrow(
      'sessionStore: expected a SessionStore',
    );
  });
});
