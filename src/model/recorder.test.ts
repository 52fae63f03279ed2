import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../testing/fake-gemini-server.js';
import { ScriptedModel, textTurn } from '../testing/scripted-model.js';
import { createContentGenerator } from './create-content-generator.js';
import { RecordingContentGenerator } from './recorder.js';
import { createReplayGenerator } from './replay.js';
import { loadReplayFile } from './replay-file.js';

const FIXTURES = resolve(process.cwd(), 'test/fixtures/gemini-cli-sdk-test-data');
const req = { model: 'gemini-2.5-pro', contents: 'hi' };

async function collect(
  stream: AsyncIterable<GenerateContentResponse>,
): Promise<GenerateContentResponse[]> {
  const out: GenerateContentResponse[] = [];
  for await (const c of stream) out.push(c);
  return out;
}
/** What a recording keeps of a response. */
const kept = (r: GenerateContentResponse) =>
  JSON.parse(
    JSON.stringify({ candidates: r.candidates, usageMetadata: r.usageMetadata }),
  ) as unknown;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recorder-test-'));
});
let server: FakeGeminiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('RecordingContentGenerator', () => {
  it('re-recording every fixture through replay yields a file that replays identically', async () => {
    const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json'));
    for (const name of files) {
      const source = join(FIXTURES, name);
      const out = join(dir, `rerecorded-${name}`);
      const { lines } = await loadReplayFile(source);
      const gen = await createContentGenerator({ fakeResponses: source, recordResponses: out });
      const original: GenerateContentResponse[][] = [];
      for (let i = 0; i < lines.length; i++)
        original.push(await collect(await gen.generateContentStream(req)));
      const replay = await createReplayGenerator(out);
      for (const chunks of original) {
        expect(await collect(await replay.generateContentStream(req))).toEqual(chunks.map(kept));
      }
      expect(replay.remaining).toBe(0);
    }
  });

  it('records real client responses (stream, unary, countTokens) that replay to the same responses', async () => {
    server = new FakeGeminiServer();
    server.enqueue(
      {
        chunks: [
          {
            candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] } }],
            responseId: 'r1',
          },
          {
            candidates: [
              { content: { role: 'model', parts: [{ text: 'lo' }] }, finishReason: 'STOP' },
            ],
            usageMetadata: { promptTokenCount: 1, totalTokenCount: 3 },
            modelVersion: 'gemini-2.5-pro-001',
          },
        ] as unknown as GenerateContentResponse[],
      },
      textTurn('unary answer'),
      { method: 'countTokens', countTokens: { totalTokens: 12 } },
    );
    const baseUrl = await server.start();
    const file = join(dir, 'live.jsonl');
    const live = await createContentGenerator({
      apiKey: 'k',
      baseUrl,
      recordResponses: file,
      retry: false,
    });
    const streamed = await collect(await live.generateContentStream(req));
    const unary = await live.generateContent(req);
    const counted = await live.countTokens(req);

    const text = await readFile(file, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method: string; response: unknown });
    expect(lines.map((l) => l.method)).toEqual([
      'generateContentStream',
      'generateContent',
      'countTokens',
    ]);
    expect(text).not.toContain('responseId');
    expect(text).not.toContain('modelVersion');

    const replay = await createContentGenerator({ fakeResponses: file });
    expect(await collect(await replay.generateContentStream(req))).toEqual(streamed.map(kept));
    expect(await replay.generateContent(req)).toEqual(kept(unary));
    expect((await replay.countTokens(req)).totalTokens).toBe(counted.totalTokens);
  });

  it('writes a stream line only when the consumer iterated to the end', async () => {
    const file = join(dir, 'partial.jsonl');
    const model = new ScriptedModel([
      [...textTurn('a'), ...textTurn('b')],
      [...textTurn('c'), ...textTurn('d')],
    ]);
    const rec = new RecordingContentGenerator(model, file);
    for await (const _ of await rec.generateContentStream(req)) break; // early exit: nothing written
    await expect(readFile(file, 'utf8')).rejects.toThrow();
    await collect(await rec.generateContentStream(req));
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).response).toHaveLength(2);
  });

  it('writes nothing when the stream fails or is aborted', async () => {
    const file = join(dir, 'failed.jsonl');
    await writeFile(file, '');
    const failing = new ScriptedModel(
      [
        () => {
          throw new Error('boom');
        },
        [...textTurn('a'), ...textTurn('b')],
      ],
      { chunkDelayMs: 20 },
    );
    const rec = new RecordingContentGenerator(failing, file);
    await expect(rec.generateContentStream(req).then(collect)).rejects.toThrow('boom');
    const ac = new AbortController();
    const stream = await rec.generateContentStream(req, ac.signal);
    ac.abort();
    await expect(collect(stream)).rejects.toBeDefined();
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('appends to an existing file and creates missing directories', async () => {
    const file = join(dir, 'nested', 'deeper', 'rec.jsonl');
    for (const text of ['one', 'two']) {
      const rec = new RecordingContentGenerator(new ScriptedModel([textTurn(text)]), file);
      await rec.generateContent(req);
    }
    const replay = await createReplayGenerator(file);
    expect((await replay.generateContent(req)).candidates?.[0]?.content?.parts?.[0]?.text).toBe(
      'one',
    );
    expect((await replay.generateContent(req)).candidates?.[0]?.content?.parts?.[0]?.text).toBe(
      'two',
    );
  });
});
