/**
 * What the session file stores for the viewer beyond gemini-cli's fields: who decided about each call
 * (`toolCalls[].sdkApproval`), model retries and compressions (gemini-cli display lines with `sdkEvent`), written
 * by a real agent to a real file store and read back as the viewer's timeline; gemini resumes such files (the
 * extra fields are ones it ignores, the lines are display-only).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FileSessionStore,
  GeminiCliAgent,
  tool,
  z,
  type ApprovalHandler,
  type GeminiCliAgentOptions,
} from '../../src/index.js';
import { FakeGeminiServer, ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { recordsToHistory } from '../../src/sessions/history-from-records.js';
import { loadViewerTimeline } from '../../src/viewer/viewer-data.js';
import type { TimelineToolCall } from '../../src/viewer/timeline-types.js';

const dirs: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function storeIn(): Promise<FileSessionStore> {
  const base = await mkdtemp(join(tmpdir(), 'stored-decisions-'));
  dirs.push(base);
  return new FileSessionStore({ projectRoot: join(base, 'project'), home: join(base, 'home') });
}

const op = (name: string) =>
  tool({ name, description: name, inputSchema: z.object({ n: z.number() }) }, ({ n }) => n * 2);

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

async function fileLines(store: FileSessionStore, id: string): Promise<Record<string, unknown>[]> {
  const { location } = await store.load(id);
  const text = await readFile(location, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function agent(store: FileSessionStore, options: Partial<GeminiCliAgentOptions>): GeminiCliAgent {
  const made = new GeminiCliAgent({
    model: 'gemini-2.5-flash',
    builtinTools: false,
    sessionStore: store,
    telemetry: { enabled: false },
    ...options,
  });
  closers.push(() => made.close());
  return made;
}

describe('approval decisions are stored with each call and shown', () => {
  it('allow once, allow always, deny by a human, and a rule: decision, who, when and the wait', async () => {
    const store = await storeIn();
    const asked: string[] = [];
    const onApproval: ApprovalHandler = async (request) => {
      asked.push(request.toolName);
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (request.toolName === 'once') return 'allow';
      if (request.toolName === 'always') return 'allow_always';
      return { decision: 'deny', message: 'not today' };
    };
    const model = new ScriptedModel([
      callTurn(
        { name: 'once', args: { n: 1 }, id: 'a' },
        { name: 'always', args: { n: 2 }, id: 'b' },
        { name: 'refused', args: { n: 3 }, id: 'c' },
        { name: 'free', args: { n: 4 }, id: 'd' },
      ),
      textTurn('done'),
    ]);
    const session = agent(store, {
      contentGenerator: model,
      // `free` comes from the tools option (the SDK default rule allows it); the others need a human.
      tools: [op('free')],
      features: [{ name: 'more', tools: [op('once'), op('always'), op('refused')] }],
      onApproval,
    }).session({ sessionId: 'decided-1' });
    await drain(session.sendStream('go'));
    await session.close();
    expect(asked).toEqual(['once', 'always', 'refused']);

    const lines = await fileLines(store, 'decided-1');
    const withCalls = lines.filter((l) => Array.isArray(l['toolCalls'])).at(-1) as {
      toolCalls: Array<Record<string, unknown>>;
    };
    const approvals = Object.fromEntries(
      withCalls.toolCalls.map((c) => [c['name'], c['sdkApproval'] as Record<string, unknown>]),
    );
    expect(approvals['once']).toMatchObject({ decision: 'allow', by: 'user' });
    expect(approvals['always']).toMatchObject({ decision: 'allow_always', by: 'user' });
    expect(approvals['refused']).toMatchObject({ decision: 'deny', by: 'user' });
    expect(approvals['refused']?.['message']).toContain('not today');
    expect(approvals['free']).toMatchObject({ decision: 'allow', by: 'rule' });
    expect(typeof approvals['free']?.['rule']).toBe('string');
    for (const name of ['once', 'always', 'refused']) {
      const a = approvals[name] as { askedAt: string; timestamp: string };
      expect(Date.parse(a.timestamp) - Date.parse(a.askedAt)).toBeGreaterThanOrEqual(20);
    }
    // gemini-cli's own fields keep their order; ours comes last.
    expect(Object.keys(withCalls.toolCalls[0] ?? {}).at(-1)).toBe('sdkApproval');

    const view = await loadViewerTimeline(store, 'decided-1');
    const tools = (view?.turns[0]?.items ?? []).filter(
      (i): i is TimelineToolCall => i.kind === 'tool',
    );
    expect(tools.map((t) => [t.name, t.decision, t.status])).toEqual([
      ['once', 'approved by user', 'success'],
      ['always', 'approved always by user', 'success'],
      ['refused', 'denied by user', 'error'],
      ['free', 'allowed by policy', 'success'],
    ]);
    expect(tools[0]?.approval?.waitMs).toBeGreaterThanOrEqual(20);
    expect(tools[3]?.approval?.rule).toBe(approvals['free']?.['rule']);
  });

  it('a paused call decided later with resolveApprovals stores the human and the time it was held', async () => {
    const store = await storeIn();
    const model = new ScriptedModel([
      callTurn(
        { name: 'held', args: { n: 1 }, id: 'h' },
        { name: 'held2', args: { n: 2 }, id: 'i' },
      ),
      textTurn('ok'),
    ]);
    const session = agent(store, {
      contentGenerator: model,
      features: [{ name: 'more', tools: [op('held'), op('held2')] }],
      approvals: 'pause',
    }).session({ sessionId: 'paused-1' });
    await drain(session.sendStream('go'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pending = session.pendingApprovals.map((p) => p.callId);
    expect(pending).toHaveLength(2);
    await drain(
      session.resolveApprovals([
        { callId: pending[0] ?? '', outcome: 'allow' },
        { callId: pending[1] ?? '', outcome: 'deny', message: 'no' },
      ]),
    );
    await session.close();
    const view = await loadViewerTimeline(store, 'paused-1');
    const tools = (view?.turns[0]?.items ?? []).filter(
      (i): i is TimelineToolCall => i.kind === 'tool',
    );
    expect(tools.map((t) => [t.name, t.decision])).toEqual([
      ['held', 'approved by user'],
      ['held2', 'denied by user'],
    ]);
    expect(tools[0]?.approval?.waitMs).toBeGreaterThanOrEqual(15);
  });

  it('a forged or malformed sdkApproval is ignored: the decision falls back to the stored result', async () => {
    const store = await storeIn();
    const session = agent(store, {
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'free', args: { n: 1 }, id: 'f' }),
        textTurn('x'),
      ]),
      tools: [op('free')],
    }).session({ sessionId: 'forged-1' });
    await drain(session.sendStream('go'));
    await session.close();
    const { location } = await store.load('forged-1');
    const text = await readFile(location, 'utf8');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      location,
      text.replace(/"sdkApproval":\{[^}]*\}/g, '"sdkApproval":{"decision":"<b>yes</b>","by":42}'),
    );
    const view = await loadViewerTimeline(store, 'forged-1');
    const call = view?.turns[0]?.items.find((i): i is TimelineToolCall => i.kind === 'tool');
    expect(call?.decision).toBe('ran');
    expect(call?.approval).toBeUndefined();
  });
});

describe('retries and compressions are stored as display lines and shown', () => {
  it('a connection retry (HTTP 503) and a mid-stream retry: warning lines with sdkEvent, left out of the history', async () => {
    const store = await storeIn();
    const server = new FakeGeminiServer({
      turns: [
        { status: 503 },
        // A stream cut off without a finish reason: re-sent (phase stream).
        [{ candidates: [{ content: { role: 'model', parts: [{ text: 'The ans' }] } }] }] as never,
        textTurn('The answer.'),
      ],
    });
    await server.start();
    closers.push(() => server.close());
    const session = agent(store, {
      apiKey: 'test-key',
      baseUrl: server.baseUrl,
      retry: { sleep: async () => undefined, random: () => 0.5 },
      sessionContext: false,
    }).session({ sessionId: 'retried-1' });
    await drain(session.sendStream('question'));
    const history = session.getHistory();
    await session.close();

    const lines = await fileLines(store, 'retried-1');
    const notes = lines.filter((l) => l['type'] === 'warning');
    expect(notes.map((n) => (n['sdkEvent'] as { phase: string }).phase)).toEqual([
      'connect',
      'stream',
    ]);
    expect(notes[0]).toMatchObject({
      content: expect.stringContaining('Attempt 1 of'),
      sdkEvent: { kind: 'retry', attempt: 1, status: 503, reason: 'HTTP 503' },
    });
    // The lines are display-only: the stored history is what the model saw.
    const stored = await store.load('retried-1');
    expect(recordsToHistory(stored.messages)).toEqual(history);

    const view = await loadViewerTimeline(store, 'retried-1');
    const items = view?.turns[0]?.items ?? [];
    expect(items.map((i) => i.kind)).toEqual(['retry', 'retry', 'model']);
    expect(view?.totals.retries).toBe(2);
    expect(items[0]).toMatchObject({ kind: 'retry', phase: 'connect', reason: 'HTTP 503' });
  });

  it("a compression: gemini-cli's info line after the checkpoint, with the figures; the timeline shows it", async () => {
    const store = await storeIn();
    const snapshot = (n: number) =>
      textTurn(`<state_snapshot><overall_goal>goal ${n}</overall_goal></state_snapshot>`);
    const session = agent(store, {
      contentGenerator: new ScriptedModel([
        textTurn('answer one ' + 'x'.repeat(800)),
        textTurn('answer two'),
        snapshot(1),
        snapshot(2),
        textTurn('answer three'),
      ]),
      retry: false,
    }).session({ sessionId: 'compressed-1' });
    await drain(session.sendStream('one'));
    await drain(session.sendStream('two'));
    await session.compress();
    await drain(session.sendStream('three'));
    await session.close();

    const lines = await fileLines(store, 'compressed-1');
    const checkpoint = lines.findLastIndex((l) =>
      Array.isArray((l['$set'] as { messages?: unknown })?.messages),
    );
    const note = lines.findIndex(
      (l) => (l['sdkEvent'] as { kind?: string })?.kind === 'compression',
    );
    expect(checkpoint).toBeGreaterThan(-1);
    expect(note).toBeGreaterThan(checkpoint);
    expect(lines[note]).toMatchObject({
      type: 'info',
      content: expect.stringMatching(/^Context compressed from \d+% to \d+%\.$/),
      sdkEvent: { kind: 'compression', trigger: 'manual', status: 'compressed' },
    });

    const view = await loadViewerTimeline(store, 'compressed-1');
    expect(view?.totals.compressions).toBe(1);
    const all = view?.turns.flatMap((t) => t.items) ?? [];
    const compression = all.find((i) => i.kind === 'compression');
    expect(compression).toMatchObject({ trigger: 'manual', status: 'compressed' });
    expect(view?.turns.at(-1)?.prompt).toBe('three');
  });
});
