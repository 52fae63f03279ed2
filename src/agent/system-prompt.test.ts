import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, validateSystemPrompt } from './system-prompt.js';
import { CORE_GUIDELINES, CORE_PREAMBLE } from './prompt-text.js';

describe('buildSystemPrompt', () => {
  it('default: preamble, sections, guidelines, then the context block holding the instructions', () => {
    const prompt = buildSystemPrompt({
      sections: ['# Available Agent Skills\n<available_skills/>', undefined, '  '],
      instructions: 'Talk like a pirate.',
    });
    expect(
      prompt?.startsWith(
        `${CORE_PREAMBLE}\n\n# Available Agent Skills\n<available_skills/>\n\n${CORE_GUIDELINES}\n\n`,
      ),
    ).toBe(true);
    const pieces = prompt?.split('\n\n# ') ?? [];
    expect(pieces.at(-1)?.startsWith('Contextual Instructions (GEMINI.md)\n')).toBe(true);
    expect(prompt?.endsWith('\n\n<loaded_context>\nTalk like a pirate.\n</loaded_context>')).toBe(
      true,
    );
  });

  it("global memory alone is gemini-cli 0.61's string form; the instructions follow it in their own tag", () => {
    const prompt = buildSystemPrompt({
      instructions: 'Be brief.',
      memory: {
        global:
          '--- Context from: /h/.gemini/GEMINI.md ---\nI like tabs.\n--- End of Context from: /h/.gemini/GEMINI.md ---',
      },
      contextFileNames: ['GEMINI.md', 'AGENTS.md'],
    });
    expect(prompt).toContain('# Contextual Instructions (GEMINI.md, AGENTS.md)\n');
    expect(
      prompt?.endsWith(
        '\n\n<loaded_context>\n--- Context from: /h/.gemini/GEMINI.md ---\nI like tabs.\n' +
          '--- End of Context from: /h/.gemini/GEMINI.md ---\n' +
          '<application_instructions>\nBe brief.\n</application_instructions>\n</loaded_context>',
      ),
    ).toBe(true);
  });

  it('more tiers: the hierarchical form in gemini-cli order; the instructions follow them in their own tag', () => {
    const prompt = buildSystemPrompt({
      instructions: 'Be brief.',
      memory: { project: ' Use pnpm. ', global: 'I like tabs.', extension: '' },
    });
    expect(prompt).not.toContain('# Contextual Instructions');
    expect(
      prompt?.endsWith(
        '\n\n---\n\n<loaded_context>\n<global_context>\nI like tabs.\n</global_context>\n' +
          '<project_context>\nUse pnpm.\n</project_context>\n' +
          '<application_instructions>\nBe brief.\n</application_instructions>\n</loaded_context>',
      ),
    ).toBe(true);
  });

  it("'none': sections, memory and instructions verbatim; undefined when there is nothing", () => {
    expect(buildSystemPrompt({ systemPrompt: 'none', instructions: ' x\n\n\ny ' })).toBe(
      ' x\n\n\ny ',
    );
    expect(buildSystemPrompt({ systemPrompt: 'none', sections: ['# S'], instructions: 'I' })).toBe(
      '# S\n\nI',
    );
    expect(buildSystemPrompt({ systemPrompt: 'none' })).toBeUndefined();
  });

  it('a custom base replaces preamble and guidelines', () => {
    expect(buildSystemPrompt({ systemPrompt: 'You are Bob.', sections: ['# S'] })).toBe(
      'You are Bob.\n\n# S',
    );
  });

  it('validates the option', () => {
    expect(validateSystemPrompt(undefined)).toBe('default');
    expect(validateSystemPrompt('none')).toBe('none');
    expect(() => validateSystemPrompt(['x'])).toThrow(/got object/);
  });
});
