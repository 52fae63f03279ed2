import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, MissingCredentialsError, ReplayError } from '../errors.js';
import { FakeGeminiServer } from '../testing/fake-gemini-server.js';
import { ScriptedModel, textTurn } from '../testing/scripted-model.js';
import { createContentGenerator, geminiModelName } from './create-content-generator.js';
import { openAICompatible } from './openai/openai-compatible.js';
import { GeminiContentGenerator } from './gemini-generator.js';
import { ProviderRouter } from './provider-router.js';
import { RecordingContentGenerator } from './recorder.js';
import { ReplayContentGenerator } from './replay.js';
import { RetryingContentGenerator } from './retry.js';
import { AuthCache } from './auth/auth-cache.js';
import { silentLogger } from '../logger.js';

const FIXTURES = resolve(process.cwd(), 'test/fixtures/gemini-cli-sdk-test-data');
const req = { model: 'gemini-2.5-pro', contents: 'hi' };

async function texts(stream: AsyncIterable<GenerateContentResponse>): Promise<string> {
  let out = '';
  for await (const c of stream) out += c.candidates?.[0]?.content?.parts?.[0]?.text ?? '';
  return out;
}

describe('createContentGenerator', () => {
  it('replays fakeResponses without credentials, from line 1 for every generator', async () => {
    const file = join(FIXTURES, 'agent-resume-session.json');
    const a = await createContentGenerator({ fakeResponses: file, env: {} });
    expect(a).toBeInstanceOf(ReplayContentGenerator);
    expect(await texts(await a.generateContentStream(req))).toContain('BANANA');
    const b = await createContentGenerator({ fakeResponses: file, env: {} });
    expect(await texts(await b.generateContentStream(req))).toContain('BANANA');
  });

  it('geminiModelName: which model ids Gemini serves, under which name', () => {
    const local = openAICompatible({ id: 'local', baseURL: 'http://127.0.0.1:1/v1' });
    expect(geminiModelName('gemini-2.5-pro', undefined)).toBe('gemini-2.5-pro');
    expect(geminiModelName('gemini:gemini-2.5-flash', undefined)).toBe('gemini-2.5-flash');
    expect(geminiModelName('tunedModels:x', undefined)).toBe('tunedModels:x');
    expect(geminiModelName('openai:gpt-4.1', undefined)).toBeUndefined();
    expect(geminiModelName('ollama:llama3.2', undefined)).toBeUndefined();
    expect(geminiModelName('llama3.2', local)).toBeUndefined();
    expect(geminiModelName('local:llama3.2', local)).toBeUndefined();
    expect(geminiModelName('gemini:gemini-2.5-pro', local)).toBe('gemini-2.5-pro');
  });

  it('passes fakeResponsesStrict through', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ccg-'));
    const file = join(dir, 'r.jsonl');
    await writeFile(
      file,
      [
        { method: 'generateContent', response: textTurn('classifier')[0] },
        { method: 'generateContentStream', response: textTurn('main') },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const loose = await createContentGenerator({ fakeResponses: file, fakeResponsesStrict: false });
    expect(await texts(await loose.generateContentStream(req))).toBe('main');
    const strict = await createContentGenerator({ fakeResponses: file });
    await expect(strict.generateContentStream(req)).rejects.toMatchObject({
      code: 'REPLAY_MISMATCH',
    });
  });

  it('a missing replay file fails at creation with a ReplayError', async () => {
    await expect(
      createContentGenerator({ fakeResponses: '/nonexistent/replay.jsonl' }),
    ).rejects.toBeInstanceOf(ReplayError);
  });

  it('no credentials and no replay → MissingCredentialsError saying what to set', async () => {
    // The home is the isolated test home (no cached Google credentials), so the ADC fallback finds nothing.
    const env = { GEMINI_CLI_HOME: process.env['GEMINI_CLI_HOME'] };
    const err = await createContentGenerator({ env }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingCredentialsError);
    expect((err as Error).message).toBe(
      'No Gemini credentials: set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION), sign in with `gemini-agent login` (Login with Google), set GOOGLE_APPLICATION_CREDENTIALS, or pass fakeResponses.',
    );
  });

  it('composes retry around the Gemini adapter and the recorder outermost', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ccg-'));
    const gen = await createContentGenerator({
      env: { GEMINI_API_KEY: 'k' },
      recordResponses: join(dir, 'x.jsonl'),
    });
    expect(gen).toBeInstanceOf(RecordingContentGenerator);
    // The router sends other providers' model ids elsewhere; the session's own source sits behind it.
    const plain = await createContentGenerator({ env: { GEMINI_API_KEY: 'k' } });
    expect(plain).toBeInstanceOf(ProviderRouter);
    expect((plain as ProviderRouter).primary).toBeInstanceOf(RetryingContentGenerator);
    const noRetry = await createContentGenerator({ env: { GEMINI_API_KEY: 'k' }, retry: false });
    expect((noRetry as ProviderRouter).primary).toBeInstanceOf(GeminiContentGenerator);
  });

  it('generators sharing an AuthCache share one Gemini client per logger and settings', async () => {
    const cache = new AuthCache();
    const logger = { ...silentLogger };
    const gemini = async (env: Record<string, string>, more: object = {}) => {
      const gen = await createContentGenerator({
        env,
        authCache: cache,
        logger,
        retry: false,
        ...more,
      });
      return (gen as ProviderRouter).primary;
    };
    const a = await gemini({ GEMINI_API_KEY: 'k' });
    expect(a).toBeInstanceOf(GeminiContentGenerator);
    expect(await gemini({ GEMINI_API_KEY: 'k' })).toBe(a);
    expect(await gemini({ GEMINI_API_KEY: 'other' })).not.toBe(a);
    expect(await gemini({ GEMINI_API_KEY: 'k' }, { headers: { 'x-a': '1' } })).not.toBe(a);
    expect(await gemini({ GEMINI_API_KEY: 'k' }, { maxResponseBytes: 10 })).not.toBe(a);
    expect(await gemini({ GEMINI_API_KEY: 'k' }, { logger: { ...silentLogger } })).not.toBe(a);
    const own = await createContentGenerator({
      env: { GEMINI_API_KEY: 'k' },
      logger,
      retry: false,
    });
    expect((own as ProviderRouter).primary).not.toBe(a);
  });

  it('uses an explicit contentGenerator (with retries) and rejects it together with fakeResponses', async () => {
    const model = new ScriptedModel([textTurn('scripted')]);
    const gen = await createContentGenerator({ contentGenerator: model, env: {} });
    expect(await texts(await gen.generateContentStream(req))).toBe('scripted');
    model.assertComplete();
    await expect(
      createContentGenerator({
        contentGenerator: model,
        fakeResponses: join(FIXTURES, 'tool-success.json'),
      }),
    ).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('end to end: retry + recorder + real client against FakeGeminiServer', async () => {
    const server = new FakeGeminiServer({ turns: [{ status: 503 }, textTurn('recovered')] });
    try {
      const dir = await mkdtemp(join(tmpdir(), 'ccg-'));
      const file = join(dir, 'rec.jsonl');
      const gen = await createContentGenerator({
        env: { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: await server.start() },
        retry: { initialDelayMs: 1 },
        recordResponses: file,
      });
      expect(await texts(await gen.generateContentStream(req))).toBe('recovered');
      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(1); // the failed attempt is not recorded
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

describe('lazy client loading', () => {
  it('no module in src/model or src/testing imports a model client library at load time except as types', async () => {
    const offenders: string[] = [];
    const libraries = String.raw`(?:@google\/genai|google-auth-library|openai)(?:\/[^']*)?`;
    const runtimeImport = new RegExp(
      String.raw`^\s*(?:import|export)\s+(?!type\b)[^;]*from\s+'${libraries}'`,
      'm',
    );
    for (const folder of [
      'src/model',
      'src/model/auth',
      'src/model/code-assist',
      'src/model/openai',
      'src/testing',
    ]) {
      for (const name of await readdir(resolve(process.cwd(), folder))) {
        if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
        const text = await readFile(resolve(process.cwd(), folder, name), 'utf8');
        if (runtimeImport.test(text)) offenders.push(`${folder}/${name}`);
      }
    }
    expect(offenders).toEqual([]);
    const adapter = await readFile(resolve(process.cwd(), 'src/model/gemini-generator.ts'), 'utf8');
    expect(adapter).toContain("await import('@google/genai')");
  });
});
