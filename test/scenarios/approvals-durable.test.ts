import type { Content } from '@google/genai';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { argsHash } from '../../src/policy/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from './history-assertions.js';
import { replayLine, runChild, SDK_ENTRY, type ChildScript } from './sessions-child-process.js';

const children: ChildScript[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

async function workspace(): Promise<{ dir: string; runs: string; replay: string }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'gas-approvals-')));
  dirs.push(dir);
  const replay = join(dir, 'replay.jsonl');
  await writeFile(
    replay,
    `${replayLine([
      { functionCall: { id: 'c-1', name: 'read_clock', args: {} } },
      { functionCall: { id: 'n-1', name: 'append_note', args: { text: 'hello' } } },
    ])}\n`,
  );
  return { dir, runs: join(dir, 'runs.txt'), replay };
}

/** How many times `append_note` ran (one line per run). */
async function runCount(runs: string): Promise<number> {
  const text = await readFile(runs, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').length;
}

/** Options shared by the child and the parent: `append_note` asks, and asking pauses the run. */
function agentOptions(dir: string, runs: string): GeminiCliAgentOptions {
  return {
    cwd: dir,
    builtinTools: false,
    retry: false,
    approvals: 'pause',
    policy: { rules: [{ toolName: 'append_note', decision: 'ask_user' }] },
    tools: [
      tool(
        { name: 'read_clock', description: 'Reads the clock', inputSchema: z.object({}) },
        () => 'noon',
      ),
      tool(
        {
          name: 'append_note',
          description: 'Appends a note',
          inputSchema: z.object({ text: z.string() }),
        },
        ({ text }) => {
          appendFileSync(runs, `${text}\n`);
          return 'noted';
        },
      ),
    ],
  };
}

/** A child process with the same agent; `pause` runs the first turn until approval_required and exits. */
function childSource(
  ws: { dir: string; runs: string; replay: string },
  id: string,
  mode: 'pause' | 'resolve-and-hang',
): string {
  return `
import { appendFileSync } from 'node:fs';
import { GeminiCliAgent, tool, z } from ${JSON.stringify(SDK_ENTRY)};
const agent = new GeminiCliAgent({
  cwd: ${JSON.stringify(ws.dir)},
  fakeResponses: ${JSON.stringify(ws.replay)},
  builtinTools: false,
  retry: false,
  approvals: 'pause',
  policy: { rules: [{ toolName: 'append_note', decision: 'ask_user' }] },
  tools: [
    tool({ name: 'read_clock', description: 'Reads the clock', inputSchema: z.object({}) }, () => 'noon'),
    tool(
      { name: 'append_note', description: 'Appends a note', inputSchema: z.object({ text: z.string() }) },
      ({ text }) => {
        appendFileSync(${JSON.stringify(ws.runs)}, text + '\\n');
        console.log('tool-started');
        setInterval(() => undefined, 1000);
        return new Promise(() => undefined);
      },
    ),
  ],
});
if (${JSON.stringify(mode)} === 'pause') {
  const session = agent.session({ sessionId: ${JSON.stringify(id)} });
  for await (const event of session.sendStream('Note the time.')) {
    if (event.type === 'approval_required') console.log('paused');
  }
} else {
  const session = await agent.resumeSession(${JSON.stringify(id)});
  const [pending] = session.pendingApprovals;
  for await (const _ of session.resolveApprovals([{ callId: pending.callId, decision: 'allow' }])) void _;
}
`;
}

async function pauseInChild(
  ws: { dir: string; runs: string; replay: string },
  id: string,
): Promise<void> {
  const child = await runChild(ws.dir, `pause-${id}`, childSource(ws, id, 'pause'));
  children.push(child);
  await child.waitFor('paused');
  // The child exits on its own (normally, without closing the session).
  expect((await child.exited).code).toBe(0);
}

/** The parts of the last user turn the model received (the answers to the paused turn). */
function lastResponses(request: { contents?: unknown } | undefined): Record<string, unknown>[] {
  const contents = request?.contents as Content[];
  expectValidContents(contents);
  const answers = contents.at(-1)?.parts ?? [];
  return answers.map((p) => p.functionResponse?.response ?? {});
}

describe('durable approvals: pause, restart, resolve', () => {
  it('a pause survives the process: a new agent resolves it, the tool runs exactly once and the conversation continues', async () => {
    const ws = await workspace();
    await pauseInChild(ws, 'durable');

    const model = new ScriptedModel([textTurn('Noted at noon.'), textTurn('Anything else?')]);
    const agent = new GeminiCliAgent({ ...agentOptions(ws.dir, ws.runs), contentGenerator: model });
    const session = await agent.resumeSession('durable');
    expect(session.pendingApprovals).toMatchObject([
      { callId: 'append_note__n-1', toolName: 'append_note', args: { text: 'hello' } },
    ]);

    // An unknown call id fails closed: nothing runs, nothing is recorded, the call still waits.
    const unknown = await drain(
      session.resolveApprovals([{ callId: 'nope', decision: 'allow' }]),
    ).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ConfigurationError);
    expect(unknown).toMatchObject({ code: 'APPROVAL_UNKNOWN_CALL' });
    expect(await runCount(ws.runs)).toBe(0);
    expect(session.pendingApprovals).toHaveLength(1);

    const events = await drain(
      session.resolveApprovals([{ callId: 'append_note__n-1', decision: 'allow' }]),
    );
    expect(await runCount(ws.runs)).toBe(1);
    expect(events.filter((e) => e.type === 'tool_call_response')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'content').map((e) => e.value)).toEqual([
      'Noted at noon.',
    ]);
    // The model got both answers: the call that ran before the pause, and the approved one.
    expect(lastResponses(model.generateRequests[0])).toEqual([
      { output: 'noon' },
      { output: 'noted' },
    ]);
    expect((await session.send('Thanks.')).text).toBe('Anything else?');
    expect(session.pendingApprovals).toEqual([]);
    await session.close();

    // Resolved for good: a later resume has nothing pending and the tool never runs again.
    const later = await new GeminiCliAgent(agentOptions(ws.dir, ws.runs)).resumeSession('durable');
    expect(later.pendingApprovals).toEqual([]);
    expect(later.getHistory()).toEqual(session.getHistory());
    await expect(
      drain(later.resolveApprovals([{ callId: 'append_note__n-1', decision: 'allow' }])),
    ).rejects.toThrow('No tool calls are waiting for approval in this session.');
    expect(await runCount(ws.runs)).toBe(1);
    await later.close();
  });

  it('changed arguments fail closed: the stored call was edited after it paused', async () => {
    const ws = await workspace();
    await pauseInChild(ws, 'tampered');
    const home = process.env['GEMINI_CLI_HOME'] as string;
    const tmp = join(home, '.gemini', 'tmp');
    let edited = 0;
    for (const slug of await readdir(tmp)) {
      const chats = join(tmp, slug, 'chats');
      for (const name of await readdir(chats).catch(() => [])) {
        if (!name.endsWith('.jsonl')) continue;
        const file = join(chats, name);
        const lines = (await readFile(file, 'utf8')).split('\n');
        if (!lines[0]?.includes('"sessionId":"tampered"')) continue;
        const changed = lines.map((line) =>
          line.includes('"type":"gemini"')
            ? line.replace('"text":"hello"', '"text":"rm -rf"')
            : line,
        );
        edited += changed.filter((l, i) => l !== lines[i]).length;
        await writeFile(file, changed.join('\n'));
      }
    }
    expect(edited).toBeGreaterThan(0);

    const model = new ScriptedModel([textTurn('I will not write it.')]);
    const agent = new GeminiCliAgent({ ...agentOptions(ws.dir, ws.runs), contentGenerator: model });
    const session = await agent.resumeSession('tampered');
    const [pending] = session.pendingApprovals;
    const events = await drain(
      session.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]),
    );
    expect(await runCount(ws.runs)).toBe(0);
    const refused = events.find((e) => e.type === 'tool_call_response');
    expect(refused?.value).toMatchObject({
      name: 'append_note',
      error: {
        message: 'Tool execution denied: the arguments changed after approval was requested.',
        type: 'policy_violation',
      },
    });
    expect(lastResponses(model.generateRequests[0])).toEqual([
      { output: 'noon' },
      { error: 'Tool execution denied: the arguments changed after approval was requested.' },
    ]);
    await session.close();
  });

  it('a crash after resolving never runs the tool twice: the approved call is answered as interrupted', async () => {
    const ws = await workspace();
    await pauseInChild(ws, 'crash-after');
    const resolver = await runChild(
      ws.dir,
      'resolver',
      childSource(ws, 'crash-after', 'resolve-and-hang'),
    );
    children.push(resolver);
    await resolver.waitFor('tool-started');
    resolver.child.kill('SIGKILL');
    await resolver.exited;
    expect(await runCount(ws.runs)).toBe(1);

    const model = new ScriptedModel([textTurn('The note may or may not be there.')]);
    const agent = new GeminiCliAgent({ ...agentOptions(ws.dir, ws.runs), contentGenerator: model });
    const session = await agent.resumeSession('crash-after');
    expect(session.pendingApprovals).toEqual([]);
    await expect(
      drain(session.resolveApprovals([{ callId: 'append_note__n-1', decision: 'allow' }])),
    ).rejects.toThrow('No tool calls are waiting');
    expect((await session.send('Did it work?')).text).toBe('The note may or may not be there.');
    const contents = model.generateRequests[0]?.contents as Content[];
    expectValidContents(contents);
    const answers = contents[2]?.parts?.map((p) => p.functionResponse?.response);
    expect(answers?.[0]).toEqual({ output: 'noon' });
    expect(String(answers?.[1]?.['error'])).toMatch(/^Tool call interrupted/);
    expect(await runCount(ws.runs)).toBe(1);
    await session.close();
  });

  it('in one process too: the hash the human saw, expiry and a denial all fail closed', async () => {
    const ws = await workspace();
    const pauseThenResume = async (id: string, extra: Partial<GeminiCliAgentOptions> = {}) => {
      const pausing = new GeminiCliAgent({
        ...agentOptions(ws.dir, ws.runs),
        contentGenerator: new ScriptedModel([
          callTurn(
            { name: 'read_clock', id: 'c-1' },
            { name: 'append_note', args: { text: 'hi' }, id: 'n-1' },
          ),
        ]),
      });
      const first = pausing.session({ sessionId: id });
      const events = await drain(first.sendStream('Note it.'));
      expect(events.at(-1)?.type).toBe('approval_required');
      await first.close();
      const model = new ScriptedModel([textTurn('ok')]);
      const agent = new GeminiCliAgent({
        ...agentOptions(ws.dir, ws.runs),
        contentGenerator: model,
        ...extra,
      });
      return { session: await agent.resumeSession(id), model };
    };

    const seen = await pauseThenResume('wrong-hash');
    await drain(
      seen.session.resolveApprovals([
        { callId: 'append_note__n-1', decision: 'allow', argsHash: argsHash({ text: 'other' }) },
      ]),
    );
    expect(lastResponses(seen.model.generateRequests[0])[1]).toEqual({
      error: 'Tool execution denied: the arguments changed after approval was requested.',
    });

    const expired = await pauseThenResume('expired', { approvalTtlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await drain(
      expired.session.resolveApprovals([{ callId: 'append_note__n-1', decision: 'allow' }]),
    );
    expect(lastResponses(expired.model.generateRequests[0])[1]).toEqual({
      error: 'Tool execution denied: the approval request expired.',
    });

    const denied = await pauseThenResume('denied');
    await drain(
      denied.session.resolveApprovals([
        { callId: 'append_note__n-1', decision: { decision: 'deny', message: 'Not now.' } },
      ]),
    );
    expect(lastResponses(denied.model.generateRequests[0])[1]).toEqual({
      error: 'User denied execution. Not now.',
    });
    expect(denied.session.approvalLog.at(-1)).toMatchObject({ decision: 'deny', by: 'user' });

    const undecided = await pauseThenResume('undecided');
    await drain(undecided.session.resolveApprovals([]));
    expect(lastResponses(undecided.model.generateRequests[0])[1]).toEqual({
      error: 'Tool execution denied: no decision was given for this call.',
    });
    expect(undecided.session.approvalLog.at(-1)).toMatchObject({
      decision: 'deny',
      by: 'default',
    });

    // With the right hash, in time, it runs.
    const allowed = await pauseThenResume('allowed', { approvalTtlMs: 60_000 });
    await drain(
      allowed.session.resolveApprovals([
        { callId: 'append_note__n-1', decision: 'allow', argsHash: argsHash({ text: 'hi' }) },
      ]),
    );
    expect(lastResponses(allowed.model.generateRequests[0])[1]).toEqual({ output: 'noted' });
    expect(await runCount(ws.runs)).toBe(1);
    for (const s of [seen, expired, denied, undecided, allowed]) await s.session.close();
  });

  it('session({ sessionId }) of a paused session continues it: the held calls still wait', async () => {
    const ws = await workspace();
    const pausing = new GeminiCliAgent({
      ...agentOptions(ws.dir, ws.runs),
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'append_note', args: { text: 'hi' }, id: 'n-1' }),
      ]),
    });
    const first = pausing.session({ sessionId: 'chosen-paused' });
    expect((await drain(first.sendStream('Note it.'))).at(-1)?.type).toBe('approval_required');
    await first.close();

    const model = new ScriptedModel([textTurn('ok')]);
    const again = new GeminiCliAgent({ ...agentOptions(ws.dir, ws.runs), contentGenerator: model });
    const session = again.session({ sessionId: 'chosen-paused' });
    await session.initialize();
    expect(session.pendingApprovals).toMatchObject([{ callId: 'append_note__n-1' }]);
    await drain(session.resolveApprovals([{ callId: 'append_note__n-1', decision: 'allow' }]));
    expect(await runCount(ws.runs)).toBe(1);
    await session.close();
  });
});
