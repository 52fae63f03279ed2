import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  createSessionContext,
  type AgentHandle,
  type SessionContextSource,
  type SessionHandle,
} from './session-context.js';
import type { SandboxFilesystem, SandboxShell } from './workspace-types.js';

function source(history: Content[]): SessionContextSource {
  return {
    sessionId: 's1',
    history,
    cwd: '/tmp/x',
    fs: {} as SandboxFilesystem,
    shell: {} as SandboxShell,
    agent: {} as AgentHandle,
    session: {} as SessionHandle,
  };
}

describe('createSessionContext', () => {
  it('gives the history as of its creation, even when read after the history grew', () => {
    const history: Content[] = [{ role: 'user', parts: [{ text: 'q' }] }];
    const ctx = createSessionContext(source(history), new AbortController().signal);
    history.push({ role: 'model', parts: [{ text: 'a' }] });
    expect(ctx.transcript).toEqual([{ role: 'user', parts: [{ text: 'q' }] }]);
  });

  it('copies once, on first access, and the copy cannot reach the live history', () => {
    const history: Content[] = [{ role: 'user', parts: [{ text: 'q' }] }];
    const ctx = createSessionContext(source(history), new AbortController().signal);
    const first = ctx.transcript;
    expect(ctx.transcript).toBe(first);
    expect(first).not.toBe(history);
    expect(first[0]).not.toBe(history[0]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as Content[]).push({ role: 'user', parts: [] })).toThrow(TypeError);
    (first[0]?.parts?.[0] as { text: string }).text = 'changed';
    expect(history[0]?.parts?.[0]?.text).toBe('q');
    expect(history).toHaveLength(1);
  });

  it('is frozen: transcript cannot be replaced; the other fields are as given', () => {
    const signal = new AbortController().signal;
    const ctx = createSessionContext(source([]), signal);
    expect(() => {
      (ctx as { transcript: unknown }).transcript = [];
    }).toThrow(TypeError);
    expect(ctx.transcript).toEqual([]);
    expect(ctx).toMatchObject({ sessionId: 's1', cwd: '/tmp/x', signal });
    expect(Number.isNaN(Date.parse(ctx.timestamp))).toBe(false);
  });
});
