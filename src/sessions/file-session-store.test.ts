import { createHash } from 'node:crypto';
import {
  appendFile,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Content, Part } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionLogEntry } from '../core/session-log.js';
import { parseSessionText } from './conversation.js';
import { FileSessionStore } from './file-session-store.js';
import { classifyRecord, type MessageRecord } from './records.js';
import { createFilePersistence } from './session-persistence.js';
import { recordsToHistory } from './history-from-records.js';
import { sampleSessionEntries } from '../testing/sample-session-entries.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures/sessions/', import.meta.url));
const CLI_FILE = 'session-2026-11-30T22-49-6e93d57f.jsonl';
const CLI_ID = '6e93d57f-1c2b-4e8a-9a57-3f1d2c4b5a69';
const LEGACY_FILE = 'session-2025-06-01T10-00-abcdef12.json';
const LEGACY_ID = 'abcdef12-3456-4789-8abc-def012345678';

/** gemini-cli's CLI resume (`convertSessionToClientHistory` + coalescing) from its source, as an oracle. */
function geminiCliResume(messages: MessageRecord[]): Content[] {
  const toParts = (c: MessageRecord['content']): Part[] => {
    if (typeof c === 'string') return c ? [{ text: c }] : [];
    return Array.isArray(c) ? (c as Part[]) : [c as Part];
  };
  const out: Content[] = [];
  for (const m of messages) {
    if (m.type === 'user') {
      const text = toParts(m.content)
        .map((p) =>
          p.functionResponse ? `[Function Response: ${p.functionResponse.name}]` : (p.text ?? ''),
        )
        .join('')
        .trim();
      if (!text || /^(\/|\?|<session_context>|<hook_context>)/.test(text)) continue;
      out.push({ role: 'user', parts: toParts(m.content) });
    } else if (m.type === 'gemini') {
      const content = toParts(m.content);
      const parts = content.some((p) => p.functionCall || p.thought)
        ? content
        : [
            ...(m.thoughts ?? []).map((t) => ({
              text: `**${t.subject}** ${t.description}`,
              thought: true,
            })),
            ...content,
            ...(m.toolCalls ?? []).map((tc) => ({
              functionCall: { id: tc.id, name: tc.name, args: tc.args },
            })),
          ];
      if (parts.length === 0) continue;
      out.push({ role: 'model', parts });
      const results = (m.toolCalls ?? []).flatMap((tc) => (tc.result ? toParts(tc.result) : []));
      if (results.length > 0) out.push({ role: 'user', parts: results });
    }
  }
  const merged: Content[] = [];
  for (const c of out) {
    const last = merged.at(-1);
    if (last !== undefined && last.role === c.role) {
      last.parts = [...(last.parts ?? []), ...(c.parts ?? [])];
    } else merged.push({ role: c.role, parts: [...(c.parts ?? [])] });
  }
  return merged;
}

/** Every functionCall answered right after it, `times` times (gemini 0.61's resume of a CLI file: twice). */
function expectValidForApi(history: Content[], times = 1): void {
  history.forEach((turn, i) => {
    const calls = (turn.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall?.id);
    if (turn.role !== 'model' || calls.length === 0) return;
    const answers = (history[i + 1]?.parts ?? []).filter((p) => p.functionResponse);
    expect(answers.map((p) => p.functionResponse?.id)).toEqual(
      Array.from({ length: times }, () => calls).flat(),
    );
  });
}

describe('FileSessionStore: gemini-cli layout and rules', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gas-file-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('writes ~/.gemini/tmp/<slug>/chats/session-<time>-<id8>.jsonl with registry and markers', async () => {
    const root = join(home, 'work', 'My Project!');
    const persistence = createFilePersistence({
      env: { GEMINI_CLI_HOME: home },
      now: () => new Date('2026-11-30T22:49:59.000Z'),
    });
    const log = await persistence.open('my-custom.id!', { resume: false, cwd: root });
    await log.close();
    const gemini = join(home, '.gemini');
    expect(JSON.parse(await readFile(join(gemini, 'projects.json'), 'utf8'))).toEqual({
      projects: { [root]: 'my-project' },
    });
    expect(await readFile(join(gemini, 'tmp', 'my-project', '.project_root'), 'utf8')).toBe(root);
    expect(await readFile(join(gemini, 'history', 'my-project', '.project_root'), 'utf8')).toBe(
      root,
    );
    expect(await readdir(join(gemini, 'tmp', 'my-project', 'chats'))).toEqual([
      'session-2026-11-30T22-49-my-custo.jsonl',
    ]);
  });

  it('gives colliding project names -1, -2 and keeps a project on its slug', async () => {
    const gemini = join(home, '.gemini');
    await mkdir(join(gemini, 'tmp', 'demo'), { recursive: true });
    await writeFile(join(gemini, 'tmp', 'demo', '.project_root'), '/elsewhere/demo');
    const slugOf = async (root: string) => {
      const dir = await new FileSessionStore({ home, projectRoot: root }).chatsDir();
      return dir.split('/').at(-2);
    };
    expect(await slugOf('/a/demo')).toBe('demo-1');
    expect(await slugOf('/b/demo')).toBe('demo-2');
    expect(await slugOf('/a/demo')).toBe('demo-1');
    expect(await slugOf('/elsewhere/demo')).toBe('demo');
    const registry = JSON.parse(await readFile(join(gemini, 'projects.json'), 'utf8')) as {
      projects: Record<string, string>;
    };
    expect(registry.projects).toEqual({
      '/a/demo': 'demo-1',
      '/b/demo': 'demo-2',
      '/elsewhere/demo': 'demo',
    });
    expect(await readdir(gemini)).not.toContain('projects.json.lock');
  });

  it('a file we write: one JSON record per line, metadata first, one id per message, valid for gemini --resume', async () => {
    const root = '/work/rules';
    const persistence = createFilePersistence({ home, projectRoot: root });
    const entries = sampleSessionEntries();
    const log = await persistence.open('rules-session', { resume: false, cwd: root });
    for (const entry of entries) await log.append(entry);
    await log.close();
    const [file] = await readdir(join(home, '.gemini', 'tmp', 'rules', 'chats'));
    const text = await readFile(
      join(home, '.gemini', 'tmp', 'rules', 'chats', file as string),
      'utf8',
    );
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((l) => classifyRecord(l) !== undefined)).toBe(true);
    expect(classifyRecord(lines[0])?.kind).toBe('metadata');
    expect(lines[0]).toMatchObject({
      sessionId: 'rules-session',
      projectHash: createHash('sha256').update(root).digest('hex'),
      kind: 'main',
      sdkFormat: 2,
    });
    expect(lines.slice(1).some((l) => classifyRecord(l)?.kind === 'metadata')).toBe(false);
    // Ids: a message written again (its toolCalls) keeps its id and type; distinct messages never share one.
    const byId = new Map<string, string>();
    for (const l of lines.filter((l) => typeof l['id'] === 'string')) {
      const key = `${String(l['type'])}@${String(l['timestamp'])}`;
      expect(byId.get(l['id'] as string) ?? key).toBe(key);
      byId.set(l['id'] as string, key);
    }
    const messages = parseSessionText(text).conversation?.messages ?? [];
    expect(messages.map((m) => m.type)).toEqual([
      'user',
      'gemini',
      'user',
      'gemini',
      'user',
      'gemini',
    ]);
    expect(messages[1]?.toolCalls).toMatchObject([
      {
        id: 'add__add_1_0',
        name: 'add',
        args: { a: 5, b: 3 },
        status: 'success',
        resultDisplay: '8',
      },
      { id: 'mul__call-xyz', name: 'mul', status: 'error', resultDisplay: 'mul is broken' },
    ]);
    // gemini's resume of our file, as of its own: each response twice (thought signatures are ours only).
    const cliHistory = geminiCliResume(messages);
    expectValidForApi(cliHistory, 2);
    const firstOf = (p: Part, i: number, all: Part[]) =>
      !p.functionResponse ||
      all.findIndex((q) => q.functionResponse?.id === p.functionResponse?.id) === i;
    const once = cliHistory.map((t) => ({ ...t, parts: (t.parts ?? []).filter(firstOf) }));
    const unsigned = entries.map(({ content: c }) => ({
      ...c,
      parts: (c.parts ?? []).map(({ thoughtSignature: _s, ...p }) => p),
    }));
    expect(once).toEqual(unsigned);
    expect(recordsToHistory(messages)).toEqual(entries.map((e) => e.content));
  });
});

describe('FileSessionStore: reading what gemini-cli wrote', () => {
  let chats: string;
  beforeEach(async () => {
    chats = await mkdtemp(join(tmpdir(), 'gas-cli-'));
    await copyFile(join(fixtures, CLI_FILE), join(chats, CLI_FILE));
    await copyFile(join(fixtures, LEGACY_FILE), join(chats, LEGACY_FILE));
  });
  afterEach(async () => {
    await rm(chats, { recursive: true, force: true });
  });

  const expected: Content[] = [
    { role: 'user', parts: [{ text: 'What is 5 + 3?' }] },
    {
      role: 'model',
      parts: [
        { text: '**Adding numbers** The user wants a sum; I will call add.', thought: true },
        { text: 'Let me compute.' },
        { functionCall: { id: 'add__add_1796078982865_0', name: 'add', args: { a: 5, b: 3 } } },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'add__add_1796078982865_0',
            name: 'add',
            response: { output: '8' },
          },
        },
      ],
    },
    { role: 'model', parts: [{ text: '5 + 3 = 8.' }] },
    { role: 'user', parts: [{ text: 'And 2 * 4?' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { id: 'mul__mul_1796078990000_0', name: 'mul', args: { a: 2, b: 4 } } },
      ],
    },
    {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'mul__mul_1796078990000_0',
            name: 'mul',
            response: { output: '8' },
          },
        },
      ],
    },
    { role: 'model', parts: [{ text: '2 * 4 = 8.' }] },
  ];

  it('resumes a CLI session: toolCalls rebuilt, responses not duplicated, context/commands/rewinds dropped', async () => {
    const persistence = createFilePersistence({ chatsDir: chats });
    const log = await persistence.open(CLI_ID, { resume: true, cwd: chats });
    expect(log.history).toEqual(expected);
    expectValidForApi(log.history);
    const next: SessionLogEntry = {
      kind: 'user',
      content: { role: 'user', parts: [{ text: 'Now 6 / 2?' }] },
      timestamp: '2026-11-30T23:00:00.000Z',
    };
    await log.append(next);
    await log.close();
    // The torn last line stays alone on its line; the new record starts on a fresh one.
    const lines = (await readFile(join(chats, CLI_FILE), 'utf8')).split('\n');
    expect(lines.filter((l) => l.startsWith('{"id":"a5f4d0b2'))).toEqual([
      '{"id":"a5f4d0b2-f3d2-4fff-9fa2-03b0d26f2e11","timestamp":"2026-11-30T22:49:40.000Z","type":"user","cont',
    ]);
    const again = await persistence.open(CLI_ID, { resume: true, cwd: chats });
    expect(again.history).toEqual([...expected, next.content]);
    await again.close();
    const [summary] = (await persistence.listSessions()).filter((s) => s.sessionId === CLI_ID);
    expect(summary).toMatchObject({
      summary: 'Simple arithmetic',
      firstPrompt: 'What is 5 + 3?',
      messageCount: 11,
    });
  });

  it('resumes a legacy .json session and migrates it to .jsonl on the first append', async () => {
    const persistence = createFilePersistence({ chatsDir: chats });
    const log = await persistence.open(LEGACY_ID, { resume: true, cwd: chats });
    expect(log.history).toEqual([
      { role: 'user', parts: [{ text: 'Hello from an old gemini-cli' }] },
      { role: 'model', parts: [{ text: 'Hi there!' }] },
    ]);
    const next: SessionLogEntry = {
      kind: 'user',
      content: { role: 'user', parts: [{ text: 'Still there?' }] },
      timestamp: '2026-11-30T23:00:00.000Z',
    };
    await log.append(next);
    await log.close();
    expect(await readFile(join(chats, LEGACY_FILE), 'utf8')).toBe(
      await readFile(join(fixtures, LEGACY_FILE), 'utf8'),
    );
    const migrated = parseSessionText(await readFile(join(chats, `${LEGACY_FILE}l`), 'utf8'));
    expect(migrated.conversation?.metadata.sessionId).toBe(LEGACY_ID);
    expect(migrated.conversation?.messages.map((m) => m.id).slice(0, 3)).toEqual([
      'legacy-1',
      'legacy-2',
      'legacy-3',
    ]);
    const again = await persistence.open(LEGACY_ID, { resume: true, cwd: chats });
    expect(again.history.at(-1)).toEqual(next.content);
    await again.close();
  });
});

describe('FileSessionStore: crash safety and deletion', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'gas-crash-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('skips a torn last line and starts the next append on a fresh line', async () => {
    const persistence = createFilePersistence({ home, projectRoot: '/work/torn' });
    const [prompt, calls, results] = sampleSessionEntries() as [
      SessionLogEntry,
      SessionLogEntry,
      SessionLogEntry,
    ];
    const log = await persistence.open('torn', { resume: false, cwd: '/work/torn' });
    await log.append(prompt);
    await log.append(calls);
    await log.close();
    const file = (await new FileSessionStore({ home, projectRoot: '/work/torn' }).load('torn'))
      .location;
    await appendFile(file, '{"id":"half-written","timestamp":"2026-01-0');
    const resumed = await persistence.open('torn', { resume: true, cwd: '/work/torn' });
    // The calls had no results on disk, so they are answered as interrupted (and that answer is stored).
    expect(resumed.history.slice(0, 2)).toEqual([prompt.content, calls.content]);
    expect(resumed.history).toHaveLength(3);
    await resumed.append({
      ...results,
      kind: 'user',
      content: { role: 'user', parts: [{ text: 'go on' }] },
    });
    await resumed.close();
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    expect(lines).toContain('{"id":"half-written","timestamp":"2026-01-0');
    expect(parseSessionText(text).skippedLines).toBe(1);
    const again = await persistence.open('torn', { resume: true, cwd: '/work/torn' });
    expect(again.history).toEqual([
      ...resumed.history,
      { role: 'user', parts: [{ text: 'go on' }] },
    ]);
    await again.close();
  });

  it("deletes gemini-cli's set for the session only (file, log, tool outputs, temp and subagent folders)", async () => {
    const store = new FileSessionStore({ home, projectRoot: '/work/del' });
    for (const id of ['abcdefgh-1111', 'abcdefgh-2222']) {
      const lease = await store.acquireLease(id);
      await store.create(lease, { startTime: '2026-11-30T10:00:00.000Z' });
      await lease.release();
    }
    const chats = await store.chatsDir();
    const temp = join(chats, '..');
    await mkdir(join(temp, 'logs'), { recursive: true });
    await writeFile(join(temp, 'logs', 'session-abcdefgh-1111.jsonl'), '{}\n');
    await writeFile(join(temp, 'logs', 'session-abcdefgh-2222.jsonl'), '{}\n');
    await mkdir(join(temp, 'tool-outputs', 'session-abcdefgh-1111'), { recursive: true });
    await mkdir(join(temp, 'abcdefgh-1111'), { recursive: true });
    await mkdir(join(chats, 'abcdefgh-1111'), { recursive: true });
    await writeFile(join(chats, 'abcdefgh-1111', 'sub.jsonl'), '{}\n');
    const persistence = createFilePersistence({ home, projectRoot: '/work/del' });
    await persistence.deleteSession('abcdefgh-1111');
    expect(await readdir(join(temp, 'logs'))).toEqual(['session-abcdefgh-2222.jsonl']);
    expect(await readdir(join(temp, 'tool-outputs'))).toEqual([]);
    expect((await readdir(temp)).sort()).toEqual([
      '.project_root',
      'chats',
      'logs',
      'tool-outputs',
    ]);
    expect((await persistence.listSessions()).map((s) => s.sessionId)).toEqual(['abcdefgh-2222']);
    expect(await readdir(chats)).toHaveLength(1);
  });
});
