import { describe, expect, it } from 'vitest';
import { preambleTextSharer, type SessionPreamble } from './session-preamble.js';

const preamble = (context: string, global: string): SessionPreamble => ({
  memory: { global, userProjectMemory: '' },
  contextParts: [{ text: context }, { inlineData: { mimeType: 'text/plain', data: 'eA==' } }],
  files: { global: [], project: [], userProject: [] },
  fileNames: ['GEMINI.md'],
});

describe('preambleTextSharer', () => {
  it('keeps every preamble’s texts in their slots while sessions share equal ones', () => {
    const share = preambleTextSharer();
    const texts: Array<[string, string]> = [
      ['<session_context>a</session_context>', 'global memory'],
      ['<session_context>a</session_context>', 'global memory'],
      ['<session_context>b</session_context>', 'global memory'],
      ['<session_context>a</session_context>', 'other memory'],
      ['global memory', '<session_context>a</session_context>'],
    ];
    for (const [context, global] of texts) {
      const shared = share(preamble(`${context}`, `${global}`));
      expect(shared.contextParts).toEqual([
        { text: context },
        { inlineData: { mimeType: 'text/plain', data: 'eA==' } },
      ]);
      expect(shared.memory).toEqual({ global, userProjectMemory: '' });
    }
  });
});
