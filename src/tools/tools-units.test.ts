import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { levenshtein, unknownToolMessage } from './closest-names.js';
import { ModelVisibleError } from './model-visible-error.js';
import { sdkToolToAgentTool } from './sdk-tool.js';
import { tool } from './tool.js';
import { renderToolOutput } from './tool-output.js';
import { ToolRegistry } from './tool-registry.js';
import { resultToResponse } from './tool-response.js';
import type { SessionContext } from '../core/session-context.js';

const ctx = {} as SessionContext;
const call = { callId: 'x', signal: new AbortController().signal };

describe('tool()', () => {
  it('rejects unusable definitions with a ConfigurationError', () => {
    const schema = z.object({});
    expect(() => tool({ name: 'bad name', description: '', inputSchema: schema }, () => 1)).toThrow(
      ConfigurationError,
    );
    expect(() => tool({ name: 'ok', description: 'd', inputSchema: z.string() }, () => 1)).toThrow(
      'inputSchema must describe an object',
    );
    expect(() => tool({ name: 'ok', description: 'd', inputSchema: {} as never }, () => 1)).toThrow(
      'inputSchema must be a zod schema (z.object({ a: z.number() }), zod 3 or 4), another Standard Schema',
    );
  });

  it('validates with zod (defaults applied) and renders results', async () => {
    const t = sdkToolToAgentTool(
      tool(
        {
          name: 'greet',
          description: 'g',
          inputSchema: z.object({ name: z.string(), loud: z.boolean().default(false) }),
        },
        ({ name, loud }) => (loud ? { hi: name.toUpperCase() } : `hi ${name}`),
      ),
    );
    expect(t.validate({ name: 'bo' })).toEqual({ ok: true, args: { name: 'bo', loud: false } });
    expect(t.validate({})).toEqual({
      ok: false,
      error: "params must have required property 'name'",
    });
    expect(await t.execute({ name: 'bo', loud: false }, ctx, call)).toEqual({
      llmContent: 'hi bo',
      returnDisplay: 'hi bo',
    });
    expect((await t.execute({ name: 'bo', loud: true }, ctx, call)).llmContent).toBe(
      '{\n  "hi": "BO"\n}',
    );
    expect(t.describe({})).toBe('Executing greet...');
  });

  it('ModelVisibleError and sendErrorsToModel become error results; other errors propagate', async () => {
    const schema = z.object({});
    const visible = sdkToolToAgentTool(
      tool({ name: 'v', description: 'v', inputSchema: schema }, () => {
        throw new ModelVisibleError(new Error('seen'));
      }),
    );
    expect((await visible.execute({}, ctx, call)).error).toEqual({ message: 'seen' });
    const caught = sdkToolToAgentTool(
      tool({ name: 'c', description: 'c', inputSchema: schema, sendErrorsToModel: true }, () => {
        throw new Error('plain boom');
      }),
    );
    expect((await caught.execute({}, ctx, call)).error).toEqual({ message: 'plain boom' });
    const hidden = sdkToolToAgentTool(
      tool({ name: 'h', description: 'h', inputSchema: schema }, () => {
        throw new Error('hidden');
      }),
    );
    await expect(hidden.execute({}, ctx, call)).rejects.toThrow('hidden');
  });
});

describe('helpers', () => {
  it('unknownToolMessage follows gemini-cli wording', () => {
    expect(unknownToolMessage('x', [])).toBe('Tool "x" not found.');
    expect(unknownToolMessage('x', ['y'])).toBe('Tool "x" not found. Did you mean "y"?');
    expect(levenshtein('kitten', 'sitting')).toBe(3);
  });

  it('renderToolOutput never throws', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop['self'] = loop;
    expect(renderToolOutput(loop)).toContain('[Circular]');
    expect(renderToolOutput(undefined)).toBe('');
    expect(renderToolOutput(10n)).toBe('"10"');
  });

  it('ToolRegistry refuses duplicate names', () => {
    const t = sdkToolToAgentTool(
      tool({ name: 'd', description: 'd', inputSchema: z.object({}) }, () => 1),
    );
    expect(() => new ToolRegistry([t, t])).toThrow('Two tools are named "d"');
  });

  it('Part[] results join texts into output and keep media as sibling parts', () => {
    const media = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    const r = resultToResponse(
      { callId: 'c', name: 'n', args: {}, isClientInitiated: false, prompt_id: 'p' },
      { llmContent: [{ text: 'a' }, media, { text: 'b' }] },
    );
    expect(r.responseParts).toEqual([
      { functionResponse: { id: 'c', name: 'n', response: { output: 'a\nb' } } },
      media,
    ]);
  });
});
