import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../errors.js';
import { linkedAbortController, raceAbort } from './abort.js';

describe('linkedAbortController', () => {
  it('fans out to 16 parallel tools without a MaxListenersExceededWarning, and cleans up', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const user = new AbortController();
      const turn = linkedAbortController(user.signal);
      const tools = Array.from({ length: 16 }, () => {
        const tool = linkedAbortController(turn.controller.signal);
        let finish: (value: string) => void = () => undefined;
        const work = new Promise<string>((resolve) => {
          finish = resolve;
        });
        return { tool, finish, raced: raceAbort(work, turn.controller.signal) };
      });
      // One linked child and one race per tool on the turn's signal.
      expect(getEventListeners(turn.controller.signal, 'abort')).toHaveLength(32);
      tools.forEach((t, i) => t.finish(`r${i}`));
      expect(await Promise.all(tools.map((t) => t.raced))).toHaveLength(16);
      tools.forEach((t) => t.tool.dispose());
      expect(getEventListeners(turn.controller.signal, 'abort')).toHaveLength(0);
      turn.dispose();
      expect(getEventListeners(user.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('propagates an abort from the parent to every linked child and race', async () => {
    const user = new AbortController();
    const turn = linkedAbortController(user.signal);
    const children = Array.from({ length: 12 }, () =>
      linkedAbortController(turn.controller.signal),
    );
    const raced = raceAbort(new Promise<never>(() => undefined), turn.controller.signal);
    user.abort(new Error('stop'));
    expect(children.every((c) => c.controller.signal.aborted)).toBe(true);
    await expect(raced).rejects.toBeInstanceOf(AbortError);
  });
});
