/**
 * gemini-cli's google_web_search, write_todos and save_memory through the real @google/genai client against
 * FakeGeminiServer on loopback: the declarations the model gets, the grounded search call and its rendering, the
 * todo list's checks and text, and the memory files gemini writes.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import {
  FakeGeminiServer,
  type FakeGeminiRequest,
  type FakeGeminiTurn,
} from '../../src/testing/index.js';

function turn(parts: object[], extra: object = {}): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', ...extra }],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    } as GenerateContentResponse,
  ];
}
const call = (name: string, args: object) =>
  turn([{ functionCall: { name, args, id: `${name}-1` } }]);

interface Body {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  tools?: Array<{ functionDeclarations?: Array<{ name: string }>; googleSearch?: object }>;
  generationConfig?: Record<string, unknown>;
}
const body = (r: FakeGeminiRequest | undefined) => r?.body as Body;
const declared = (r: FakeGeminiRequest | undefined) =>
  (body(r).tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
/** The functionResponse the model got in the request after a tool ran. */
const toolResponse = (r: FakeGeminiRequest | undefined) =>
  body(r).contents.at(-1)?.parts[0]?.['functionResponse'] as { response: Record<string, unknown> };

let root: string;
let server: FakeGeminiServer;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gemini-agent-tools-'));
  await mkdir(join(root, 'project'));
  await mkdir(join(root, 'home'));
  process.env['GEMINI_CLI_HOME'] = join(root, 'home');
});
afterEach(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

async function run(
  turns: FakeGeminiTurn[],
  options: Partial<GeminiCliAgentOptions> = {},
  prompt = 'go',
): Promise<ServerGeminiStreamEvent[]> {
  server = new FakeGeminiServer({ turns });
  const baseUrl = await server.start();
  const agent = new GeminiCliAgent({
    cwd: join(root, 'project'),
    apiKey: 'test-key',
    baseUrl,
    retry: false,
    skillDiscovery: false,
    agentDiscovery: false,
    ...options,
  });
  const session = agent.session();
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of session.sendStream(prompt)) events.push(event);
  await session.close();
  return events;
}

describe('google_web_search', () => {
  it("asks gemini-3-flash-preview with googleSearch grounding and renders gemini's citations and sources", async () => {
    const answer = 'Vitest 4 is out. It supports browser mode. Überall.';
    const grounding = {
      groundingMetadata: {
        groundingChunks: [
          { web: { uri: 'https://vitest.dev/blog', title: 'Vitest blog' } },
          { web: { uri: 'https://example.org/news' } },
        ],
        groundingSupports: [
          { segment: { startIndex: 0, endIndex: 16 }, groundingChunkIndices: [0] },
          // Byte offsets: "Überall." is 9 bytes; the marker goes after it, at the end.
          {
            segment: { startIndex: 43, endIndex: Buffer.byteLength(answer) },
            groundingChunkIndices: [0, 1],
          },
        ],
      },
    };
    const events = await run([
      call('google_web_search', { query: 'vitest 4 release' }),
      turn([{ text: answer }], grounding),
      turn([{ text: 'Done.' }]),
    ]);
    expect(declared(server.requests[0])).toContain('google_web_search');
    const search = server.requests[1];
    expect(search?.method).toBe('generateContent');
    expect(search?.model).toBe('gemini-3-flash-preview');
    expect(body(search).contents).toEqual([
      { role: 'user', parts: [{ text: 'vitest 4 release' }] },
    ]);
    expect(body(search).tools).toEqual([{ googleSearch: {} }]);
    expect(body(search).generationConfig).toMatchObject({ temperature: 0, topP: 1 });
    expect(toolResponse(server.requests[2]).response).toEqual({
      output:
        'Web search results for "vitest 4 release":\n\n' +
        'Vitest 4 is out.[1] It supports browser mode. Überall.[1][2]\n\n' +
        'Sources:\n[1] Vitest blog (https://vitest.dev/blog)\n[2] Untitled (https://example.org/news)',
    });
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.value).toMatchObject({
      resultDisplay: 'Search results for "vitest 4 release" returned.',
    });
    server.assertComplete();
  });

  it("an empty answer is gemini's no-results text; a failed search is an error the model sees", async () => {
    await run([
      call('google_web_search', { query: 'nothing' }),
      turn([{ text: '  ' }]),
      turn([{ text: 'ok' }]),
    ]);
    expect(toolResponse(server.requests[2]).response).toEqual({
      output: 'No search results or information found for query: "nothing"',
    });
    await server.close();
    const events = await run([
      call('google_web_search', { query: 'down' }),
      { status: 500 },
      turn([{ text: 'ok' }]),
    ]);
    expect(server.requests[1]?.method).toBe('generateContent');
    const failed = events.find((e) => e.type === 'tool_call_response');
    expect(failed?.value.error?.type).toBe('web_search_failed');
    expect(failed?.value.error?.message).toContain('Error during web search for query "down"');
  });

  it('an empty query never reaches the model', async () => {
    await run([call('google_web_search', { query: ' ' }), turn([{ text: 'ok' }])]);
    expect(server.requests).toHaveLength(2);
    expect(toolResponse(server.requests[1]).response).toEqual({
      error: "The 'query' parameter cannot be empty.",
    });
  });

  it("counts in the session's budget: a search that would cross it is refused", async () => {
    const events = await run(
      [call('google_web_search', { query: 'costly' }), turn([{ text: 'never' }])],
      { budget: { maxTotalTokens: 110.5 } },
    );
    // The search is not sent; the next main call would cross the limit too, so the turn pauses.
    expect(server.requests.map((r) => r.method)).toEqual(['generateContentStream']);
    const failed = events.find((e) => e.type === 'tool_call_response');
    expect(failed?.value.error?.message).toContain("session's budget");
    expect(events.at(-1)?.type).toBe('budget_exceeded');
  });
});

describe('write_todos', () => {
  const todos = [
    { description: 'Read the code', status: 'completed' },
    { description: 'Fix the bug', status: 'in_progress' },
    { description: 'Ship it', status: 'pending' },
  ];

  it('is not offered headless (as gemini -p); offered where someone can be asked, and runs without asking', async () => {
    await run([turn([{ text: 'hi' }])]);
    expect(declared(server.requests[0])).not.toContain('write_todos');
    await server.close();
    const asked: string[] = [];
    const events = await run([call('write_todos', { todos }), turn([{ text: 'ok' }])], {
      onApproval: (request) => {
        asked.push(request.toolName);
        return 'deny';
      },
    });
    expect(declared(server.requests[0])).toContain('write_todos');
    expect(asked).toEqual([]);
    expect(toolResponse(server.requests[1]).response).toEqual({
      output:
        'Successfully updated the todo list. The current list is now:\n' +
        '1. [completed] Read the code\n2. [in_progress] Fix the bug\n3. [pending] Ship it',
    });
    // The display is gemini-cli's TodoList object (what its UI renders and its session record stores), not text.
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.value).toMatchObject({
      name: 'write_todos',
      resultDisplay: { todos },
      description: 'Set 3 todo(s)',
      displayName: 'WriteTodos',
    });
  });

  it("refuses two in_progress items and unknown statuses with gemini's messages; [] clears", async () => {
    const yolo = { policy: { mode: 'yolo' as const } };
    const events = await run(
      [
        call('write_todos', {
          todos: [
            { description: 'a', status: 'in_progress' },
            { description: 'b', status: 'in_progress' },
          ],
        }),
        call('write_todos', { todos: [{ description: 'a', status: 'doing' }] }),
        call('write_todos', { todos: [] }),
        turn([{ text: 'ok' }]),
      ],
      yolo,
    );
    expect(toolResponse(server.requests[1]).response).toEqual({
      error: 'Invalid parameters: Only one task can be "in_progress" at a time.',
    });
    expect(toolResponse(server.requests[2]).response).toEqual({
      error:
        'Each todo must have a valid status (pending, in_progress, completed, cancelled, blocked)',
    });
    expect(toolResponse(server.requests[3]).response).toEqual({
      output: 'Successfully cleared the todo list.',
    });
    // Refused calls display their error text; the cleared list displays an empty TodoList.
    const displays = events.flatMap((e) =>
      e.type === 'tool_call_response' ? [e.value.resultDisplay] : [],
    );
    expect(displays).toEqual([
      'Invalid parameters: Only one task can be "in_progress" at a time.',
      'Each todo must have a valid status (pending, in_progress, completed, cancelled, blocked)',
      { todos: [] },
    ]);
  });
});

describe('save_memory', () => {
  const home = () => join(root, 'home', '.gemini');

  it("appends under gemini's section in ~/.gemini/GEMINI.md, sanitised, and the next session loads it", async () => {
    await mkdir(home(), { recursive: true });
    await writeFile(join(home(), 'GEMINI.md'), '# Me\n\nI like tea.\n\n## Other\n- x\n');
    const events = await run(
      [
        call('save_memory', { fact: '- My cat is <b>Tom</b>\nand he is 3' }),
        call('save_memory', { fact: 'I use vim' }),
        turn([{ text: 'ok' }]),
      ],
      { builtinTools: ['save_memory'], policy: { mode: 'yolo' } },
    );
    expect(declared(server.requests[0])).toEqual(['save_memory']);
    expect(await readFile(join(home(), 'GEMINI.md'), 'utf8')).toBe(
      '# Me\n\nI like tea.\n\n## Other\n- x\n\n## Gemini Added Memories\n' +
        '- My cat is  b Tom /b  and he is 3\n- I use vim\n',
    );
    expect(toolResponse(server.requests[1]).response).toEqual({
      output: JSON.stringify({
        success: true,
        message: 'Okay, I\'ve remembered that: "My cat is  b Tom /b  and he is 3"',
      }),
    });
    expect(events.filter((e) => e.type === 'tool_call_response')).toHaveLength(2);
    await server.close();
    await run([turn([{ text: 'hi' }])], { builtinTools: false });
    const system = JSON.stringify(
      (server.requests[0]?.body as { systemInstruction?: unknown }).systemInstruction,
    );
    expect(system).toContain('- I use vim');
  });

  it('project scope appends to the private MEMORY.md under ~/.gemini/tmp/<project>/memory', async () => {
    await run(
      [
        call('save_memory', { fact: 'tests run with npm test', scope: 'project' }),
        call('save_memory', { fact: 'lint first', scope: 'project' }),
        turn([{ text: 'ok' }]),
      ],
      { builtinTools: ['save_memory'], policy: { mode: 'yolo' } },
    );
    const tmp = join(home(), 'tmp');
    const [project] = (await readdir(tmp)).filter((d) => d !== 'bin');
    expect(await readFile(join(tmp, project ?? '', 'memory', 'MEMORY.md'), 'utf8')).toBe(
      '- tests run with npm test\n- lint first\n',
    );
  });

  it('asks like an edit (denied headless, not offered); calls in one turn never lose a fact', async () => {
    await run([turn([{ text: 'hi' }])], { builtinTools: ['save_memory'] });
    expect(declared(server.requests[0])).toEqual([]);
    await server.close();
    const facts = Array.from({ length: 6 }, (_, i) => `fact ${i}`);
    await run(
      [
        turn(
          facts.map((fact, i) => ({
            functionCall: { name: 'save_memory', args: { fact }, id: `m${i}` },
          })),
        ),
        turn([{ text: 'ok' }]),
      ],
      { builtinTools: ['save_memory'], onApproval: () => 'allow' },
    );
    const saved = await readFile(join(home(), 'GEMINI.md'), 'utf8');
    for (const fact of facts) expect(saved).toContain(`- ${fact}\n`);
  });
});
