import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimer } from './deadline-timer.js';

describe('DeadlineTimer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts at the deadline and says it expired', () => {
    const parent = new AbortController();
    const timer = new DeadlineTimer(1_000, parent.signal);
    vi.advanceTimersByTime(999);
    expect(timer.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(timer.signal.aborted).toBe(true);
    expect(timer.expired).toBe(true);
    expect((timer.signal.reason as Error).message).toBe('Agent timed out.');
    expect(parent.signal.aborted).toBe(false);
  });

  it("follows the parent's abort with its reason, without counting it as the deadline", () => {
    const parent = new AbortController();
    const timer = new DeadlineTimer(1_000, parent.signal);
    const reason = new Error('stop');
    parent.abort(reason);
    expect(timer.signal.aborted).toBe(true);
    expect(timer.signal.reason).toBe(reason);
    expect(timer.expired).toBe(false);
    vi.advanceTimersByTime(5_000);
    expect(timer.expired).toBe(false);
    expect(timer.signal.reason).toBe(reason);
  });

  it('starts aborted under an aborted parent', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const timer = new DeadlineTimer(1_000, parent.signal);
    expect(timer.signal.aborted).toBe(true);
    expect(timer.signal.reason).toBe('gone');
    expect(timer.expired).toBe(false);
  });

  it('stands still while paused (nested pauses) and lets go of the parent when cleared', () => {
    const parent = new AbortController();
    const timer = new DeadlineTimer(1_000, parent.signal);
    vi.advanceTimersByTime(600);
    timer.pause();
    timer.pause();
    vi.advanceTimersByTime(10_000);
    timer.resume();
    vi.advanceTimersByTime(10_000);
    expect(timer.signal.aborted).toBe(false);
    timer.resume();
    vi.advanceTimersByTime(399);
    expect(timer.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(timer.expired).toBe(true);

    const other = new DeadlineTimer(1_000, parent.signal);
    other.clear();
    parent.abort();
    vi.advanceTimersByTime(5_000);
    expect(other.signal.aborted).toBe(false);
  });
});
