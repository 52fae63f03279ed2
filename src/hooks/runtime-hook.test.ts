import { describe, expect, it } from 'vitest';
import type { SessionContext } from '../core/session-context.js';
import type { HookInput } from './hook-types.js';
import { isoTimestamp } from '../core/session-context.js';
import { silentLogger } from '../logger.js';
import { executeHooks } from './hook-executor.js';
import type { HookEntry, HookPlan } from './hook-planner.js';
import { runRuntimeHook, type RuntimeHookAction } from './runtime-hook.js';

const input = { hook_event_name: 'SessionEnd', reason: 'exit' } as unknown as HookInput;

function contextWith(signal: AbortSignal): SessionContext {
  let reads = 0;
  return Object.freeze({
    sessionId: 's1',
    get transcript() {
      reads++;
      return [{ role: 'user', parts: [{ text: `read ${reads}` }] }];
    },
    cwd: '/tmp',
    timestamp: 't',
    fs: {} as SessionContext['fs'],
    shell: {} as SessionContext['shell'],
    agent: {} as SessionContext['agent'],
    session: {} as SessionContext['session'],
    signal,
  });
}

describe('in-process hook runs', () => {
  it('gives the handler the session context with its own signal, the transcript read through', async () => {
    const ctx = contextWith(new AbortController().signal);
    let seen: SessionContext | undefined;
    const result = await runRuntimeHook(
      (_i, c) => {
        seen = c;
        return { systemMessage: 'hi' };
      },
      input,
      ctx,
    );
    expect(result).toMatchObject({ success: true, output: { systemMessage: 'hi' } });
    expect(seen?.sessionId).toBe('s1');
    expect(seen?.transcript).toEqual([{ role: 'user', parts: [{ text: 'read 1' }] }]);
    expect(seen?.signal).not.toBe(ctx.signal);
    expect(seen?.signal.aborted).toBe(false);
    expect(Object.isFrozen(seen)).toBe(true);
  });

  it('aborts the hook’s signal on its timeout and when the turn aborts, and fails open', async () => {
    const ctx = contextWith(new AbortController().signal);
    let timedOut: AbortSignal | undefined;
    const slow = await runRuntimeHook(
      (_i, c) => {
        timedOut = c.signal;
        return new Promise(() => undefined);
      },
      input,
      ctx,
      30,
    );
    expect(slow).toMatchObject({ success: false, error: 'Hook timed out after 30ms' });
    expect(timedOut?.aborted).toBe(true);

    const turn = new AbortController();
    let cancelled: SessionContext | undefined;
    const pending = runRuntimeHook(
      (_i, c) => {
        cancelled = c;
        return new Promise(() => undefined);
      },
      input,
      contextWith(turn.signal),
    );
    turn.abort(new Error('user cancelled'));
    expect(await pending).toMatchObject({
      success: false,
      error: expect.stringMatching(/cancelled/),
    });
    // Read after the abort: the lazily made signal is already aborted, with the turn's reason.
    expect(cancelled?.signal.aborted).toBe(true);
    expect((cancelled?.signal.reason as Error).message).toBe('user cancelled');

    const gone = new AbortController();
    gone.abort();
    let ran = false;
    const skipped = await runRuntimeHook(() => (ran = true), input, contextWith(gone.signal));
    expect(skipped.success).toBe(false);
    expect(ran).toBe(false);
  });

  it('turns a throw or a rejection into a failure', async () => {
    const ctx = contextWith(new AbortController().signal);
    const thrown = await runRuntimeHook(
      () => {
        throw new Error('boom');
      },
      input,
      ctx,
    );
    expect(thrown).toMatchObject({ success: false, error: 'boom' });
    const rejected = await runRuntimeHook(() => Promise.reject(new Error('nope')), input, ctx);
    expect(rejected).toMatchObject({ success: false, error: 'nope' });
    expect(await runRuntimeHook(() => null, input, ctx)).toMatchObject({
      success: true,
      output: undefined,
    });
  });

  it('answers synchronously for handlers that do, through the executor, and races the others', async () => {
    const ctx = contextWith(new AbortController().signal);
    // An OR-merged event: both answers show in the merged systemMessage.
    const plan = (...actions: RuntimeHookAction[]): HookPlan => ({
      event: 'AfterAgent',
      sequential: false,
      entries: actions.map((action, i): HookEntry => ({
        event: 'SessionEnd',
        source: 'runtime',
        name: `h${i}`,
        key: `h${i}:`,
        matcher: undefined,
        sequential: false,
        enabled: true,
        implementation: { type: 'runtime', action, timeoutMs: 50 },
      })),
    });
    const env = {
      ctx,
      commandEnv: {},
      plansDir: () => '/tmp',
      emit: () => undefined,
      logger: silentLogger,
    };
    const sync = runRuntimeHook(() => ({ systemMessage: 'now' }), input, ctx);
    expect(sync).not.toBeInstanceOf(Promise);
    expect(sync).toMatchObject({ success: true, output: { systemMessage: 'now' } });
    const thrown = runRuntimeHook(
      () => {
        throw new Error('boom');
      },
      input,
      ctx,
    );
    expect(thrown).toMatchObject({ success: false, error: 'boom' });

    const both = executeHooks(
      plan(
        () => ({ systemMessage: 'a' }),
        () => ({ systemMessage: 'b' }),
      ),
      input,
      env,
    );
    expect(both).not.toBeInstanceOf(Promise);
    expect((both as Awaited<typeof both>).output?.systemMessage).toBe('a\nb');

    const mixed = executeHooks(
      plan(
        () => ({ systemMessage: 'a' }),
        () => new Promise(() => undefined),
      ),
      input,
      env,
    );
    expect(mixed).toBeInstanceOf(Promise);
    const settled = await mixed;
    expect(settled.output?.systemMessage).toBe('a');
    expect(settled.records[1]).toMatchObject({
      success: false,
      error: 'Hook timed out after 50ms',
    });
  });

  it('stamps events like toISOString', () => {
    for (const t of [0, 999, 1_000, 1_764_600_000_007, 1_764_600_000_070, 1_764_600_000_700]) {
      expect(isoTimestamp(t)).toBe(new Date(t).toISOString());
    }
    expect(isoTimestamp(1_764_600_000_007)).toBe(new Date(1_764_600_000_007).toISOString());
  });
});
