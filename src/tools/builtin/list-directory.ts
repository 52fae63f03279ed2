import { compileLinearRegex } from '../../linear-regex.js';
import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { fileFiltering, IgnoreRules } from './ignore-rules.js';
import { resolveToolPath, shortenPath } from './tool-paths.js';
import { fileFilteringSchema } from './file-filtering-schema.js';

const ListDirectoryArgs = z.object({
  dir_path: z.string(),
  ignore: z.array(z.string()).optional(),
  file_filtering_options: z
    .object({
      respect_git_ignore: z.boolean().optional(),
      respect_gemini_ignore: z.boolean().optional(),
    })
    .optional(),
});

/** gemini-cli's simple `ignore` matching: `*` and `?` wildcards against the entry name. */
function matchesIgnore(name: string, patterns: readonly string[] | undefined): boolean {
  return (patterns ?? []).some((pattern) => {
    const source = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*+/g, '.*')
      .replace(/\?/g, '.');
    // The model writes these patterns: matched on the linear-time engine.
    return compileLinearRegex(`(?s)^${source}$`).test(name);
  });
}

/** gemini-cli's `list_directory` (ReadFolder, kind search): one directory's entries, directories first. */
export function createListDirectoryTool(): AgentTool {
  return defineBuiltinTool({
    name: 'list_directory',
    displayName: 'ReadFolder',
    kind: 'search',
    description:
      'Lists the names of files and subdirectories directly within a specified directory path. Can optionally ignore entries matching provided glob patterns.',
    parametersJsonSchema: {
      type: 'object',
      properties: {
        dir_path: { description: 'The path to the directory to list', type: 'string' },
        ignore: {
          description: 'List of glob patterns to ignore',
          items: { type: 'string' },
          type: 'array',
        },
        file_filtering_options: fileFilteringSchema(
          'Optional: Whether to respect ignore patterns from .gitignore or .geminiignore',
        ),
      },
      required: ['dir_path'],
    },
    schema: ListDirectoryArgs,
    describe: (args) => shortenPath(args.dir_path),
    async run(args, ctx) {
      const resolved = await resolveToolPath(ctx.fs, args.dir_path, 'read');
      if ('result' in resolved) return resolved.result;
      const dir = resolved.path;
      const info = await ctx.fs.stat(dir);
      if (!info) {
        return errorResult(
          `Error: Directory not found or inaccessible: ${dir}`,
          'file_not_found',
          'Error: Directory not found or inaccessible.',
        );
      }
      if (info.kind !== 'directory') {
        return errorResult(
          `Error: Path is not a directory: ${dir}`,
          'path_is_not_a_directory',
          'Error: Path is not a directory.',
        );
      }
      const listing = await ctx.fs.readDir(dir);
      if (listing === null) {
        return errorResult(
          'Error listing directory: the directory could not be read.',
          'ls_execution_error',
          'Error: Failed to list directory.',
        );
      }
      if (listing.length === 0) {
        return { llmContent: `Directory ${dir} is empty.`, returnDisplay: 'Directory is empty.' };
      }
      const rules = await IgnoreRules.load(
        ctx.fs,
        ctx.fs.workspaceDirectories(),
        fileFiltering(args.file_filtering_options),
      );
      let ignoredCount = 0;
      const entries: Array<{ name: string; isDirectory: boolean; size: number }> = [];
      for (const entry of listing) {
        const isDirectory = entry.kind === 'directory';
        if (rules.ignores(entry.path, isDirectory)) {
          ignoredCount += 1;
          continue;
        }
        if (matchesIgnore(entry.name, args.ignore)) continue;
        const size = isDirectory ? 0 : ((await ctx.fs.stat(entry.path))?.size ?? 0);
        entries.push({ name: entry.name, isDirectory, size });
      }
      entries.sort((a, b) => {
        if (a.isDirectory && !b.isDirectory) return -1;
        if (!a.isDirectory && b.isDirectory) return 1;
        return a.name.localeCompare(b.name);
      });
      const body = entries
        .map((entry) =>
          entry.isDirectory ? `[DIR] ${entry.name}` : `${entry.name} (${entry.size} bytes)`,
        )
        .join('\n');
      let llmContent = `Directory listing for ${dir}:\n${body}`;
      if (ignoredCount > 0) llmContent += `\n\n(${ignoredCount} ignored)`;
      let returnDisplay = `Listed ${entries.length} item(s).`;
      if (ignoredCount > 0) returnDisplay += ` (${ignoredCount} ignored)`;
      return { llmContent, returnDisplay };
    },
  });
}
