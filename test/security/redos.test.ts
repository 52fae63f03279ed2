/**
 * ReDoS: patterns from policy files and from the model run on a linear-time engine. Each hostile pattern is
 * matched against input that makes a backtracking engine run for minutes; here every call returns (the
 * test would time out otherwise), and an abort during a long grep is honoured.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PolicyEngine } from '../../src/policy/index.js';
import { compileLinearRegex } from '../../src/linear-regex.js';
import { createArena, resultText, type Arena } from './helpers/sandbox.js';

const HOSTILE = ['(a|a)*c', '(a|aa)*c', '(.*a){12}c', '(a*)*c', '([a-z]+)*c', '(\\w+\\s?)*c'];
const INPUT = 'a'.repeat(40);

let arena: Arena;
beforeAll(() => {
  arena = createArena((ws) => {
    writeFileSync(path.join(ws, 'line.txt'), `${INPUT}\n`.repeat(2000));
  });
});
afterAll(() => arena.cleanup());

describe('linear-time patterns', () => {
  it.each(HOSTILE)('compileLinearRegex(%j) matches without backtracking', (pattern) => {
    expect(compileLinearRegex(pattern).test(INPUT)).toBe(false);
  });

  // Patterns that pass gemini-cli's nested-quantifier heuristic and still backtrack exponentially.
  it.each(['(a|a)*c', '(a|aa)*c', '(aa|a)*$c'])(
    'a policy argsPattern %j is matched in linear time',
    async (pattern) => {
      const engine = new PolicyEngine({
        rules: [{ toolName: 'notes', argsPattern: pattern, decision: 'deny' }],
      });
      const result = await engine.check({ name: 'notes', args: { text: INPUT } });
      expect(result.decision).toBe('ask_user');
    },
  );

  it.each(HOSTILE)('grep_search with %j over 2,000 hostile lines returns', async (pattern) => {
    const result = await arena.tool('grep_search', { pattern });
    expect(resultText(result)).toContain('No matches found');
  });

  it('grep_search rejects patterns RE2 cannot run, with a clear message', async () => {
    const result = await arena.tool('grep_search', { pattern: '(?=a)b' });
    expect(resultText(result)).toMatch(/Invalid regular expression.*RE2 syntax/s);
  });
});
