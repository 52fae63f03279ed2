import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Part } from '@google/genai';
import type { ToolResult } from '../core/agent-tool.js';

/** gemini-cli's `tools.truncateToolOutputThreshold` default, in characters. */
export const DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD = 40_000;

/** The folder (under the project's temp dir) that keeps full outputs, as gemini-cli names it. */
export const TOOL_OUTPUTS_DIR = 'tool-outputs';

/** gemini-cli's `sanitizeFilenamePart`: anything but letters, digits, `_` and `-` becomes `_`. */
export function sanitizeFilenamePart(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * The truncation threshold for one result: the configured characters, or half of what the model's window has left
 * (4 characters a token) when that is less. gemini-cli takes all of what is left, so a result cut to it still
 * overflows the window with the model's next turn; half leaves room for it.
 */
export function truncationThreshold(
  configured: number,
  tokenLimit: number,
  usedTokens: number | undefined,
): number {
  return Math.max(0, Math.min(2 * (tokenLimit - (usedTokens ?? 0)), configured));
}

/**
 * gemini-cli's `formatTruncatedToolOutput`: the first 20 % and the last 80 % of `maxChars` characters, with the
 * path of the full output and the count of omitted characters. A text within `maxChars` is returned as is.
 */
export function formatTruncatedToolOutput(
  content: string,
  outputFile: string,
  maxChars: number,
): string {
  if (content.length <= maxChars) return content;
  const headChars = Math.floor(maxChars * 0.2);
  const tailChars = maxChars - headChars;
  const head = content.slice(0, headChars);
  const tail = tailChars > 0 ? content.slice(-tailChars) : '';
  const omitted = content.length - headChars - tailChars;
  return `Output too large. Showing first ${headChars.toLocaleString('en-US')} and last ${tailChars.toLocaleString('en-US')} characters. For full output see: ${outputFile}
${head}

... [${omitted.toLocaleString('en-US')} characters omitted] ...

${tail}`;
}

/**
 * gemini-cli's `saveTruncatedToolOutput`: writes the full output to
 * `<projectTempDir>/tool-outputs[/session-<id>]/<tool>_<id>.txt` (the id alone when it already starts with the
 * tool's name) and returns the path.
 */
export async function saveTruncatedToolOutput(
  content: string,
  toolName: string,
  id: string | number,
  projectTempDir: string,
  sessionId?: string,
): Promise<string> {
  const safeTool = sanitizeFilenamePart(toolName).toLowerCase();
  const safeId = sanitizeFilenamePart(String(id)).toLowerCase();
  const fileName = safeId.startsWith(safeTool) ? `${safeId}.txt` : `${safeTool}_${safeId}.txt`;
  let dir = join(projectTempDir, TOOL_OUTPUTS_DIR);
  if (sessionId !== undefined) dir = join(dir, `session-${sanitizeFilenamePart(sessionId)}`);
  await mkdir(dir, { recursive: true });
  const file = join(dir, fileName);
  await writeFile(file, content);
  return file;
}

/** Where and how much of one result to keep. */
export interface TruncationTarget {
  toolName: string;
  callId: string;
  sessionId: string;
  /** The project's temp dir, asked for only when the result must be cut. */
  projectTempDir: () => Promise<string>;
  /** Characters the model may see (0 or less: no truncation). */
  threshold: number;
}

/** A result whose text was cut, and where the full text went. */
export interface TruncatedResult {
  result: ToolResult;
  /** The saved file, or `(not saved: <reason>)` when it could not be written. */
  outputFile: string;
  originalLength: number;
}

/**
 * Cuts the text a tool hands the model when it exceeds `target.threshold` characters (gemini-cli does this for
 * shell and MCP output; here it applies to every tool): the full text is saved to a file and the model gets
 * {@link formatTruncatedToolOutput}'s head, tail and pointer. A string result is cut as is; a list of parts has its
 * text parts joined into one cut text (placed where the first was), other parts (media) kept. Errors, tail calls
 * and results within the threshold come back unchanged (undefined).
 */
export async function truncateToolResult(
  result: ToolResult,
  target: TruncationTarget,
): Promise<TruncatedResult | undefined> {
  if (target.threshold <= 0 || result.error !== undefined || result.tailCall !== undefined) {
    return undefined;
  }
  const content = result.llmContent;
  const text =
    typeof content === 'string'
      ? content
      : content
          .map((p) => p.text)
          .filter((t): t is string => typeof t === 'string')
          .join('\n');
  if (text.length <= target.threshold) return undefined;
  // The model must not get the whole text either way: when the file cannot be written, the pointer says why.
  const outputFile = await target
    .projectTempDir()
    .then((dir) =>
      saveTruncatedToolOutput(text, target.toolName, target.callId, dir, target.sessionId),
    )
    .catch(
      (error: unknown) => `(not saved: ${error instanceof Error ? error.message : String(error)})`,
    );
  const cut = formatTruncatedToolOutput(text, outputFile, target.threshold);
  let llmContent: string | Part[];
  if (typeof content === 'string') llmContent = cut;
  else {
    llmContent = [];
    let placed = false;
    for (const part of content) {
      if (typeof part.text !== 'string') llmContent.push(part);
      else if (!placed) {
        llmContent.push({ text: cut });
        placed = true;
      }
    }
  }
  // A structured display (write_todos' TodoList) is not text to cut: it stays as the tool gave it.
  const shown = result.returnDisplay;
  const display =
    shown === undefined || (typeof shown === 'string' && shown.length > target.threshold)
      ? formatTruncatedToolOutput(shown ?? text, outputFile, target.threshold)
      : shown;
  return {
    result: { ...result, llmContent, returnDisplay: display },
    outputFile,
    originalLength: text.length,
  };
}
