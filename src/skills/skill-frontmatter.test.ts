import { describe, expect, it } from 'vitest';
import { parseSkillMarkdown, sanitizeSkillName } from './skill-frontmatter.js';

describe('parseSkillMarkdown', () => {
  it('reads name, description and the trimmed body from YAML frontmatter', () => {
    const parsed = parseSkillMarkdown(
      '---\nname: pirate-skill\ndescription: Speak like a pirate.\nlicense: MIT\n---\n\nSay Arrr.\n\n',
    );
    expect(parsed).toEqual({
      ok: true,
      value: { name: 'pirate-skill', description: 'Speak like a pirate.', body: 'Say Arrr.' },
    });
  });

  it('accepts CRLF line endings and a file with no body', () => {
    expect(parseSkillMarkdown('---\r\nname: a\r\ndescription: b\r\n---')).toEqual({
      ok: true,
      value: { name: 'a', description: 'b', body: '' },
    });
  });

  it('falls back to the line parser when the description holds ": " (invalid YAML)', () => {
    const parsed = parseSkillMarkdown(
      '---\nname: "quoted"\ndescription: Use when: the user asks\n  for reviews: code\n\n  or docs\n---\nbody',
    );
    // The fallback keeps quotes and joins indented continuation lines with spaces.
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: '"quoted"',
        description: 'Use when: the user asks for reviews: code',
        body: 'body',
      },
    });
  });

  it('falls back when YAML parses but the name is not a string', () => {
    expect(parseSkillMarkdown('---\nname: 12\ndescription: x\n---\n')).toMatchObject({
      ok: true,
      value: { name: '12', description: 'x' },
    });
  });

  it('rejects text without frontmatter, without a name, or with an empty name', () => {
    expect(parseSkillMarkdown('# Just markdown\n')).toMatchObject({ ok: false });
    expect(parseSkillMarkdown(' ---\nname: a\ndescription: b\n---\n')).toMatchObject({ ok: false });
    const noName = parseSkillMarkdown('---\ndescription: only this\n---\nbody');
    expect(noName).toMatchObject({ ok: false });
    expect(noName.ok ? '' : noName.reason).toContain('"name" and "description"');
    expect(parseSkillMarkdown("---\nname: ''\ndescription: d\n---\n")).toEqual({
      ok: false,
      reason: 'the frontmatter "name" is empty',
    });
    expect(parseSkillMarkdown('---\n{[}: garbage\n---\n')).toMatchObject({ ok: false });
  });
});

describe('sanitizeSkillName', () => {
  it('replaces : \\ / < > * ? " | with - and keeps everything else', () => {
    expect(sanitizeSkillName('a:b\\c/d<e>f*g?h"i|j')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(sanitizeSkillName('My Skill_2.0')).toBe('My Skill_2.0');
  });
});
