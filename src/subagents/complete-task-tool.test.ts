import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCompleteTaskTool } from './complete-task-tool.js';

const definition = (output: unknown) => ({
  name: 'worker',
  output: output as never,
  outputName: 'report',
  processOutput: undefined,
});

describe('createCompleteTaskTool with an output schema', () => {
  it("converts a definition's schema once and still validates every run's call", async () => {
    const schema = z.object({ summary: z.string() });
    const first = createCompleteTaskTool(definition(schema), () => undefined);
    const second = createCompleteTaskTool(definition(schema), () => undefined);
    const props = (tool: typeof first) =>
      (tool.parametersJsonSchema as { properties: Record<string, unknown> }).properties['report'];
    expect(props(second)).toBe(props(first));
    expect(props(first)).toMatchObject({
      type: 'object',
      properties: { summary: { type: 'string' } },
    });
    for (const tool of [first, second]) {
      expect(await tool.validate({ report: { summary: 'ok' } })).toEqual({
        ok: true,
        args: { report: { summary: 'ok' } },
      });
      const bad = await tool.validate({ report: { summary: 3 } });
      expect(bad.ok).toBe(false);
      expect(!bad.ok && bad.error).toMatch(/^Output validation failed: /);
    }
    const other = createCompleteTaskTool(definition(z.object({ n: z.number() })), () => undefined);
    expect(props(other)).toMatchObject({ properties: { n: { type: 'number' } } });
  });

  it('still refuses a value that is no schema, on every run', () => {
    for (let i = 0; i < 2; i++)
      expect(() => createCompleteTaskTool(definition({ nope: true }), () => undefined)).toThrow(
        /worker output/,
      );
  });
});
