import type { SandboxFilesystem } from '../../core/workspace-types.js';
import type { ToolResult } from '../../core/agent-tool.js';
import { readTextForTool } from './safe-read.js';

/** One matching (or context) line. */
export interface GrepMatch {
  /** Path shown to the model (relative to the searched directory). */
  filePath: string;
  absolutePath: string;
  lineNumber: number;
  line: string;
  /** True for surrounding lines added as context. */
  isContext?: boolean;
}

function groupByFile(matches: GrepMatch[]): Map<string, GrepMatch[]> {
  const groups = new Map<string, GrepMatch[]>();
  for (const match of matches) {
    const list = groups.get(match.filePath) ?? [];
    list.push(match);
    groups.set(match.filePath, list);
  }
  for (const list of groups.values()) list.sort((a, b) => a.lineNumber - b.lineNumber);
  return groups;
}

/** gemini-cli's "greedy grep": with 1–3 matches, show 50 (one match) or 15 lines of context around each. */
async function addAutoContext(
  fs: SandboxFilesystem,
  groups: Map<string, GrepMatch[]>,
  matchCount: number,
): Promise<void> {
  if (matchCount < 1 || matchCount > 3) return;
  const contextLines = matchCount === 1 ? 50 : 15;
  for (const [file, fileMatches] of groups) {
    const first = fileMatches[0];
    if (!first) continue;
    const read = await readTextForTool(fs, first.absolutePath);
    if (read.kind !== 'text') continue;
    const text = read.text;
    const lines = text.split(/\r?\n/);
    const byLine = new Map<number, GrepMatch>();
    for (const match of fileMatches) {
      const start = Math.max(0, match.lineNumber - 1 - contextLines);
      const end = Math.min(lines.length, match.lineNumber + contextLines);
      for (let i = start; i < end; i += 1) {
        const lineNumber = i + 1;
        const existing = byLine.get(lineNumber);
        if (existing) {
          if (lineNumber === match.lineNumber) existing.isContext = false;
          continue;
        }
        byLine.set(lineNumber, {
          filePath: match.filePath,
          absolutePath: match.absolutePath,
          lineNumber,
          line: lines[i] ?? '',
          isContext: lineNumber !== match.lineNumber,
        });
      }
    }
    groups.set(
      file,
      [...byLine.values()].sort((a, b) => a.lineNumber - b.lineNumber),
    );
  }
}

/** Formats grep results exactly as gemini-cli's `formatGrepResults`. */
export async function formatGrepResults(
  fs: SandboxFilesystem,
  allMatches: GrepMatch[],
  params: { pattern: string; names_only?: boolean | undefined },
  location: string,
  totalMaxMatches: number,
): Promise<ToolResult> {
  const { pattern } = params;
  if (allMatches.length === 0) {
    return {
      llmContent: `No matches found for pattern "${pattern}" ${location}.`,
      returnDisplay: 'No matches found',
    };
  }
  const groups = groupByFile(allMatches);
  const matchCount = allMatches.filter((m) => !m.isContext).length;
  const term = matchCount === 1 ? 'match' : 'matches';
  if (!params.names_only) await addAutoContext(fs, groups, matchCount);
  const truncated = matchCount >= totalMaxMatches;
  const limitNote = truncated
    ? ` (results limited to ${totalMaxMatches} matches for performance)`
    : '';

  if (params.names_only) {
    const files = [...groups.keys()].sort();
    const llmContent = `Found ${files.length} files with matches for pattern "${pattern}" ${location}${limitNote}:\n${files.join('\n')}`;
    return {
      llmContent: llmContent.trim(),
      returnDisplay: `Found ${files.length} files${truncated ? ' (limited)' : ''}`,
    };
  }

  let llmContent = `Found ${matchCount} ${term} for pattern "${pattern}" ${location}${limitNote}:\n---\n`;
  for (const [file, matches] of groups) {
    llmContent += `File: ${file}\n`;
    for (const match of matches) {
      llmContent += `L${match.lineNumber}${match.isContext ? '-' : ':'} ${match.line.trimEnd()}\n`;
    }
    llmContent += '---\n';
  }
  return {
    llmContent: llmContent.trim(),
    returnDisplay: `Found ${matchCount} ${term}${truncated ? ' (limited)' : ''}`,
  };
}
