import { describe, expect, it } from 'vitest';
import { AbortError, InternalError } from '../errors.js';
import * as testing from './index.js';
import { callTurn, ScriptedModel, textTurn } from './scripted-model.js';

const req = { model: 'm', contents: 'hi' };

describe('ScriptedModel', () => {
  it('plays turns in order, records requests, and checks completeness', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'add', args: { a: 1 }, id: 'c1' }),
      (r) => textTurn(`echo ${String(r.contents)}`),
    ]);
    const first = [];
    for await (const c of await model.generateContentStream(req)) first.push(c);
    expect(first[0]?.candidates?.[0]?.content?.parts?.[0]?.functionCall).toEqual({
      name: 'add',
      args: { a: 1 },
      id: 'c1',
    });
    expect(() => model.assertComplete()).toThrow(InternalError);
    const second = await model.generateContent({ model: 'm', contents: 'again' });
    expect(second.candidates?.[0]?.content?.parts?.[0]?.text).toBe('echo again');
    model.assertComplete();
    expect(model.generateRequests.map((r) => r.contents)).toEqual(['hi', 'again']);
    await expect(model.generateContentStream(req)).rejects.toThrow(
      /unexpected generateContentStream call #3/,
    );
  });

  it('rejects with AbortError when aborted between chunks', async () => {
    const model = new ScriptedModel([[...textTurn('a'), ...textTurn('b')]], {
      chunkDelayMs: 30_000,
    });
    const ac = new AbortController();
    const stream = await model.generateContentStream(req, ac.signal);
    setTimeout(() => ac.abort(), 10);
    await expect(
      (async () => {
        for await (const _ of stream) {
          /* drain */
        }
      })(),
    ).rejects.toBeInstanceOf(AbortError);
  });
});

describe('gemini-agent-sdk/testing entry', () => {
  it('exports the testing kit by name', () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        'FakeCodeAssistServer',
        'FakeGeminiServer',
        'FakeGoogleAuthServer',
        'FakeOpenAIServer',
        'ScriptedModel',
        'callTurn',
        'createTestSessionContext',
        'googleErrorBody',
        'modelTurn',
        'sampleSessionEntries',
        'textTurn',
      ].sort(),
    );
  });
});
