import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { beforeAll, describe, expect, it } from 'vitest';
import { AbortError, ReplayError } from '../errors.js';
import { createReplayGenerator, ReplayContentGenerator } from './replay.js';
import { loadReplayFile } from './replay-file.js';

const FIXTURES = resolve(process.cwd(), 'test/fixtures/gemini-cli-sdk-test-data');
const req: GenerateContentParameters = { model: 'gemini-2.5-pro', contents: 'hi' };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-test-'));
});

async function writeLines(name: string, lines: unknown[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(
    file,
    lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n',
  );
  return file;
}

const chunk = (text: string) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] } }],
});

async function collect(
  stream: AsyncIterable<GenerateContentResponse>,
): Promise<GenerateContentResponse[]> {
  const out: GenerateContentResponse[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

function caught(fn: () => Promise<unknown>): Promise<unknown> {
  return fn().then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('replay fixtures', () => {
  it('loads and replays every fixture file line by line', async () => {
    const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(9);
    for (const name of files) {
      const { lines } = await loadReplayFile(join(FIXTURES, name));
      expect(lines.length, name).toBeGreaterThan(0);
      const gen = await createReplayGenerator(join(FIXTURES, name));
      for (const { entry } of lines) {
        expect(entry.method).toBe('generateContentStream');
        const chunks = await collect(await gen.generateContentStream(req));
        expect(chunks).toEqual(entry.response);
        expect(chunks.length).toBeGreaterThan(0);
      }
      expect(gen.remaining).toBe(0);
    }
  });

  it('replays the tool-success recording: a functionCall, then the text "8"', async () => {
    const gen = await createReplayGenerator(join(FIXTURES, 'tool-success.json'));
    const [first] = await collect(await gen.generateContentStream(req));
    expect(first?.candidates?.[0]?.content?.parts?.[0]?.functionCall).toEqual({
      name: 'add',
      args: { a: 5, b: 3 },
    });
    const second = await collect(await gen.generateContentStream(req));
    expect(second[0]?.candidates?.[0]?.content?.parts?.[0]?.text).toBe('8');
  });

  it('each generator starts again at line 1', async () => {
    const a = await createReplayGenerator(join(FIXTURES, 'agent-dynamic-instructions.json'));
    const b = await createReplayGenerator(join(FIXTURES, 'agent-dynamic-instructions.json'));
    const fromA = await collect(await a.generateContentStream(req));
    const fromB = await collect(await b.generateContentStream(req));
    expect(fromB).toEqual(fromA);
  });
});

describe('strict replay', () => {
  it('uses one cursor across methods and returns fresh copies', async () => {
    const file = await writeLines('mixed.jsonl', [
      { method: 'countTokens', response: { totalTokens: 42 } },
      '',
      { method: 'generateContent', response: chunk('one') },
      { method: 'generateContentStream', response: [chunk('a'), chunk('b')] },
    ]);
    const gen = await createReplayGenerator(file);
    expect(await gen.countTokens({ model: 'm', contents: 'x' })).toEqual({ totalTokens: 42 });
    const r = await gen.generateContent(req);
    expect(r.candidates?.[0]?.content?.parts?.[0]?.text).toBe('one');
    (r.candidates as unknown[]).length = 0; // mutating a result must not affect the generator
    const chunks = await collect(await gen.generateContentStream(req));
    expect(chunks.map((c) => c.candidates?.[0]?.content?.parts?.[0]?.text)).toEqual(['a', 'b']);
  });

  it('reports exhaustion with the gemini-cli wording plus the file', async () => {
    const file = await writeLines('one.jsonl', [
      { method: 'generateContentStream', response: [chunk('a')] },
    ]);
    const gen = await createReplayGenerator(file);
    await collect(await gen.generateContentStream(req));
    const err = await caught(() => gen.generateContentStream(req));
    expect(err).toBeInstanceOf(ReplayError);
    const e = err as ReplayError;
    expect(e.code).toBe('REPLAY_EXHAUSTED');
    expect(e.message).toMatch(
      /^No more mock responses for generateContentStream, got request 2 \(model "gemini-2\.5-pro", 1 content, the last \(user\): "hi"\)\./,
    );
    expect(e.message).toContain(file);
    expect(e.file).toBe(file);
  });

  it('names the request it could not answer without dumping its tool declarations', async () => {
    const file = await writeLines('short.jsonl', []);
    const gen = await createReplayGenerator(file);
    const declarations = Array.from({ length: 40 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'd'.repeat(500),
      parametersJsonSchema: { type: 'object', properties: {} },
    }));
    const big: GenerateContentParameters = {
      model: 'gemini-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: `list the files\n${'and more '.repeat(100)}` }] },
        { role: 'model', parts: [{ functionCall: { name: 'list_directory', args: {} } }] },
        {
          role: 'user',
          parts: [
            {
              functionResponse: { name: 'list_directory', response: { output: 'x'.repeat(9000) } },
            },
            { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          ],
        },
      ],
      config: {
        systemInstruction: 's'.repeat(12_345),
        tools: [{ functionDeclarations: declarations }],
      },
    };
    const err = (await caught(() => gen.generateContentStream(big))) as ReplayError;
    expect(err.code).toBe('REPLAY_EXHAUSTED');
    expect(err.message).toContain(
      'got request 1 (model "gemini-2.5-flash", 3 contents, the last (user): functionResponse list_directory, ' +
        'inlineData image/png; not shown: 40 tool declarations, a 12,345-character system instruction).',
    );
    expect(err.message.length).toBeLessThan(800);
    const text = (await caught(() =>
      gen.generateContent({
        model: 'm',
        contents: [{ role: 'user', parts: [{ text: 'y'.repeat(5000) }] }],
      }),
    )) as ReplayError;
    expect(text.message).toContain(
      `got request 2 (model "m", 1 content, the last (user): "${'y'.repeat(160)}…")`,
    );
  });

  it('a method mismatch consumes the line and names file and line', async () => {
    const file = await writeLines('mismatch.jsonl', [
      { method: 'generateContent', response: chunk('x') },
      { method: 'generateContentStream', response: [chunk('y')] },
    ]);
    const gen = await createReplayGenerator(file);
    const err = (await caught(() => gen.generateContentStream(req))) as ReplayError;
    expect(err).toBeInstanceOf(ReplayError);
    expect(err.code).toBe('REPLAY_MISMATCH');
    expect(err.message).toContain(
      'Unexpected response type, next response was for generateContent but expected generateContentStream',
    );
    expect(err.message).toContain(`${file}, line 1`);
    expect(err.line).toBe(1);
    // the cursor advanced: the next stream call gets line 2
    const chunks = await collect(await gen.generateContentStream(req));
    expect(chunks[0]?.candidates?.[0]?.content?.parts?.[0]?.text).toBe('y');
  });

  it('throws AbortError for an aborted signal without consuming a line', async () => {
    const file = await writeLines('abort.jsonl', [
      { method: 'generateContentStream', response: [chunk('a')] },
    ]);
    const gen = await createReplayGenerator(file);
    const ac = new AbortController();
    ac.abort();
    await expect(gen.generateContentStream(req, ac.signal)).rejects.toBeInstanceOf(AbortError);
    expect(gen.remaining).toBe(1);
  });
});

describe('non-strict replay', () => {
  it('takes the first remaining line of the called method', async () => {
    const file = await writeLines('loose.jsonl', [
      { method: 'generateContent', response: chunk('classifier') },
      { method: 'generateContentStream', response: [chunk('main')] },
    ]);
    const gen = await createReplayGenerator(file, { strict: false });
    const chunks = await collect(await gen.generateContentStream(req));
    expect(chunks[0]?.candidates?.[0]?.content?.parts?.[0]?.text).toBe('main');
    const err = (await caught(() => gen.generateContentStream(req))) as ReplayError;
    expect(err.code).toBe('REPLAY_EXHAUSTED');
    expect(err.message).toMatch(/^No more mock responses for generateContentStream/);
    const r = await gen.generateContent(req);
    expect(r.candidates?.[0]?.content?.parts?.[0]?.text).toBe('classifier');
  });
});

describe('bad replay files', () => {
  it('a missing file says which path and what to do', async () => {
    const file = join(dir, 'nope.jsonl');
    const err = (await caught(() => createReplayGenerator(file))) as ReplayError;
    expect(err).toBeInstanceOf(ReplayError);
    expect(err.code).toBe('REPLAY_FILE_MISSING');
    expect(err.message).toContain(file);
    expect(err.message).toContain('does not exist');
    expect(err.message).toContain('recordResponses');
  });

  it('invalid JSON fails at load with its 1-based line number', async () => {
    const file = await writeLines('badjson.jsonl', [
      { method: 'generateContentStream', response: [chunk('a')] },
      '',
      '{"method": "generateContentStream", "response": [',
    ]);
    const err = (await caught(() => createReplayGenerator(file))) as ReplayError;
    expect(err).toBeInstanceOf(ReplayError);
    expect(err.code).toBe('REPLAY_MALFORMED');
    expect(err.line).toBe(3);
    expect(err.message).toContain(`${file}, line 3`);
  });

  it('a schema violation (unknown method, stream without array) fails at load', async () => {
    const f1 = await writeLines('badmethod.jsonl', [{ method: 'chat', response: {} }]);
    const e1 = (await caught(() => createReplayGenerator(f1))) as ReplayError;
    expect(e1.code).toBe('REPLAY_MALFORMED');
    expect(e1.line).toBe(1);
    const f2 = await writeLines('badstream.jsonl', [
      { method: 'generateContent', response: chunk('ok') },
      { method: 'generateContentStream', response: chunk('not an array') },
    ]);
    const e2 = (await caught(() => createReplayGenerator(f2))) as ReplayError;
    expect(e2.line).toBe(2);
    expect(e2.message).toContain('response');
  });

  it('a generator can be built from parsed lines directly', async () => {
    const gen = new ReplayContentGenerator(
      [{ line: 1, entry: { method: 'countTokens', response: { totalTokens: 3 } } }],
      'inline',
    );
    expect(await gen.countTokens({ model: 'm', contents: 'x' })).toEqual({ totalTokens: 3 });
  });
});
