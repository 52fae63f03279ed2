/** Levenshtein edit distance between two strings. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The message gemini-cli sends for an unknown tool: `Tool "X" not found.` followed by
 * ` Did you mean one of: "a", "b", "c"?` (the 3 closest names by edit distance), ` Did you mean "a"?` when one
 * tool exists, nothing when none do.
 */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  const ranked = [...available]
    .map((candidate) => ({ candidate, distance: levenshtein(name, candidate) }))
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, 3)
    .map((r) => `"${r.candidate}"`);
  let suggestion = '';
  if (ranked.length === 1) suggestion = ` Did you mean ${ranked[0]}?`;
  else if (ranked.length > 1) suggestion = ` Did you mean one of: ${ranked.join(', ')}?`;
  return `Tool "${name}" not found.${suggestion}`;
}
