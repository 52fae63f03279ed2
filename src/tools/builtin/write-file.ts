import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { detectLineEnding, detectOmissionPlaceholders, diffContextSnippet } from './text-edits.js';
import { fileDiff } from './file-diff.js';
import { readTextForTool } from './safe-read.js';
import { makeRelative, resolveToolPath, shortenPath } from './tool-paths.js';

const WriteFileArgs = z.object({
  file_path: z.string(),
  content: z.string(),
});

function describeError(error: unknown, filePath: string): { message: string; type: string } {
  const code =
    typeof error === 'object' && error !== null && 'code' in error
      ? String((error as { code: unknown }).code)
      : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'EACCES') {
    return {
      message: `Permission denied writing to file: ${filePath} (${code})`,
      type: 'permission_denied',
    };
  }
  if (code === 'ENOSPC') {
    return { message: `No space left on device: ${filePath} (${code})`, type: 'no_space_left' };
  }
  if (code === 'EISDIR') {
    return {
      message: `Target is a directory, not a file: ${filePath} (${code})`,
      type: 'target_is_directory',
    };
  }
  if (code) {
    return {
      message: `Error writing to file '${filePath}': ${message} (${code})`,
      type: 'file_write_failure',
    };
  }
  return { message: `Error writing to file: ${message}`, type: 'file_write_failure' };
}

/** gemini-cli's `write_file` (WriteFile, kind edit): creates or overwrites a whole file. */
export function createWriteFileTool(): AgentTool {
  return defineBuiltinTool({
    name: 'write_file',
    displayName: 'WriteFile',
    kind: 'edit',
    description:
      "Writes the complete content to a file, automatically creating missing parent directories. Overwrites existing files. The user has the ability to modify 'content' before it is saved. Best for new or small files; use 'replace' for targeted edits to large files.",
    parametersJsonSchema: {
      type: 'object',
      properties: {
        file_path: { description: 'Path to the file.', type: 'string' },
        content: {
          description:
            "The complete content to write. Provide the full file; do not use placeholders like '// ... rest of code'.",
          type: 'string',
        },
      },
      required: ['file_path', 'content'],
    },
    schema: WriteFileArgs,
    check(args) {
      if (!args.file_path) return 'Missing or empty "file_path"';
      if (detectOmissionPlaceholders(args.content).length > 0) {
        return "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.";
      }
      return null;
    },
    describe: (args) => `Writing to ${shortenPath(args.file_path)}`,
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
      if (info?.kind === 'directory') {
        return errorResult(`Path is a directory, not a file: ${target}`, 'target_is_directory');
      }
      const read = info ? await readTextForTool(ctx.fs, target) : undefined;
      if (read?.kind === 'refused' && read.type !== 'file_too_large') {
        return errorResult(read.message, 'file_write_failure');
      }
      // An existing file above the read cap is overwritten without reading it (no diff snippet).
      const tooLarge = read?.kind === 'refused';
      const original = read?.kind === 'text' ? read.text : tooLarge ? '' : null;
      if (info && original === null) {
        return errorResult(
          `Error checking existing file '${target}': the file could not be read.`,
          'file_write_failure',
        );
      }
      const isNewFile = original === null;
      let finalContent = args.content;
      if (!isNewFile && original && detectLineEnding(original) === '\r\n') {
        finalContent = finalContent.replace(/\r?\n/g, '\r\n');
      }
      try {
        await ctx.fs.writeFile(target, finalContent);
      } catch (error) {
        const { message, type } = describeError(error, target);
        return errorResult(message, type);
      }
      const head = isNewFile
        ? `Successfully created and wrote to new file: ${target}.`
        : `Successfully overwrote file: ${target}.`;
      const snippet = diffContextSnippet(isNewFile ? '' : (original ?? ''), finalContent, 5);
      return {
        llmContent: `${head} Here is the updated code:\n${snippet}`,
        returnDisplay: `${isNewFile ? 'Created' : 'Overwrote'} ${makeRelative(target, ctx.cwd)}`,
        fileDiff: fileDiff(target, original, args.content, ['Original', 'Written']),
      };
    },
  });
}
