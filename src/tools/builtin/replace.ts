import { z } from 'zod';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { fileDiff } from './file-diff.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { calculateReplacement } from './replacement.js';
import { readTextForTool } from './safe-read.js';
import { detectLineEnding, diffContextSnippet } from './text-edits.js';
import { makeRelative, resolveToolPath, shortenPath } from './tool-paths.js';

const ReplaceArgs = z.object({
  file_path: z.string(),
  instruction: z.string(),
  old_string: z.string(),
  new_string: z.string(),
  allow_multiple: z.boolean().optional(),
});

function failed(display: string, raw: string, type: string): ToolResult {
  return errorResult(raw, type, `Error: ${display}`);
}

function snippetOf(text: string): string {
  const first = text.split('\n')[0] ?? '';
  return first.substring(0, 30) + (text.length > 30 ? '...' : '');
}

/** gemini-cli's `replace` (Edit, kind edit): replaces exact text (one occurrence unless `allow_multiple`). */
export function createReplaceTool(): AgentTool {
  return defineBuiltinTool({
    name: 'replace',
    displayName: 'Edit',
    kind: 'edit',
    description: `Replaces text within a file. By default, the tool expects to find and replace exactly ONE occurrence of \`old_string\`. If you want to replace multiple occurrences of the exact same string, set \`allow_multiple\` to true. This tool requires providing significant context around the change to ensure precise targeting.
The user has the ability to modify the \`new_string\` content. If modified, this will be stated in the response.`,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        file_path: { description: 'The path to the file to modify.', type: 'string' },
        instruction: {
          description:
            'A clear, semantic instruction for the code change, acting as a high-quality prompt for an expert LLM assistant. It must be self-contained and explain the goal of the change.',
          type: 'string',
        },
        old_string: {
          description:
            'The exact literal text to replace, unescaped. If this string is not the exact literal text (i.e. you escaped it) or does not match exactly, the tool will fail.',
          type: 'string',
        },
        new_string: {
          description:
            "The exact literal text to replace `old_string` with, unescaped. Provide the EXACT text. Ensure the resulting code is correct and idiomatic. Do not use omission placeholders like '(rest of methods ...)', '...', or 'unchanged code'; provide exact literal code.",
          type: 'string',
        },
        allow_multiple: {
          type: 'boolean',
          description:
            'If true, the tool will replace all occurrences of `old_string`. If false (default), it will only succeed if exactly one occurrence is found.',
        },
      },
      required: ['file_path', 'instruction', 'old_string', 'new_string'],
    },
    schema: ReplaceArgs,
    check: (args) =>
      args.file_path.trim() === '' ? "The 'file_path' parameter must be non-empty." : null,
    describe(args) {
      const file = shortenPath(args.file_path);
      if (args.old_string === '') return `Create ${file}`;
      if (args.old_string === args.new_string) return `No file changes to ${file}`;
      return `${file}: ${snippetOf(args.old_string)} => ${snippetOf(args.new_string)}`;
    },
    async run(args, ctx) {
      const resolved = await resolveToolPath(
        ctx.fs,
        args.file_path,
        'write',
        'Error: Path not in workspace.',
      );
      if ('result' in resolved) return resolved.result;
      const target = resolved.path;
      const info = await ctx.fs.stat(target);
      const read = info?.kind === 'file' ? await readTextForTool(ctx.fs, target) : undefined;
      if (read?.kind === 'refused') return failed(read.message, read.message, read.type);
      const raw = read?.kind === 'text' ? read.text : null;
      if (info?.kind === 'other') {
        return failed(
          'Path is not a regular file.',
          `Path is not a regular file (a FIFO, socket or device): ${target}`,
          'read_content_failure',
        );
      }
      if (info?.kind === 'directory') {
        return failed(
          'Path is a directory.',
          `Path is a directory, not a file: ${target}`,
          'target_is_directory',
        );
      }
      const lineEnding = raw === null ? '\n' : detectLineEnding(raw);
      const current = raw?.replace(/\r\n/g, '\n') ?? null;

      let newContent: string;
      let occurrences = 1;
      const isNewFile = args.old_string === '' && current === null;
      if (isNewFile) {
        newContent = args.new_string;
      } else if (current === null) {
        return failed(
          'File not found. Cannot apply edit. Use an empty old_string to create a new file.',
          `File not found: ${target}`,
          'file_not_found',
        );
      } else if (args.old_string === '') {
        return failed(
          'Failed to edit. Attempted to create a file that already exists.',
          `File already exists, cannot create: ${target}`,
          'attempt_to_create_existing_file',
        );
      } else {
        const replacement = calculateReplacement(current, args.old_string, args.new_string);
        occurrences = replacement.occurrences;
        if (occurrences === 0) {
          return failed(
            'Failed to edit, could not find the string to replace.',
            `Failed to edit, 0 occurrences found for old_string in ${target}. No edits made. The exact text in old_string was not found. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
            'edit_no_occurrence_found',
          );
        }
        if (!args.allow_multiple && occurrences !== 1) {
          return failed(
            `Failed to edit, expected 1 occurrence but found ${occurrences}.`,
            `Failed to edit, Expected 1 occurrence but found ${occurrences} for old_string in file: ${target}`,
            'edit_expected_occurrence_mismatch',
          );
        }
        if (replacement.finalOldString === replacement.finalNewString) {
          return failed(
            'No changes to apply. The old_string and new_string are identical.',
            `No changes to apply. The old_string and new_string are identical in file: ${target}`,
            'edit_no_change',
          );
        }
        newContent = replacement.newContent;
        if (newContent === current) {
          return failed(
            'No changes to apply. The new content is identical to the current content.',
            `No changes to apply. The new content is identical to the current content in file: ${target}`,
            'edit_no_change',
          );
        }
      }
      const toWrite = lineEnding === '\r\n' ? newContent.replace(/\r?\n/g, '\r\n') : newContent;
      try {
        await ctx.fs.writeFile(target, toWrite);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(message, 'file_write_failure', `Error writing file: ${message}`);
      }
      const llmContent = isNewFile
        ? `Created new file: ${target} with provided content.`
        : `Successfully modified file: ${target} (${occurrences} replacements). Here is the updated code:\n${diffContextSnippet(current ?? '', newContent, 5)}`;
      return {
        llmContent,
        returnDisplay: `${isNewFile ? 'Created' : 'Edited'} ${makeRelative(target, ctx.cwd)}`,
        ...(isNewFile
          ? {}
          : { fileDiff: fileDiff(target, current ?? '', newContent, ['Current', 'Proposed']) }),
      };
    },
  });
}
