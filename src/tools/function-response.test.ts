import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { functionResponseParts } from './function-response.js';

const png: Part = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
const pdf: Part = { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } };
const mp3: Part = { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } };
const mp4: Part = { inlineData: { mimeType: 'video/mp4', data: 'AAAA' } };
const file: Part = { fileData: { mimeType: 'image/png', fileUri: 'gs://b/x.png' } };
const fr = (response: Record<string, unknown>, extra: Record<string, unknown> = {}): Part => ({
  functionResponse: { id: 'c', name: 'n', response, ...extra },
});

describe('functionResponseParts (gemini-cli convertToFunctionResponse)', () => {
  it('Gemini 2.5: texts joined into output, inline data and file data as siblings', () => {
    expect(
      functionResponseParts('c', 'n', [{ text: 'a' }, png, file, { text: 'b' }], 'gemini-2.5-pro'),
    ).toEqual([fr({ output: 'a\nb' }), file, png]);
  });

  it('Gemini 3: inline data nested in the function response, file data still a sibling', () => {
    expect(
      functionResponseParts('c', 'n', [{ text: 'a' }, png, pdf, file], 'gemini-3-pro-preview'),
    ).toEqual([fr({ output: 'a' }, { parts: [png, pdf] }), file]);
  });

  it('audio and video are stripped with gemini-cli’s note, once per MIME type', () => {
    expect(
      functionResponseParts('c', 'n', [mp3, mp3, mp4, { text: 'heard' }], 'gemini-2.5-pro'),
    ).toEqual([
      fr({
        output:
          '[SYSTEM: Binary content (audio/mpeg, video/mp4) stripped from response due to protocol limitations.]\nheard',
      }),
    ]);
  });

  it('media without text says how many items; nothing at all is an empty response', () => {
    expect(functionResponseParts('c', 'n', [png, file], 'gemini-2.5-flash')).toEqual([
      fr({ output: 'Binary content provided (2 item(s)).' }),
      file,
      png,
    ]);
    expect(functionResponseParts('c', 'n', [], 'gemini-2.5-flash')).toEqual([fr({})]);
    expect(functionResponseParts('c', 'n', [{ functionCall: { name: 'x' } }], undefined)).toEqual([
      fr({}),
    ]);
  });

  it('a functionResponse part is passed through alone, re-keyed to this call', () => {
    const passthrough: Part = {
      functionResponse: { id: 'other', name: 'inner', response: { ok: 1 } },
    };
    expect(
      functionResponseParts('c', 'n', [{ text: 'ignored' }, passthrough, png], 'gemini-3-flash'),
    ).toEqual([fr({ ok: 1 })]);
  });
});
