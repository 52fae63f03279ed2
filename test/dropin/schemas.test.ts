/**
 * `tool({ inputSchema })` with every kind of schema a user of the reference SDK may hold: zod 4, zod 3 (the
 * `zod@3` package the reference pins, and `zod/v3`), Standard Schemas (valibot, arktype) and plain JSON Schema.
 * Each declares its JSON Schema to the model, validates through its own validator, and types the action's
 * parameters. Type-level checks fail `npm run typecheck` when inference breaks.
 */
import { fileURLToPath } from 'node:url';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z as zod3 } from 'zod3';
import { z as zodV3 } from 'zod/v3';
import {
  ConfigurationError,
  GeminiCliAgent,
  ModelVisibleError,
  SdkTool,
  tool,
  z,
  type ServerGeminiStreamEvent,
  type Tool,
  type ToolInputSchema,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/gemini-cli-sdk-test-data/${name}.json`, import.meta.url));

async function collect(stream: AsyncIterable<ServerGeminiStreamEvent>) {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  const text = events.map((e) => (e.type === 'content' ? e.value : '')).join('');
  const responses = events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []));
  return { events, text, responses };
}

/** The same three argument shapes, written with each schema library. */
interface Kit {
  add: ToolInputSchema;
  input: ToolInputSchema;
  empty: ToolInputSchema;
}
const kits: Record<string, Kit> = {
  'zod 4': {
    add: z.object({ a: z.number(), b: z.number() }),
    input: z.object({ input: z.string() }),
    empty: z.object({}),
  },
  'zod 3 (zod@3.25.76)': {
    add: zod3.object({ a: zod3.number(), b: zod3.number() }),
    input: zod3.object({ input: zod3.string() }),
    empty: zod3.object({}),
  },
  'zod/v3': {
    add: zodV3.object({ a: zodV3.number(), b: zodV3.number() }),
    input: zodV3.object({ input: zodV3.string() }),
    empty: zodV3.object({}),
  },
  valibot: {
    add: v.object({ a: v.number(), b: v.number() }),
    input: v.object({ input: v.string() }),
    empty: v.object({}),
  },
  arktype: {
    add: type({ a: 'number', b: 'number' }),
    input: type({ input: 'string' }),
    empty: type({}),
  },
  'JSON Schema': {
    add: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    input: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    empty: { type: 'object', properties: {} },
  },
};

describe.each(Object.entries(kits))(
  "the reference's tool.integration scenarios with %s",
  (_, kit) => {
    it('handles tool execution success', async () => {
      const calls: unknown[] = [];
      const agent = new GeminiCliAgent({
        instructions: 'You are a helpful assistant.',
        fakeResponses: fixture('tool-success'),
        tools: [
          tool(
            { name: 'add', description: 'Adds two numbers', inputSchema: kit.add },
            async (args) => {
              calls.push(args);
              const { a, b } = args as { a: number; b: number };
              return a + b;
            },
          ),
        ],
      });
      const { text, responses } = await collect(agent.session().sendStream('What is 5 + 3?'));
      expect(calls).toEqual([{ a: 5, b: 3 }]);
      expect(text).toContain('8');
      expect(responses[0]?.responseParts[0]?.functionResponse?.response).toEqual({ output: '8' });
    });

    it('handles ModelVisibleError correctly', async () => {
      const agent = new GeminiCliAgent({
        instructions: 'You are a helpful assistant.',
        fakeResponses: fixture('tool-error-recovery'),
        tools: [
          tool(
            { name: 'failVisible', description: 'Fails visibly on "fail"', inputSchema: kit.input },
            async (args) => {
              if ((args as { input: string }).input === 'fail') {
                throw new ModelVisibleError('Tool failed visibly');
              }
              return 'Success';
            },
          ),
        ],
      });
      const { text } = await collect(
        agent
          .session()
          .sendStream('Call the tool with "fail". If it fails, tell me the error message.'),
      );
      expect(text).toContain('Tool failed visibly');
    });

    it('handles sendErrorsToModel: true correctly', async () => {
      const agent = new GeminiCliAgent({
        instructions: 'You are a helpful assistant.',
        fakeResponses: fixture('tool-catchall-error'),
        tools: [
          tool(
            {
              name: 'checkSystemStatus',
              description: 'Checks the current system status',
              inputSchema: kit.empty,
              sendErrorsToModel: true,
            },
            async () => {
              throw new Error('Standard error caught');
            },
          ),
        ],
      });
      const { text } = await collect(
        agent.session().sendStream('Check the system status and report any errors.'),
      );
      expect(text.toLowerCase()).toContain('error');
    });
  },
);

/** Runs one model call of `name` with `args` and returns what the model got back and what the action saw. */
async function callWith(schema: ToolInputSchema, args: Record<string, unknown>) {
  const seen: unknown[] = [];
  const model = new ScriptedModel([callTurn({ name: 'probe', args }), textTurn('ok')]);
  const agent = new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    tools: [
      tool({ name: 'probe', description: 'Probe', inputSchema: schema }, (params) => {
        seen.push(params);
        return 'ran';
      }),
    ],
  });
  const { responses } = await collect(agent.sendStream('go'));
  const declaration = model.generateRequests[0]?.config?.tools?.[0] as
    { functionDeclarations?: Array<{ parametersJsonSchema?: unknown }> } | undefined;
  return {
    seen,
    response: responses[0]?.responseParts[0]?.functionResponse?.response,
    declared: declaration?.functionDeclarations?.[0]?.parametersJsonSchema,
  };
}

describe('declarations and validation come from the schema itself', () => {
  const described = {
    'zod 4': z.object({
      city: z.string().describe('City name'),
      days: z.number().int().default(1),
    }),
    'zod 3': zod3.object({
      city: zod3.string().describe('City name'),
      days: zod3.number().int().default(1),
    }),
    valibot: v.object({
      city: v.pipe(v.string(), v.description('City name')),
      days: v.optional(v.pipe(v.number(), v.integer()), 1),
    }),
  };

  it.each(Object.entries(described))(
    '%s: descriptions and defaults reach the model and the action',
    async (_, schema) => {
      const ok = await callWith(schema, { city: 'Oslo' });
      expect(ok.declared).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string', description: 'City name' } },
        required: ['city'],
      });
      expect(ok.declared).not.toHaveProperty('$schema');
      expect(ok.seen).toEqual([{ city: 'Oslo', days: 1 }]);
      expect(ok.response).toEqual({ output: 'ran' });
    },
  );

  it("invalid arguments get gemini-cli's wording and never reach the action", async () => {
    for (const schema of [
      ...Object.values(described),
      kits['JSON Schema']?.add as ToolInputSchema,
    ]) {
      const missing = await callWith(schema, {});
      expect(missing.seen).toEqual([]);
      expect(missing.response).toEqual({
        error: expect.stringMatching(/^params must have required property '(city|a)'$/),
      });
    }
    const wrongType = await callWith(described['zod 3'], { city: 7 });
    expect(wrongType.response).toEqual({ error: 'params/city must be string' });
  });

  it("checks only the schema's own validator can make run too (refinements, async checks, transforms)", async () => {
    const even = await callWith(
      z.object({ n: z.number().refine((n) => n % 2 === 0, 'n must be even') }),
      { n: 3 },
    );
    expect(even.seen).toEqual([]);
    expect(even.response).toEqual({
      error: 'Invalid arguments for tool "probe": n: n must be even',
    });

    const asyncCheck = z.object({
      user: z.string().refine(async (u) => Promise.resolve(u !== 'root'), 'no root'),
    });
    expect((await callWith(asyncCheck, { user: 'root' })).response).toEqual({
      error: 'Invalid arguments for tool "probe": user: no root',
    });
    expect((await callWith(asyncCheck, { user: 'ada' })).seen).toEqual([{ user: 'ada' }]);

    const transformed = await callWith(
      zod3.object({ tags: zod3.string().transform((s) => s.split(',')) }),
      { tags: 'a,b' },
    );
    expect(transformed.seen).toEqual([{ tags: ['a', 'b'] }]);

    const arkRange = await callWith(type({ age: 'number >= 18' }), { age: 12 });
    expect(arkRange.seen).toEqual([]);
    expect(JSON.stringify(arkRange.response)).toMatch(
      /age must be at least 18|params\/age must be >= 18/,
    );
  });

  it('a plain JSON Schema is validated by Ajv, formats included', async () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
    } as const;
    expect((await callWith(schema, { email: 'not-an-email' })).response).toEqual({
      error: 'params/email must match format "email"',
    });
    expect((await callWith(schema, { email: 'ada@example.com' })).seen).toEqual([
      { email: 'ada@example.com' },
    ]);
  });

  it('unusable schemas fail at tool() with a ConfigurationError that says what to do', () => {
    const define = (inputSchema: unknown) => () =>
      tool({ name: 'x', description: 'x', inputSchema: inputSchema as ToolInputSchema }, () => 1);
    expect(define(zod3.string())).toThrow(/inputSchema must describe an object/);
    expect(define({ type: 'string' })).toThrow(/inputSchema must describe an object/);
    expect(define(42)).toThrow(ConfigurationError);
    const noJson = { '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: {} }) } };
    expect(define(noJson)).toThrow(/the acme schema has no JSON Schema support/);
  });
});

describe('SdkTool: the reference tool.test.ts surface', () => {
  it('createInvocationWithContext(...).execute() returns the ToolResult; plain errors throw', async () => {
    const success = new SdkTool(
      tool(
        {
          name: 'successTool',
          description: 'Always succeeds',
          inputSchema: zod3.object({ val: zod3.string() }),
        },
        async ({ val }) => `Success: ${val}`,
      ),
      {},
    );
    const result = await success
      .createInvocationWithContext({ val: 'test' }, {}, undefined)
      .execute({
        abortSignal: new AbortController().signal,
      });
    expect(result.llmContent).toBe('Success: test');
    expect(result.error).toBeUndefined();
    expect(success.schema).toMatchObject({
      name: 'successTool',
      parametersJsonSchema: { type: 'object' },
    });
    expect(() => success.build({})).toThrow("params must have required property 'val'");
    expect(success.validateToolParams({ val: 'x' })).toBeNull();

    const visible = new SdkTool(
      tool({ name: 'v', description: 'v', inputSchema: z.object({}) }, async () => {
        throw new ModelVisibleError('Visible error');
      }),
    );
    const visibleResult = await visible.build({}).execute();
    expect(visibleResult.error?.message).toBe('Visible error');
    expect(visibleResult.llmContent).toContain('Error: Visible error');

    const plain = new SdkTool(
      tool({ name: 'p', description: 'p', inputSchema: z.object({}) }, async () => {
        throw new Error('Standard error');
      }),
    );
    await expect(plain.createInvocationWithContext({}, {}, undefined).execute()).rejects.toThrow(
      'Standard error',
    );
  });
});

describe('types', () => {
  it('infers the action parameters from every kind of schema', () => {
    const zod3Tool = tool(
      {
        name: 'a',
        description: 'a',
        inputSchema: zod3.object({ n: zod3.number(), s: zod3.string().optional() }),
      },
      (p) => p.n + (p.s ?? '').length,
    );
    const valibotTool = tool(
      { name: 'b', description: 'b', inputSchema: v.object({ n: v.number() }) },
      (p) => p.n * 2,
    );
    const arkTool = tool(
      { name: 'c', description: 'c', inputSchema: type({ n: 'number', 'tag?': 'string' }) },
      (p) => p.n,
    );
    const jsonTool = tool(
      {
        name: 'd',
        description: 'd',
        inputSchema: {
          type: 'object',
          properties: {
            n: { type: 'number' },
            mode: { enum: ['fast', 'slow'] },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['n'],
        },
      },
      ({ n, mode, tags }) => `${n + 1} ${mode ?? ''} ${(tags ?? []).join()}`,
    );
    type Params<T> = T extends Tool<infer S> ? Parameters<Tool<S>['action']>[0] : never;
    assertType<Equal<Params<typeof zod3Tool>, { n: number; s?: string | undefined }>>();
    assertType<Equal<Params<typeof valibotTool>, { n: number }>>();
    assertType<
      Equal<Params<typeof jsonTool>, { n: number; mode?: 'fast' | 'slow'; tags?: string[] }>
    >();
    const tools: Tool[] = [zod3Tool, valibotTool, arkTool, jsonTool];
    expect(tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd']);
  });
});
