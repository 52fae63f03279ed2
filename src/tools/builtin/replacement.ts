/** The outcome of locating and applying `old_string` → `new_string` in a file's (LF-normalised) text. */
export interface Replacement {
  newContent: string;
  occurrences: number;
  finalOldString: string;
  finalNewString: string;
}

function restoreTrailingNewline(original: string, modified: string): string {
  const had = original.endsWith('\n');
  if (had && !modified.endsWith('\n')) return `${modified}\n`;
  if (!had && modified.endsWith('\n')) return modified.replace(/\n$/, '');
  return modified;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Literal replace-all (no `$&`-style patterns in the replacement). */
function replaceAllLiteral(content: string, search: string, replacement: string): string {
  return content.split(search).join(replacement);
}

function exact(content: string, search: string, replace: string): Replacement | null {
  const occurrences = content.split(search).length - 1;
  if (occurrences === 0) return null;
  return {
    newContent: restoreTrailingNewline(content, replaceAllLiteral(content, search, replace)),
    occurrences,
    finalOldString: search,
    finalNewString: replace,
  };
}

/** Line windows equal to the search after trimming each line; the replacement takes the window's indentation. */
function flexible(content: string, search: string, replace: string): Replacement | null {
  const sourceLines = content.match(/.*(?:\n|$)/g)?.slice(0, -1) ?? [];
  const wanted = search.split('\n').map((line) => line.trim());
  const replaceLines = replace.split('\n');
  let occurrences = 0;
  let i = 0;
  while (i <= sourceLines.length - wanted.length) {
    const window = sourceLines.slice(i, i + wanted.length);
    if (window.every((line, index) => line.trim() === wanted[index])) {
      occurrences += 1;
      const indentation = /^(\s*)/.exec(window[0] ?? '')?.[1] ?? '';
      const lastHadNewline = (window[window.length - 1] ?? '').endsWith('\n');
      const block = replaceLines.map((line) => `${indentation}${line}`).join('\n');
      sourceLines.splice(i, wanted.length, lastHadNewline ? `${block}\n` : block);
      i += 1;
    } else {
      i += 1;
    }
  }
  if (occurrences === 0) return null;
  return {
    newContent: restoreTrailingNewline(content, sourceLines.join('')),
    occurrences,
    finalOldString: search,
    finalNewString: replace,
  };
}

/** Token-wise match allowing any whitespace between tokens; replaces the first match only. */
function regexMatch(content: string, search: string, replace: string): Replacement | null {
  let processed = search;
  for (const delimiter of ['(', ')', ':', '[', ']', '{', '}', '>', '<', '=']) {
    processed = processed.split(delimiter).join(` ${delimiter} `);
  }
  const tokens = processed.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return null;
  const regex = new RegExp(`^([ \\t]*)${tokens.map(escapeRegex).join('\\s*')}`, 'm');
  const match = regex.exec(content);
  if (!match) return null;
  const indentation = match[1] ?? '';
  const block = replace
    .split('\n')
    .map((line) => `${indentation}${line}`)
    .join('\n');
  const modified =
    content.slice(0, match.index) + block + content.slice(match.index + match[0].length);
  return {
    newContent: restoreTrailingNewline(content, modified),
    occurrences: 1,
    finalOldString: search,
    finalNewString: replace,
  };
}

/**
 * gemini-cli's replacement strategies in order: exact text, then trimmed-line windows (re-indented), then a
 * whitespace-tolerant token match. `content` must already use LF line endings.
 */
export function calculateReplacement(
  content: string,
  oldString: string,
  newString: string,
): Replacement {
  const search = oldString.replace(/\r\n/g, '\n');
  const replace = newString.replace(/\r\n/g, '\n');
  if (search === '') {
    return { newContent: content, occurrences: 0, finalOldString: search, finalNewString: replace };
  }
  return (
    exact(content, search, replace) ??
    flexible(content, search, replace) ??
    regexMatch(content, search, replace) ?? {
      newContent: content,
      occurrences: 0,
      finalOldString: search,
      finalNewString: replace,
    }
  );
}
