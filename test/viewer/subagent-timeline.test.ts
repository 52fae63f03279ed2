import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore, createSessionViewerHandler } from '../../src/index.js';
import { projectHash } from '../../src/sessions/session-paths.js';
import { loadViewerTimeline } from '../../src/viewer/viewer-data.js';

describe('the viewer timeline of a session with a subagent (gemini-cli layout)', () => {
  it('a tool call with agentId shows the subagent session from chats/<parent>/<agent>.jsonl', async () => {
    const base = await mkdtemp(join(tmpdir(), 'viewer-sub-'));
    try {
      const chats = join(base, 'chats');
      await mkdir(join(chats, 'parent-1'), { recursive: true });
      const hash = projectHash('/p');
      const line = (v: unknown) => `${JSON.stringify(v)}\n`;
      await writeFile(
        join(chats, 'session-2026-01-01T00-00-parent-1.jsonl'),
        line({
          sessionId: 'parent-1',
          projectHash: hash,
          startTime: '2026-01-01T00:00:00.000Z',
          kind: 'main',
        }) +
          line({
            id: 'u1',
            type: 'user',
            timestamp: '2026-01-01T00:00:01.000Z',
            content: [{ text: 'Research it' }],
          }) +
          line({
            id: 'g1',
            type: 'gemini',
            timestamp: '2026-01-01T00:00:02.000Z',
            content: '',
            toolCalls: [
              {
                id: 'invoke_agent__1',
                name: 'invoke_agent',
                args: { agent: 'researcher' },
                status: 'success',
                agentId: 'sub-7',
                timestamp: '2026-01-01T00:00:02.000Z',
                resultDisplay: 'found it',
              },
            ],
          }),
      );
      await writeFile(
        join(chats, 'parent-1', 'sub-7.jsonl'),
        line({
          sessionId: 'sub-7',
          projectHash: hash,
          startTime: '2026-01-01T00:00:02.100Z',
          kind: 'subagent',
        }) +
          line({
            id: 's1',
            type: 'user',
            timestamp: '2026-01-01T00:00:02.100Z',
            content: [{ text: 'Find the answer' }],
          }) +
          line({
            id: 's2',
            type: 'gemini',
            timestamp: '2026-01-01T00:00:03.000Z',
            content: 'The answer is 42.',
          }),
      );
      const store = new FileSessionStore({ chatsDir: chats });
      const view = await loadViewerTimeline(store, 'parent-1');
      const call = view?.turns[0]?.items.find((i) => i.kind === 'tool');
      expect(call?.kind === 'tool' && call.subagent?.sessionId).toBe('sub-7');
      const sub = call?.kind === 'tool' ? call.subagent : undefined;
      expect(sub?.turns.map((t) => t.prompt)).toEqual(['Find the answer']);
      expect(sub?.turns[0]?.items.map((i) => (i.kind === 'model' ? i.text : i.kind))).toEqual([
        'The answer is 42.',
      ]);
      // The subagent's own session is not in the project's list (gemini-cli hides them).
      expect((await store.list()).map((s) => s.sessionId)).toEqual(['parent-1']);
      expect(createSessionViewerHandler({ store, token: 'x'.repeat(24) })).toBeTypeOf('function');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
