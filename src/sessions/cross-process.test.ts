import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLockedError } from '../errors.js';
import type { SessionLogEntry } from '../core/session-log.js';
import { parseSessionText } from './conversation.js';
import { FileSessionStore } from './file-session-store.js';
import { createFilePersistence } from './session-persistence.js';
import { sampleSessionEntries } from '../testing/sample-session-entries.js';

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

interface ChildScript {
  child: ChildProcess;
  waitFor(line: string): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a TypeScript script in a child node process (through tsx) and watches its stdout lines. */
async function runChild(dir: string, name: string, source: string): Promise<ChildScript> {
  const file = join(dir, `${name}.mts`);
  await writeFile(file, source);
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.split('\n').includes(line)) {
          child.stdout?.off('data', check);
          resolve();
        }
      };
      child.stdout?.on('data', check);
      check();
      void exited.then(({ code, signal }) =>
        reject(new Error(`child exited (${code ?? signal}) before printing "${line}": ${err}`)),
      );
    });
  return { child, waitFor, exited };
}

/** Source of a child that opens `id` in `home`, appends `count` sample entries, prints `ready`, then idles. */
function holderScript(home: string, id: string, count: number, then: string): string {
  return `
import { createFilePersistence } from ${JSON.stringify(here('session-persistence.ts'))};
import { sampleSessionEntries } from ${JSON.stringify(here('../testing/sample-session-entries.ts'))};
const persistence = createFilePersistence({ home: ${JSON.stringify(home)}, projectRoot: '/work/demo' });
const log = await persistence.open(${JSON.stringify(id)}, { resume: false, cwd: '/work/demo' });
for (const entry of sampleSessionEntries().slice(0, ${count})) await log.append(entry);
// Keep the log reachable: a log the program drops is released when it is garbage-collected.
Object.assign(globalThis, { keep: log });
console.log('ready');
${then}
`;
}

describe('file store across processes', () => {
  let home: string;
  const children: ChildProcess[] = [];
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gas-xproc-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0))
      if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  });
  const persistence = () => createFilePersistence({ home, projectRoot: '/work/demo' });

  it('refuses a second writer while another live process holds the session', async () => {
    const holder = await runChild(
      home,
      'holder',
      holderScript(home, 'xp-live', 1, 'setInterval(() => {}, 1000);'),
    );
    children.push(holder.child);
    await holder.waitFor('ready');
    const attempt = persistence().open('xp-live', { resume: true, cwd: '/work/demo' });
    await expect(attempt).rejects.toBeInstanceOf(SessionLockedError);
    await expect(attempt).rejects.toThrow(`process ${holder.child.pid} on ${hostname()}`);
    // Reading is not writing: the session can still be listed and forked meanwhile.
    expect(
      (await persistence().listSessions({ cwd: '/work/demo' })).map((s) => s.sessionId),
    ).toEqual(['xp-live']);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const log = await persistence().open('xp-live', { resume: true, cwd: '/work/demo' });
    expect(log.history).toHaveLength(1);
    await log.close();
  });

  it('a process that exits normally without closing leaves no lock; one killed by a signal is taken over', async () => {
    const quitter = await runChild(
      home,
      'quitter',
      holderScript(home, 'xp-exit', 1, 'process.exit(0);'),
    );
    children.push(quitter.child);
    expect((await quitter.exited).code).toBe(0);
    const chats = await new FileSessionStore({ home, projectRoot: '/work/demo' }).chatsDir();
    const files = await readdir(chats);
    expect(files.some((f) => f.startsWith('session-') && f.endsWith('.jsonl'))).toBe(true);
    expect(files).not.toContain('session-xp-exit.lock');

    const terminated = await runChild(
      home,
      'terminated',
      holderScript(home, 'xp-term', 1, 'setInterval(() => {}, 1000);'),
    );
    children.push(terminated.child);
    await terminated.waitFor('ready');
    terminated.child.kill('SIGTERM');
    expect((await terminated.exited).signal).toBe('SIGTERM');
    expect(await readdir(chats)).toContain('session-xp-term.lock');
    const log = await persistence().open('xp-term', { resume: true, cwd: '/work/demo' });
    expect(log.history).toEqual([sampleSessionEntries()[0]?.content]);
    await log.close();
    expect(await readdir(chats)).not.toContain('session-xp-term.lock');
  });

  it('after kill -9 while tools run, resume answers the calls as interrupted and continues', async () => {
    const holder = await runChild(
      home,
      'killed',
      holderScript(home, 'xp-kill', 2, 'setInterval(() => {}, 1000);'),
    );
    children.push(holder.child);
    await holder.waitFor('ready');
    holder.child.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');

    const [prompt, calls] = sampleSessionEntries() as [SessionLogEntry, SessionLogEntry];
    const log = await persistence().open('xp-kill', { resume: true, cwd: '/work/demo' });
    expect(log.history.slice(0, 2)).toEqual([prompt.content, calls.content]);
    const answers = log.history[2]?.parts ?? [];
    expect(answers.map((p) => p.functionResponse?.id)).toEqual(['add__add_1_0', 'mul__call-xyz']);
    expect(
      answers.every((p) => /interrupted/.test(String(p.functionResponse?.response?.['error']))),
    ).toBe(true);
    const next: SessionLogEntry = {
      kind: 'model',
      content: { role: 'model', parts: [{ text: 'The tools were interrupted; retrying.' }] },
      timestamp: new Date().toISOString(),
    };
    await log.append(next);
    await log.close();

    const store = new FileSessionStore({ home, projectRoot: '/work/demo' });
    const file = (await store.load('xp-kill')).location;
    const parsed = parseSessionText(await readFile(file, 'utf8'));
    expect(parsed.skippedLines).toBe(0);
    const again = await persistence().open('xp-kill', { resume: true, cwd: '/work/demo' });
    expect(again.history).toEqual([...log.history, next.content]);
    await again.close();
  });
});

describe('session lock staleness', () => {
  let home: string;
  let chats: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gas-lock-'));
    chats = await new FileSessionStore({ home, projectRoot: '/work/demo' }).chatsDir();
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  async function plantLock(
    id: string,
    info: Record<string, unknown>,
    ageMs: number,
  ): Promise<string> {
    const path = join(chats, `session-${id}.lock`);
    const lock = {
      version: 1,
      sessionId: id,
      pid: 1,
      hostname: 'elsewhere.example',
      processStartedAt: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      token: 'planted',
      ...info,
    };
    await writeFile(path, JSON.stringify(lock));
    const when = new Date(Date.now() - ageMs);
    await utimes(path, when, when);
    return path;
  }

  it('a lock from another host is live while its heartbeat is fresh, stale after staleMs', async () => {
    const store = new FileSessionStore({
      home,
      projectRoot: '/work/demo',
      lease: { staleMs: 60_000 },
    });
    await plantLock('remote', {}, 1_000);
    await expect(store.acquireLease('remote')).rejects.toThrow('process 1 on elsewhere.example');
    await plantLock('remote', {}, 61_000);
    const lease = await store.acquireLease('remote');
    const content = JSON.parse(await readFile(join(chats, 'session-remote.lock'), 'utf8')) as {
      pid: number;
    };
    expect(content.pid).toBe(process.pid);
    await lease.release();
  });

  it('a lock left by an earlier process with our pid is taken over; one of this process is not', async () => {
    const store = new FileSessionStore({ home, projectRoot: '/work/demo' });
    await plantLock(
      'reused',
      { pid: process.pid, hostname: hostname(), processStartedAt: 12345 },
      0,
    );
    const lease = await store.acquireLease('reused');
    const other = new FileSessionStore({ home, projectRoot: '/work/demo' });
    await expect(other.acquireLease('reused')).rejects.toThrow('another session of this process');
    await lease.release();
    await expect(stat(join(chats, 'session-reused.lock'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('an unreadable lock is live for a few seconds (being written), then garbage', async () => {
    const store = new FileSessionStore({ home, projectRoot: '/work/demo' });
    const path = join(chats, 'session-garbage.lock');
    await writeFile(path, '{"version":1,"pid"');
    await expect(store.acquireLease('garbage')).rejects.toBeInstanceOf(SessionLockedError);
    const old = new Date(Date.now() - 10_000);
    await utimes(path, old, old);
    await (await store.acquireLease('garbage')).release();
  });
});
