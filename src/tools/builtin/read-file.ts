import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import {
  DEFAULT_MAX_LINES_TEXT_FILE,
  MAX_FILE_SIZE_MB,
  MAX_LINE_LENGTH_TEXT_FILE,
  processFileContent,
} from './file-content.js';
import { resolveToolPath, shortenPath } from './tool-paths.js';

const ReadFileArgs = z.object({
  file_path: z.string(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
});

/** gemini-cli's `read_file` (ReadFile, kind read): one file, a line range, media as inline data. */
export function createReadFileTool(): AgentTool {
  return defineBuiltinTool({
    name: 'read_file',
    displayName: 'ReadFile',
    kind: 'read',
    description: `Reads and returns the content of a specified file. Prioritize using 'start_line' and 'end_line' for targeted reads to maintain context efficiency. Tool includes safety truncation limits (${DEFAULT_MAX_LINES_TEXT_FILE} lines, ${MAX_LINE_LENGTH_TEXT_FILE} characters in a line and ${MAX_FILE_SIZE_MB}MB file size), but relying on this automatic feedback is less efficient than requesting specific line ranges. Handles text, images (PNG, JPG, GIF, WEBP, SVG, BMP), audio files (MP3, WAV, AIFF, AAC, OGG, FLAC), and PDF files.`,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        file_path: { description: 'The path to the file to read.', type: 'string' },
        start_line: {
          description: 'Optional: The 1-based line number to start reading from.',
          type: 'number',
        },
        end_line: {
          description: 'Optional: The 1-based line number to end reading at (inclusive).',
          type: 'number',
        },
      },
      required: ['file_path'],
    },
    schema: ReadFileArgs,
    check(args) {
      if (args.file_path.trim() === '') return "The 'file_path' parameter must be non-empty.";
      if (args.start_line !== undefined && args.start_line < 1)
        return 'start_line must be at least 1';
      if (args.end_line !== undefined && args.end_line < 1) return 'end_line must be at least 1';
      if (
        args.start_line !== undefined &&
        args.end_line !== undefined &&
        args.start_line > args.end_line
      ) {
        return 'start_line cannot be greater than end_line';
      }
      return null;
    },
    describe: (args) => shortenPath(args.file_path),
    async run(args, ctx) {
      const resolved = await resolveToolPath(ctx.fs, args.file_path, 'read');
      if ('result' in resolved) return resolved.result;
      const result = await processFileContent(
        ctx.fs,
        resolved.path,
        ctx.cwd,
        args.start_line,
        args.end_line,
      );
      if (result.error) {
        return {
          ...errorResult(
            result.error,
            result.errorType ?? 'read_content_failure',
            result.returnDisplay || 'Error reading file',
          ),
          llmContent: typeof result.llmContent === 'string' ? result.llmContent : result.error,
        };
      }
      if (typeof result.llmContent !== 'string') {
        return { llmContent: [result.llmContent], returnDisplay: result.returnDisplay };
      }
      let llmContent = result.llmContent;
      if (result.isTruncated && result.linesShown && result.originalLineCount !== undefined) {
        const [start, end] = result.linesShown;
        llmContent = `
IMPORTANT: The file content has been truncated.
Status: Showing lines ${start}-${end} of ${result.originalLineCount} total lines.
Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call.

--- FILE CONTENT (truncated) ---
${result.llmContent}`;
      }
      return {
        llmContent,
        // gemini-cli shows nothing for a whole text file read (its description names the file).
        returnDisplay: result.returnDisplay,
      };
    },
  });
}
