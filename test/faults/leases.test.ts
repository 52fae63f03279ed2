/**
 * Fault catalogue — one writer per session, without blocking: a session holds its lease busy only while a turn
 * runs and hands it over between turns (and while a paused approval waits), so it can be resumed from another
 * agent or another process whenever it is idle; the stale object then gets SessionLockedError on its next send,
 * never interleaved history. Sessions the program never closes hold no file descriptor.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  SessionLockedError,
  tool,
  z,
  type GeminiCliSession,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { replayLine, runChild, SDK_ENTRY } from '../scenarios/sessions-child-process.js';
import { collect, expectStoredHistory, tempProject } from './fault-helpers.js';

const base = { builtinTools: false as const, skillDiscovery: false, retry: false as const };

function agentWith(cwd: string, ...turns: Parameters<ScriptedModel['push']>[0][]) {
  return new GeminiCliAgent({ ...base, cwd, contentGenerator: new ScriptedModel(turns) });
}

const userTexts = (history: ReturnType<GeminiCliSession['getHistory']>) =>
  history.map((c) => `${c.role}:${c.parts?.map((p) => p.text ?? '').join('')}`);

describe('leases are held only while a turn runs', () => {
  it('another agent of this process resumes an idle session; the stale one is refused, nothing interleaves', async () => {
    const cwd = await tempProject();
    const a = agentWith(cwd, textTurn('A1'), textTurn('never'));
    const first = a.session({ sessionId: 'shared-in-process' });
    await first.send('from A');
    const b = agentWith(cwd, textTurn('B1'));
    const second = await b.resumeSession('shared-in-process');
    expect((await second.send('from B')).text).toBe('B1');
    const { error } = await collect(first.sendStream('A again'));
    expect(error).toBeInstanceOf(SessionLockedError);
    expect((error as Error).message).toMatch(/newer session that took it over/);
    expect(userTexts(second.getHistory())).toEqual([
      'user:from A',
      'model:A1',
      'user:from B',
      'model:B1',
    ]);
    await first.close();
    await second.close();
    await expectStoredHistory(cwd, 'shared-in-process', second.getHistory());
  });

  it('another process resumes it while this one is idle, and this one sees the refusal, then the new turns', async () => {
    const cwd = await tempProject();
    const replay = join(cwd, 'child.jsonl');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(replay, `${replayLine([{ text: 'from the child' }])}\n`);
    const here = agentWith(cwd, textTurn('parent answer'));
    const session = here.session({ sessionId: 'shared-across-processes' });
    await session.send('parent prompt');
    // This session stays open (never closed) while the child takes it over and adds a turn.
    const child = await runChild(
      cwd,
      'taker',
      `
import { GeminiCliAgent } from ${JSON.stringify(SDK_ENTRY)};
const agent = new GeminiCliAgent({ cwd: ${JSON.stringify(cwd)}, fakeResponses: ${JSON.stringify(replay)},
  builtinTools: false, skillDiscovery: false, retry: false });
const s = await agent.resumeSession('shared-across-processes');
console.log((await s.send('child prompt')).text);
await s.close();
`,
    );
    expect((await child.exited).code).toBe(0);
    expect(child.lines()).toContain('from the child');
    await expect(session.send('parent again')).rejects.toBeInstanceOf(SessionLockedError);
    await session.close();
    const fresh = await agentWith(cwd).resumeSession('shared-across-processes');
    expect(userTexts(fresh.getHistory())).toEqual([
      'user:parent prompt',
      'model:parent answer',
      'user:child prompt',
      'model:from the child',
    ]);
    await fresh.close();
  });

  it('while a turn runs, another process cannot take the session', async () => {
    const cwd = await tempProject();
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = tool({ name: 'wait', description: 'Waits', inputSchema: z.object({}) }, () => {
      started();
      return new Promise<string>((resolve) => (release = () => resolve('waited')));
    });
    const agent = new GeminiCliAgent({
      ...base,
      cwd,
      tools: [wait],
      contentGenerator: new ScriptedModel([callTurn({ name: 'wait' }), textTurn('done')]),
    });
    const session = agent.session({ sessionId: 'busy-session' });
    const turn = session.send('go');
    await running;
    const child = await runChild(
      cwd,
      'contender',
      `
import { GeminiCliAgent } from ${JSON.stringify(SDK_ENTRY)};
const agent = new GeminiCliAgent({ cwd: ${JSON.stringify(cwd)}, builtinTools: false, skillDiscovery: false });
try { await agent.resumeSession('busy-session'); console.log('resumed'); }
catch (e) { console.log(e.code); }
`,
    );
    await child.exited;
    expect(child.lines()).toEqual(['SESSION_LOCKED']);
    release();
    expect((await turn).text).toBe('done');
    await session.close();
    await expectStoredHistory(cwd, 'busy-session', session.getHistory());
  });

  it('a paused approval does not block: another agent takes the pause over and resolves it; the old one is refused', async () => {
    const cwd = await tempProject();
    const ran: string[] = [];
    const note = tool(
      {
        name: 'note',
        description: 'Writes a note',
        inputSchema: z.object({ text: z.string() }),
        kind: 'edit',
      },
      ({ text }) => {
        ran.push(text);
        return 'noted';
      },
    );
    const options = {
      ...base,
      cwd,
      tools: [note],
      approvals: 'pause' as const,
      policy: { rules: [{ toolName: 'note', decision: 'ask_user' as const, priority: 100 }] },
    };
    const a = new GeminiCliAgent({
      ...options,
      contentGenerator: new ScriptedModel([callTurn({ name: 'note', args: { text: 'hi' } })]),
    });
    const first = a.session({ sessionId: 'paused-handover' });
    const { events } = await collect(first.sendStream('note hi'));
    expect(events.at(-1)?.type).toBe('approval_required');
    const b = new GeminiCliAgent({
      ...options,
      contentGenerator: new ScriptedModel([textTurn('Noted.')]),
    });
    const second = await b.resumeSession('paused-handover');
    const [pending] = second.pendingApprovals;
    expect(pending?.toolName).toBe('note');
    await collect(second.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]));
    expect(ran).toEqual(['hi']);
    const stale = await collect(
      first.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow' }]),
    );
    expect(stale.error).toBeInstanceOf(SessionLockedError);
    expect(ran).toEqual(['hi']);
    await first.close();
    await second.close();
    await expectStoredHistory(cwd, 'paused-handover', second.getHistory());
  });
});

/** Sessions the child opens and drops: enough that leaking one descriptor (or lock) each would show. */
const N_SESSIONS = 40;

describe('sessions the program never closes', () => {
  it('hold no file descriptor between turns and never trigger "Closing file descriptor on garbage collection"', async () => {
    const cwd = await tempProject();
    const child = await runChild(
      cwd,
      'unclosed',
      `
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { FileSessionStore, GeminiCliAgent } from ${JSON.stringify(SDK_ENTRY)};
import { ScriptedModel, textTurn } from ${JSON.stringify(SDK_ENTRY.replace('index.ts', 'testing/index.ts'))};
const warnings = [];
process.on('warning', (w) => warnings.push(String(w.code ?? w.name) + ': ' + w.message));
const fds = () => readdirSync('/proc/self/fd').length;
const N = ${N_SESSIONS};
// No fsync: this is about descriptors and locks, not durability (and keeps the child quick on a busy machine).
const sessionStore = new FileSessionStore({ projectRoot: ${JSON.stringify(cwd)}, sync: 'none' });
const agent = new GeminiCliAgent({ cwd: ${JSON.stringify(cwd)}, builtinTools: false, skillDiscovery: false,
  retry: false, sessionStore, contentGenerator: new ScriptedModel(Array.from({ length: N + 1 }, () => textTurn('ok'))) });
await agent.session().send('warm up');
const before = fds();
for (let i = 0; i < N; i++) await agent.session({ sessionId: 'unclosed-' + i }).send('hi');
const open = fds() - before;
for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
const [listed] = await agent.listSessions();
const locks = readdirSync(dirname(listed.location)).filter((f) => f.endsWith('.lock')).length;
console.log(JSON.stringify({ open, locks, warnings }));
`,
      ['--expose-gc'],
    );
    const { code } = await child.exited;
    expect(code).toBe(0);
    const result = JSON.parse(child.lines().at(-1) ?? '{}') as {
      open: number;
      locks: number;
      warnings: string[];
    };
    expect(result.open).toBeLessThanOrEqual(2);
    expect(result.warnings.filter((w) => /DEP0137|Closing file descriptor/.test(w))).toEqual([]);
    // The garbage collector released the dropped sessions' lock files too.
    expect(result.locks).toBeLessThan(N_SESSIONS / 4);
  });
});
