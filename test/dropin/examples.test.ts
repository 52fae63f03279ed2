/**
 * gemini-cli's own SDK examples (`packages/sdk/examples/*.ts`, committed verbatim under `reference/`) run
 * unchanged — only the import changes — against a loopback Gemini API. One test per example.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { callTurn, textTurn, type FakeGeminiRequest } from '../../src/testing/index.js';
import { REFERENCE_SHA256, runReferenceExample } from './reference-example.js';

interface Body {
  contents?: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<{ functionDeclarations?: Array<Record<string, unknown>> }>;
}

const body = (request: FakeGeminiRequest | undefined): Body => (request?.body ?? {}) as Body;
const systemText = (request: FakeGeminiRequest | undefined): string =>
  body(request)
    .systemInstruction?.parts?.map((p) => p.text ?? '')
    .join('') ?? '';
/** The `response` objects of the function responses in the last user turn of a request. */
const functionResponses = (request: FakeGeminiRequest | undefined): unknown[] =>
  (body(request).contents?.at(-1)?.parts ?? []).map(
    (p) => (p['functionResponse'] as { response?: unknown } | undefined)?.response,
  );

describe('the reference SDK examples run unchanged', () => {
  it('covers every committed example (one test each below)', () => {
    const committed = readdirSync(fileURLToPath(new URL('./reference', import.meta.url)));
    expect(committed.filter((f) => f.endsWith('.ts')).sort()).toEqual(
      Object.keys(REFERENCE_SHA256).sort(),
    );
  });

  it('simple.ts: agent.sendStream, a zod tool the model calls, the events as JSON', async () => {
    const run = await runReferenceExample('simple.ts', [
      callTurn({ name: 'add', args: { a: 5, b: 6 } }),
      textTurn('Arr, 5 and 6 make 11 doubloons, and here be the tale of them.'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Sending prompt: 'add 5 + 6'");
    expect(run.stdout).toContain("Tool 'add' called with a=5, b=6");
    expect(run.stdout).toContain('"type": "tool_call_request"');
    expect(run.stdout).toContain('"value": "Arr, 5 and 6 make 11 doubloons');

    const [first, second] = run.server.requests;
    expect(run.server.requests).toHaveLength(2);
    expect(systemText(first)).toContain(
      '<loaded_context>\nMake sure to always talk like a pirate.\n</loaded_context>',
    );
    const declaration = body(first).tools?.[0]?.functionDeclarations?.find(
      (d) => d['name'] === 'add',
    );
    expect(declaration).toMatchObject({
      description: 'Add two numbers.',
      parametersJsonSchema: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'the first number' },
          b: { type: 'number', description: 'the second number' },
        },
        required: ['a', 'b'],
      },
    });
    expect(functionResponses(second)).toEqual([{ output: '{\n  "result": 11\n}' }]);
    run.server.assertComplete();
  });

  it('session-context.ts: the tool reads package.json with ctx.fs and runs echo with ctx.shell', async () => {
    const run = await runReferenceExample('session-context.ts', [
      callTurn({ name: 'get_context', args: {} }),
      textTurn('You are in a project with a package.json, and the shell said hello.'),
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Session Context Accessed:');
    expect(run.stdout).toMatch(/- Session ID: [0-9a-f-]{36}\n/);
    expect(run.stdout).toMatch(/- CWD: \/.*\/project\n/);
    expect(run.stdout).not.toContain('Could not');
    expect(run.stdout).toContain('the shell said hello.');

    const [, second] = run.server.requests;
    const [response] = functionResponses(second) as Array<{ output?: string }>;
    const output = JSON.parse(response?.output ?? '{}') as Record<string, unknown>;
    expect(output).toMatchObject({
      hasFsAccess: true,
      hasShellAccess: true,
      packageJsonExists: true,
      shellEcho: 'Hello from SDK Shell',
    });
    expect(output['sessionId']).toMatch(/^[0-9a-f-]{36}$/);
    run.server.assertComplete();
  });
});
