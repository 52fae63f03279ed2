import type { GenerateContentParameters } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ModelCapabilityError } from '../../errors.js';
import { geminiSchemaToJsonSchema } from './gemini-schema.js';
import { toChatRequest, type ChatRequestOptions } from './openai-request.js';
import { ChatStreamAccumulator, toUsageMetadata } from './openai-response.js';

function request(req: Partial<GenerateContentParameters>, dropped: string[] = []) {
  const options: ChatRequestOptions = {
    provider: 'openai',
    model: 'm',
    maxTokensField: 'max_tokens',
    dropped: (s) => dropped.push(s),
  };
  return toChatRequest({ model: 'm', contents: [], ...req }, options);
}

describe('toChatRequest', () => {
  it('maps media, thoughts, calls without ids and their responses', () => {
    const body = request({
      config: { systemInstruction: { parts: [{ text: 'Sys' }] } },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Look:' },
            { inlineData: { mimeType: 'image/png', data: 'aW1n' } },
            { inlineData: { mimeType: 'audio/wav', data: 'd2F2' } },
            { inlineData: { mimeType: 'application/pdf', data: 'cGRm' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'hidden', thought: true },
            { functionCall: { name: 'a', args: { x: 1 } }, thoughtSignature: 'real-signature' },
            { functionCall: { name: 'b', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'b', response: { error: 'nope' } } },
            { functionResponse: { name: 'a', response: { output: 'one' } } },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'system', content: 'Sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,aW1n' } },
          { type: 'input_audio', input_audio: { data: 'd2F2', format: 'wav' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,cGRm', filename: 'file.pdf' },
          },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
          { id: 'call_1', type: 'function', function: { name: 'b', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"error":"nope"}' },
      { role: 'tool', tool_call_id: 'call_0', content: 'one' },
    ]);
  });

  it('reports dropped settings and signatures, maps tool choice and response formats', () => {
    const dropped: string[] = [];
    const body = request(
      {
        contents: [
          {
            role: 'model',
            parts: [{ text: 'x', thoughtSignature: 'skip_thought_signature_validator' }],
          },
        ],
        config: {
          topK: 3,
          thinkingConfig: { thinkingBudget: 10 },
          maxOutputTokens: 9,
          stopSequences: ['END'],
          responseSchema: {
            type: 'OBJECT' as never,
            properties: { n: { type: 'INTEGER' as never, nullable: true } },
          },
          tools: [
            {
              functionDeclarations: [
                { name: 'f', parameters: { type: 'OBJECT' as never, properties: {} } },
              ],
            },
          ],
          toolConfig: {
            functionCallingConfig: { mode: 'ANY' as never, allowedFunctionNames: ['f'] },
          },
        },
      },
      dropped,
    );
    expect(dropped).toEqual(['topK', 'thinkingConfig']);
    expect(body).toMatchObject({
      max_tokens: 9,
      stop: ['END'],
      tool_choice: { type: 'function', function: { name: 'f' } },
      tools: [
        {
          type: 'function',
          function: { name: 'f', parameters: { type: 'object', properties: {} } },
        },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'response',
          schema: { type: 'object', properties: { n: { type: ['integer', 'null'] } } },
        },
      },
    });
  });

  it.each([
    [{ config: { tools: [{ codeExecution: {} }] } }, 'codeExecution'],
    [{ config: { tools: [{ urlContext: {} }] } }, 'urlContext'],
    [{ config: { cachedContent: 'cachedContents/1' } }, 'cachedContent'],
    [{ config: { candidateCount: 2 } }, 'candidateCount'],
    [{ config: { responseModalities: ['IMAGE' as never] } }, 'responseModalities'],
    [
      {
        contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'video/mp4', data: 'x' } }] }],
      },
      'media',
    ],
  ])('%j → ModelCapabilityError (%s)', (req, capability) => {
    try {
      request(req as Partial<GenerateContentParameters>);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ModelCapabilityError);
      expect((e as ModelCapabilityError).capability).toBe(capability);
    }
  });
});

describe('responses', () => {
  it('assembles tool call fragments, keeps call order, and maps usage', () => {
    const acc = new ChatStreamAccumulator();
    const base = { id: 'i', object: 'chat.completion.chunk' as const, created: 1, model: 'm' };
    const delta = (d: object, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    expect(acc.add(delta({ content: 'Hi' }) as never)?.candidates?.[0]?.content?.parts).toEqual([
      { text: 'Hi' },
    ]);
    acc.add(
      delta({
        tool_calls: [{ index: 1, id: 'b', function: { name: 'second', arguments: '{}' } }],
      }) as never,
    );
    acc.add(
      delta({
        tool_calls: [{ index: 0, id: 'a', function: { name: 'first', arguments: '{"k":' } }],
      }) as never,
    );
    acc.add(
      delta({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }, 'tool_calls') as never,
    );
    acc.add({
      ...base,
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10 },
    } as never);
    expect(acc.finishChunk()).toMatchObject({
      candidates: [
        {
          finishReason: 'STOP',
          content: {
            parts: [
              { functionCall: { name: 'first', args: { k: 1 }, id: 'a' } },
              { functionCall: { name: 'second', args: {}, id: 'b' } },
            ],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6, totalTokenCount: 10 },
    });
    expect(
      toUsageMetadata({
        prompt_tokens: 10,
        completion_tokens: 8,
        total_tokens: 18,
        completion_tokens_details: { reasoning_tokens: 3 },
        prompt_tokens_details: { cached_tokens: 4 },
      }),
    ).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 3,
      cachedContentTokenCount: 4,
      totalTokenCount: 18,
    });
  });

  it('Gemini Schema → JSON Schema', () => {
    expect(
      geminiSchemaToJsonSchema({
        type: 'ARRAY',
        items: { type: 'STRING', enum: ['a'], format: 'enum' },
        minItems: '1',
        propertyOrdering: ['x'],
      }),
    ).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['a'], format: 'enum' },
      minItems: 1,
    });
  });
});
