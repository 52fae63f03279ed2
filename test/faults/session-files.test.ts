/**
 * Fault catalogue — the session file under an open session: deleted, truncated, replaced, or appended to by
 * another program. Before every append the store checks the file's device, inode, size and link count; damage is
 * repaired by rewriting the file from the in-memory log (a `warning` event says so), so a resume in a new process
 * sees every turn; another writer's appends make this session stale (SessionLockedError), never interleaved.
 */
import {
  appendFile,
  readdir,
  readFile,
  rename,
  truncate,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, SessionLockedError, type GeminiCliSession } from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { runChild, SDK_ENTRY } from '../scenarios/sessions-child-process.js';
import {
  collect,
  expectStoredHistory,
  ofType,
  sessionFileOf,
  tempProject,
} from './fault-helpers.js';

async function openSession(id: string) {
  const cwd = await tempProject();
  const model = new ScriptedModel([textTurn('one'), textTurn('two'), textTurn('three')]);
  const agent = new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    builtinTools: false,
    skillDiscovery: false,
    retry: false,
  });
  const session = agent.session({ sessionId: id });
  await session.send('first');
  return { cwd, agent, session };
}

/** What a new process resumes: the history length and the list entry, read by a child process. */
async function resumeInAnotherProcess(
  cwd: string,
  id: string,
): Promise<{ turns: number; listed: boolean }> {
  const child = await runChild(
    cwd,
    'reader',
    `
import { GeminiCliAgent } from ${JSON.stringify(SDK_ENTRY)};
const agent = new GeminiCliAgent({ cwd: ${JSON.stringify(cwd)}, builtinTools: false, skillDiscovery: false });
const listed = (await agent.listSessions()).some((s) => s.sessionId === ${JSON.stringify(id)});
const session = await agent.resumeSession(${JSON.stringify(id)});
console.log(JSON.stringify({ turns: session.getHistory().length, listed }));
await session.close();
`,
  );
  const { code } = await child.exited;
  expect(code).toBe(0);
  return JSON.parse(child.lines().at(-1) ?? '{}') as { turns: number; listed: boolean };
}

async function sendExpectingRepair(session: GeminiCliSession, prompt: string) {
  const { events, error } = await collect(session.sendStream(prompt));
  expect(error).toBeUndefined();
  const warnings = ofType(events, 'warning');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]?.value.code).toBe('SESSION_FILE_REWRITTEN');
  return warnings[0]?.value.message ?? '';
}

describe('the session file changes under an open session', () => {
  it('deleted: the next append rewrites it from memory; a new process sees every turn', async () => {
    const { cwd, session } = await openSession('deleted-file');
    await unlink(await sessionFileOf(cwd, session.id));
    expect(await sendExpectingRepair(session, 'second')).toMatch(/was deleted while session/);
    await session.send('third');
    expect(session.getHistory()).toHaveLength(6);
    expect(await resumeInAnotherProcess(cwd, session.id)).toEqual({ turns: 6, listed: true });
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('truncated to 0: rewritten with its metadata line, so it still lists and resumes', async () => {
    const { cwd, session } = await openSession('truncated-file');
    await truncate(await sessionFileOf(cwd, session.id), 0);
    expect(await sendExpectingRepair(session, 'second')).toMatch(/was truncated while session/);
    const first = JSON.parse(
      (await readFile(await sessionFileOf(cwd, session.id), 'utf8')).split('\n')[0] ?? '{}',
    );
    expect(first).toMatchObject({ sessionId: session.id, kind: 'main' });
    expect(await resumeInAnotherProcess(cwd, session.id)).toEqual({ turns: 4, listed: true });
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('truncated part-way: rewritten whole', async () => {
    const { cwd, session } = await openSession('cut-file');
    const path = await sessionFileOf(cwd, session.id);
    const text = await readFile(path, 'utf8');
    await truncate(path, Math.floor(text.length / 2));
    await sendExpectingRepair(session, 'second');
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('replaced by another file: ours is rewritten, the other one kept beside it', async () => {
    const { cwd, session } = await openSession('replaced-file');
    const path = await sessionFileOf(cwd, session.id);
    await writeFile(`${path}.new`, '{"not":"a session"}\n');
    await rename(`${path}.new`, path);
    expect(await sendExpectingRepair(session, 'second')).toMatch(
      /replaced by another file .*kept as/,
    );
    const kept = (await readdir(join(path, '..'))).filter((n) => n.includes('.replaced-'));
    expect(kept).toHaveLength(1);
    await session.close();
    await expectStoredHistory(cwd, session.id, session.getHistory());
  });

  it('appended to by another program: this session is stale and refuses to write; nothing interleaves', async () => {
    const { cwd, session } = await openSession('grown-file');
    const path = await sessionFileOf(cwd, session.id);
    const foreign = {
      id: 'from-gemini-cli',
      timestamp: new Date().toISOString(),
      type: 'user',
      content: [{ text: 'typed in gemini --resume' }],
    };
    await appendFile(path, `${JSON.stringify(foreign)}\n`);
    const { error } = await collect(session.sendStream('second'));
    expect(error).toBeInstanceOf(SessionLockedError);
    expect((error as Error).message).toContain('another program');
    await session.close();
    const reader = await new GeminiCliAgent({
      cwd,
      builtinTools: false,
      skillDiscovery: false,
    }).resumeSession(session.id);
    expect(reader.getHistory().map((c) => c.parts?.[0]?.text)).toEqual([
      'first',
      'one',
      'typed in gemini --resume',
    ]);
    await reader.close();
  });
});

/** Each way of damaging a session file, applied to `path`. */
const DAMAGE: Array<[string, (path: string) => Promise<void>, RegExp]> = [
  ['deleted', (path) => unlink(path), /was deleted while session/],
  ['truncated to 0', (path) => truncate(path, 0), /was truncated while session/],
  [
    'truncated part-way',
    async (path) => truncate(path, Math.floor((await readFile(path, 'utf8')).length / 2)),
    /was truncated while session/,
  ],
  [
    'replaced by another file',
    async (path) => {
      await writeFile(`${path}.new`, '{"not":"a session"}\n');
      await rename(`${path}.new`, path);
    },
    /replaced by another file .*kept as/,
  ],
];

describe('the session file changes right after a resume, before its first write', () => {
  it.each(DAMAGE)(
    '%s: the first append rewrites it from the resumed history; nothing is lost',
    async (name, damage, message) => {
      const id = `resumed-then-${name.replace(/\W+/g, '-')}`;
      const { cwd, session: first } = await openSession(id);
      await first.send('second');
      await first.close();
      const resumedBy = new GeminiCliAgent({
        cwd,
        contentGenerator: new ScriptedModel([textTurn('after resume')]),
        builtinTools: false,
        skillDiscovery: false,
        retry: false,
      });
      const session = await resumedBy.resumeSession(id);
      const before = session.getHistory();
      expect(before).toHaveLength(4);
      await damage(await sessionFileOf(cwd, id));
      expect(await sendExpectingRepair(session, 'third')).toMatch(message);
      expect(session.getHistory()).toHaveLength(6);
      expect(session.getHistory().slice(0, 4)).toEqual(before);
      expect(await resumeInAnotherProcess(cwd, id)).toEqual({ turns: 6, listed: true });
      await session.close();
      await expectStoredHistory(cwd, id, session.getHistory());
    },
    60_000,
  );
});
