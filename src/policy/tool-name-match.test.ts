import { describe, expect, it } from 'vitest';
import { toolNameMatcher } from './tool-name-match.js';

/** The meaning of a rule's tool-name pattern, as a JavaScript regular expression (fine for short test inputs). */
function reference(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${body}$`);
}

describe('toolNameMatcher', () => {
  it('matches exact names, everything, prefixes, suffixes and infixes', () => {
    expect(toolNameMatcher('read_file')('read_file')).toBe(true);
    expect(toolNameMatcher('read_file')('read_files')).toBe(false);
    expect(toolNameMatcher('*')('anything')).toBe(true);
    expect(toolNameMatcher('mcp_*')('mcp_github_search')).toBe(true);
    expect(toolNameMatcher('mcp_*')('mcp')).toBe(false);
    expect(toolNameMatcher('mcp_*_search')('mcp_github_search')).toBe(true);
    expect(toolNameMatcher('mcp_*_search')('mcp_search')).toBe(false);
    expect(toolNameMatcher('*_file')('write_file')).toBe(true);
    expect(toolNameMatcher('a*a')('a')).toBe(false);
    expect(toolNameMatcher('a*a')('aa')).toBe(true);
    expect(toolNameMatcher('x*\n*y')('x\ny')).toBe(true);
  });

  it('agrees with the regular expression it stands for on every short pattern and name', () => {
    const alphabet = ['a', 'b', '*'];
    const words = (max: number, letters: string[]): string[] => {
      const out = [''];
      for (let len = 1; len <= max; len++) {
        for (const prefix of out.filter((w) => w.length === len - 1)) {
          for (const c of letters) out.push(prefix + c);
        }
      }
      return out;
    };
    const patterns = words(5, alphabet).filter((p) => p.includes('*'));
    const names = words(6, ['a', 'b']);
    const disagreements: string[] = [];
    for (const pattern of patterns) {
      const match = toolNameMatcher(pattern);
      const regex = reference(pattern);
      for (const name of names) {
        if (match(name) !== regex.test(name)) disagreements.push(`${pattern} vs ${name}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('does not backtrack on a hostile pattern from a user file', () => {
    const pattern = `${'a*'.repeat(2000)}c`;
    const match = toolNameMatcher(pattern);
    // Each piece is found once, left to right: thousands of pieces on a long name finish at once.
    expect(match('a'.repeat(100_000))).toBe(false);
    expect(match(`${'a'.repeat(2000)}c`)).toBe(true);
  });
});
