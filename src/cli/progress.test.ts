import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from './progress.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Progress', () => {
  it('shows thinking, then the running tool, and erases itself before content', () => {
    const writes: string[] = [];
    const progress = new Progress({ write: (t) => writes.push(t), canDraw: () => true });
    progress.begin();
    expect(writes.at(-1)).toMatch(/Thinking…$/);
    progress.observe({
      type: 'tool_call_request',
      value: {
        callId: 'c1',
        name: 'read_file',
        args: {},
        isClientInitiated: false,
        prompt_id: 's',
      },
    });
    expect(writes.at(-1)).toMatch(/Running read_file…$/);
    progress.observe({
      type: 'tool_call_response',
      value: { callId: 'c1', name: 'read_file', responseParts: [] },
    });
    expect(writes.at(-1)).toMatch(/Thinking…$/);
    progress.observe({ type: 'content', value: 'Hi' });
    expect(writes.at(-1)).toBe('\r\x1b[K');
    progress.end();
  });

  it('animates while waiting and draws nothing when it must not', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    let allowed = false;
    const progress = new Progress({ write: (t) => writes.push(t), canDraw: () => allowed });
    progress.begin();
    vi.advanceTimersByTime(500);
    expect(writes).toEqual([]);
    allowed = true;
    vi.advanceTimersByTime(250);
    const frames = writes.filter((w) => w.includes('Thinking'));
    expect(frames.length).toBeGreaterThanOrEqual(2);
    expect(new Set(frames).size).toBeGreaterThan(1);
    progress.end();
    const count = writes.length;
    vi.advanceTimersByTime(500);
    expect(writes.length).toBe(count);
  });
});
