import type { Content } from '@google/genai';
import { expect } from 'vitest';

/**
 * Asserts a request's `contents` is a history Gemini accepts: starts with a user turn, roles alternate, and
 * every functionCall of a model turn is answered (same id and name, same order) by the following user turn.
 */
export function expectValidContents(contents: readonly Content[]): void {
  expect(contents.length).toBeGreaterThan(0);
  expect(contents[0]?.role).toBe('user');
  contents.forEach((content, i) => {
    expect(content.parts?.length ?? 0, `turn ${i} has parts`).toBeGreaterThan(0);
    if (i > 0) expect(content.role, `turn ${i} alternates`).not.toBe(contents[i - 1]?.role);
    if (content.role !== 'model') return;
    const calls = (content.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    if (calls.length === 0) return;
    const next = contents[i + 1];
    expect(next?.role, `calls of turn ${i} are answered`).toBe('user');
    const responses = (next?.parts ?? []).flatMap((p) =>
      p.functionResponse ? [p.functionResponse] : [],
    );
    expect(responses.map((r) => [r.id, r.name])).toEqual(calls.map((c) => [c.id, c.name]));
  });
}
