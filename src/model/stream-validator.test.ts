import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../errors.js';
import { retryNudge, StreamValidator, visibleText } from './stream-validator.js';

const chunk = (parts: object[], finishReason?: string) =>
  ({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
  }) as unknown as GenerateContentResponse;

function verdict(chunks: GenerateContentResponse[], afterFunctionResponse = false) {
  const v = new StreamValidator();
  for (const c of chunks) v.observe(c);
  return v.verdict(afterFunctionResponse)?.type;
}

describe('StreamValidator', () => {
  it('accepts text with any finish reason, and a call whatever the finish reason', () => {
    expect(verdict([chunk([{ text: 'Hi' }], 'STOP')])).toBeUndefined();
    expect(verdict([chunk([{ text: 'partly' }], 'SAFETY')])).toBeUndefined();
    expect(verdict([chunk([{ text: 'cut' }], 'MAX_TOKENS')])).toBeUndefined();
    expect(verdict([chunk([{ functionCall: { name: 'f' } }])])).toBeUndefined();
  });

  it('names what is missing', () => {
    expect(verdict([chunk([], 'MAX_TOKENS')])).toBe('MAX_TOKENS_EXCEEDED');
    expect(verdict([chunk([], 'IMAGE_SAFETY')])).toBe('OTHER_BLOCKED');
    expect(verdict([chunk([], 'UNEXPECTED_TOOL_CALL')])).toBe('UNEXPECTED_TOOL_CALL');
    expect(verdict([chunk([{ text: 'x' }])], true)).toBe('NO_FINISH_REASON');
    expect(verdict([chunk([], 'STOP')], true)).toBeUndefined();
    expect(verdict([chunk([{ text: '**t**', thought: true }], 'STOP')], true)).toBe(
      'THINKING_ONLY_RESPONSE',
    );
  });

  it('a finish reason on a later chunk counts; a block without candidates is a blocked prompt', () => {
    expect(verdict([chunk([{ text: 'a' }]), chunk([{ text: 'b' }], 'STOP')])).toBeUndefined();
    const blocked = { promptFeedback: { blockReason: 'OTHER' } } as GenerateContentResponse;
    expect(verdict([blocked])).toBe('PROMPT_BLOCKED');
  });

  it('throws once the payload passes the limit', () => {
    const v = new StreamValidator(10);
    v.observe(chunk([{ text: '12345' }]));
    expect(() => v.observe(chunk([{ text: '123456' }]))).toThrow(ResponseTooLargeError);
  });

  it('ignores zero-width characters and HTML comments', () => {
    expect(visibleText('\u200b <!-- a <!-- b --> --> \ufeff')).toBe('-->');
    expect(visibleText(' <!-- only --> ')).toBe('');
    expect(visibleText('<!<!-- x -->-- y -->z')).toBe('z');
    expect(visibleText(' plain \u200d text ')).toBe('plain  text');
  });

  it('nudges only after empty or thoughts-only answers, on string instructions', () => {
    const request = { model: 'm', contents: [], config: { systemInstruction: 'Base.' } };
    const v = new StreamValidator();
    v.observe(chunk([], 'STOP'));
    const nudged = retryNudge(request, v.verdict(false));
    expect(nudged.config?.systemInstruction).toMatch(/^Base\.\n\[System: You previously returned/);
    const w = new StreamValidator();
    w.observe(chunk([], 'SAFETY'));
    expect(retryNudge(request, w.verdict(false))).toBe(request);
  });
});
