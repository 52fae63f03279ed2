import type { Part } from '@google/genai';
import path from 'node:path';
import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool } from './builtin-tool.js';
import { READ_MANY_FILES_EXCLUDES } from './default-excludes.js';
import { processFileContent } from './file-content.js';
import { detectFileType } from './file-types.js';
import { fileFiltering, IgnoreRules } from './ignore-rules.js';
import { readForTool } from './safe-read.js';
import { toPosix } from './tool-paths.js';
import { fileFilteringSchema } from './file-filtering-schema.js';

const ReadManyFilesArgs = z.object({
  include: z.array(z.string().min(1)).min(1),
  exclude: z.array(z.string().min(1)).optional(),
  recursive: z.boolean().optional(),
  useDefaultExcludes: z.boolean().optional(),
  file_filtering_options: z
    .object({
      respect_git_ignore: z.boolean().optional(),
      respect_gemini_ignore: z.boolean().optional(),
    })
    .optional(),
});

const SEPARATOR = '--- {filePath} ---';
const TERMINATOR = '\n--- End of content ---';

const DESCRIPTION = `Reads content from multiple files specified by glob patterns within a configured target directory. For text files, it concatenates their content into a single string. It is primarily designed for text-based files. However, it can also process image (e.g., .png, .jpg), audio (e.g., .mp3, .wav), and PDF (.pdf) files if their file names or extensions are explicitly included in the 'include' argument. For these explicitly requested non-text files, their data is read and included in a format suitable for model consumption (e.g., base64 encoded).

This tool is useful when you need to understand or analyze a collection of files, such as:
- Getting an overview of a codebase or parts of it (e.g., all TypeScript files in the 'src' directory).
- Finding where specific functionality is implemented if the user asks broad questions about code.
- Reviewing documentation files (e.g., all Markdown files in the 'docs' directory).
- Gathering context from multiple configuration files.
- When the user asks to "read all files in X directory" or "show me the content of all Y files".

Use this tool when the user's query implies needing the content of several files simultaneously for context, analysis, or summarization. For text files, it uses default UTF-8 encoding and a '--- {filePath} ---' separator between file contents. The tool inserts a '--- End of content ---' after the last file. Ensure glob patterns are relative to the target directory. Glob patterns like 'src/**/*.js' are supported. Avoid using for single files if a more specific single-file reading tool is available, unless the user specifically requests to process a list containing just one file via this tool. Other binary files (not explicitly requested as image/audio/PDF) are generally skipped. Default excludes apply to common non-text files (except for explicitly requested images/audio/PDFs) and large dependency directories unless 'useDefaultExcludes' is false.`;

const FILTERING_SCHEMA = fileFilteringSchema(
  'Whether to respect ignore patterns from .gitignore or .geminiignore',
);

/** gemini-cli's `read_many_files` (ReadManyFiles, kind read): files matching globs, concatenated. */
export function createReadManyFilesTool(): AgentTool {
  return defineBuiltinTool({
    name: 'read_many_files',
    displayName: 'ReadManyFiles',
    kind: 'read',
    description: DESCRIPTION,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        include: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          minItems: 1,
          description:
            'An array of glob patterns or paths. Examples: ["src/**/*.ts"], ["README.md", "docs/"]',
        },
        exclude: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description:
            'Optional. Glob patterns for files/directories to exclude. Added to default excludes if useDefaultExcludes is true. Example: "**/*.log", "temp/"',
          default: [],
        },
        recursive: {
          type: 'boolean',
          description:
            'Optional. Whether to search recursively (primarily controlled by `**` in glob patterns). Defaults to true.',
          default: true,
        },
        useDefaultExcludes: {
          type: 'boolean',
          description:
            'Optional. Whether to apply a list of default exclusion patterns (e.g., node_modules, .git, binary files). Defaults to true.',
          default: true,
        },
        file_filtering_options: FILTERING_SCHEMA,
      },
      required: ['include'],
    },
    schema: ReadManyFilesArgs,
    describe: (args) =>
      `Will attempt to read and concatenate files using patterns: ${args.include.join('`, `')}`,
    async run(args, ctx, call) {
      const excludes = [
        ...(args.useDefaultExcludes === false ? [] : READ_MANY_FILES_EXCLUDES),
        ...(args.exclude ?? []).map((p) => (p.endsWith('/') ? `${p}**` : p)),
      ];
      const roots = ctx.fs.workspaceDirectories();
      const found = new Set<string>();
      for (const dir of roots) {
        for (const raw of args.include) {
          const pattern = raw.replace(/\\/g, '/');
          const literal = await ctx.fs.stat(path.resolve(dir, pattern));
          const effective =
            literal?.kind === 'directory'
              ? `${pattern.replace(/\/+$/, '')}/**`
              : literal?.kind === 'file'
                ? pattern.replace(/[*?[\]{}]/g, '\\$&')
                : pattern;
          const matches = await ctx.fs.glob(effective, {
            cwd: dir,
            ignore: excludes,
            caseSensitive: false,
            dot: true,
            signal: call.signal,
          });
          for (const match of matches) found.add(match);
        }
      }
      const rules = await IgnoreRules.load(
        ctx.fs,
        roots,
        fileFiltering(args.file_filtering_options),
      );
      const skipped: Array<{ path: string; reason: string }> = [];
      const files = [...found].filter((file) => !rules.ignores(file)).sort();
      const ignoredCount = found.size - files.length;
      if (ignoredCount > 0) {
        skipped.push({
          path: `${ignoredCount} file(s)`,
          reason: 'ignored by project ignore files',
        });
      }

      const parts: Part[] = [];
      const processed: string[] = [];
      for (const file of files) {
        const relative = toPosix(path.relative(ctx.cwd, file));
        const read = await readForTool(ctx.fs, file);
        if (read.kind === 'refused') {
          skipped.push({ path: relative, reason: read.message });
          continue;
        }
        const type = read.kind === 'bytes' ? detectFileType(file, read.bytes) : 'text';
        if (type === 'image' || type === 'pdf') {
          const ext = path.extname(file).toLowerCase();
          const stem = path.basename(file, ext);
          const explicit = args.include.some(
            (p) => p.toLowerCase().includes(ext) || p.includes(stem),
          );
          if (!explicit) {
            skipped.push({
              path: relative,
              reason: 'asset file (image/pdf) was not explicitly requested by name or extension',
            });
            continue;
          }
        }
        const result = await processFileContent(ctx.fs, file, ctx.cwd);
        if (result.error) {
          skipped.push({ path: relative, reason: `Read error: ${result.error}` });
          continue;
        }
        if (typeof result.llmContent === 'string') {
          const warning = result.isTruncated
            ? "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\n"
            : '';
          parts.push({
            text: `${SEPARATOR.replace('{filePath}', file)}\n\n${warning}${result.llmContent}\n\n`,
          });
        } else {
          parts.push(result.llmContent);
        }
        processed.push(relative);
      }

      let display = `### ReadManyFiles Result (Target Dir: \`${ctx.cwd}\`)\n\n`;
      if (processed.length > 0) {
        display += `Successfully read and concatenated content from **${processed.length} file(s)**.\n`;
        display +=
          processed.length <= 10
            ? '\n**Processed Files:**\n'
            : '\n**Processed Files (first 10 shown):**\n';
        for (const p of processed.slice(0, 10)) display += `- \`${p}\`\n`;
        if (processed.length > 10) display += `- ...and ${processed.length - 10} more.\n`;
      }
      if (skipped.length > 0) {
        if (processed.length === 0)
          display += 'No files were read and concatenated based on the criteria.\n';
        display +=
          skipped.length <= 5
            ? `\n**Skipped ${skipped.length} item(s):**\n`
            : `\n**Skipped ${skipped.length} item(s) (first 5 shown):**\n`;
        for (const s of skipped.slice(0, 5)) display += `- \`${s.path}\` (Reason: ${s.reason})\n`;
        if (skipped.length > 5) display += `- ...and ${skipped.length - 5} more.\n`;
      } else if (processed.length === 0) {
        display += 'No files were read and concatenated based on the criteria.\n';
      }
      if (parts.length > 0) parts.push({ text: TERMINATOR });
      else parts.push({ text: 'No files matching the criteria were found or all were skipped.' });
      return { llmContent: parts, returnDisplay: display.trim() };
    },
  });
}
