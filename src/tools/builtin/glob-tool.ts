import path from 'node:path';
import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { fileFiltering, IgnoreRules } from './ignore-rules.js';
import { resolveToolPath, shortenPath } from './tool-paths.js';

const GlobArgs = z.object({
  pattern: z.string(),
  dir_path: z.string().optional(),
  case_sensitive: z.boolean().optional(),
  respect_git_ignore: z.boolean().optional(),
  respect_gemini_ignore: z.boolean().optional(),
});

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/** gemini-cli's ordering: files changed in the last 24 h first (newest first), then the rest alphabetically. */
export function sortByRecency(
  entries: Array<{ path: string; mtimeMs: number }>,
  now: number,
): Array<{ path: string; mtimeMs: number }> {
  return [...entries].sort((a, b) => {
    const aRecent = now - a.mtimeMs < ONE_DAY_MS;
    const bRecent = now - b.mtimeMs < ONE_DAY_MS;
    if (aRecent && bRecent) return b.mtimeMs - a.mtimeMs;
    if (aRecent) return -1;
    if (bRecent) return 1;
    return a.path.localeCompare(b.path);
  });
}

/** gemini-cli's `glob` (FindFiles, kind search): files matching a glob, newest first. */
export function createGlobTool(): AgentTool {
  return defineBuiltinTool({
    name: 'glob',
    displayName: 'FindFiles',
    kind: 'search',
    description:
      'Efficiently finds files matching specific glob patterns (e.g., `src/**/*.ts`, `**/*.md`), returning absolute paths sorted by modification time (newest first). Ideal for quickly locating files based on their name or path structure, especially in large codebases.',
    parametersJsonSchema: {
      type: 'object',
      properties: {
        pattern: {
          description: "The glob pattern to match against (e.g., '**/*.py', 'docs/*.md').",
          type: 'string',
        },
        dir_path: {
          description:
            'Optional: The absolute path to the directory to search within. If omitted, searches the root directory.',
          type: 'string',
        },
        case_sensitive: {
          description: 'Optional: Whether the search should be case-sensitive. Defaults to false.',
          type: 'boolean',
        },
        respect_git_ignore: {
          description:
            'Optional: Whether to respect .gitignore patterns when finding files. Only available in git repositories. Defaults to true.',
          type: 'boolean',
        },
        respect_gemini_ignore: {
          description:
            'Optional: Whether to respect .geminiignore patterns when finding files. Defaults to true.',
          type: 'boolean',
        },
      },
      required: ['pattern'],
    },
    schema: GlobArgs,
    check: (args) =>
      args.pattern.trim() === '' ? "The 'pattern' parameter cannot be empty." : null,
    describe: (args) =>
      `'${args.pattern}'${args.dir_path ? ` within ${shortenPath(args.dir_path)}` : ''}`,
    async run(args, ctx, call) {
      let searchDirectories: readonly string[];
      if (args.dir_path) {
        const resolved = await resolveToolPath(ctx.fs, args.dir_path, 'read');
        if ('result' in resolved) return resolved.result;
        const info = await ctx.fs.stat(resolved.path);
        if (!info) {
          return errorResult(`Search path does not exist ${resolved.path}`, 'file_not_found');
        }
        if (info.kind !== 'directory') {
          return errorResult(
            `Search path is not a directory: ${resolved.path}`,
            'path_is_not_a_directory',
          );
        }
        searchDirectories = [resolved.path];
      } else {
        searchDirectories = ctx.fs.workspaceDirectories();
      }
      const rules = await IgnoreRules.load(
        ctx.fs,
        ctx.fs.workspaceDirectories(),
        fileFiltering(args),
      );
      const found = new Set<string>();
      for (const dir of searchDirectories) {
        const literal = path.resolve(dir, args.pattern);
        const literalInfo = await ctx.fs.stat(literal);
        if (literalInfo?.kind === 'file') {
          found.add(literal);
          continue;
        }
        const matches = await ctx.fs.glob(args.pattern, {
          cwd: dir,
          caseSensitive: args.case_sensitive ?? false,
          dot: true,
          signal: call.signal,
        });
        for (const match of matches) found.add(match);
      }
      let ignoredCount = 0;
      const entries: Array<{ path: string; mtimeMs: number }> = [];
      for (const file of found) {
        if (rules.ignores(file)) {
          ignoredCount += 1;
          continue;
        }
        const info = await ctx.fs.stat(file);
        entries.push({ path: file, mtimeMs: info?.mtimeMs ?? 0 });
      }
      const where =
        searchDirectories.length === 1
          ? ` within ${searchDirectories[0]}`
          : ` across ${searchDirectories.length} workspace directories`;
      if (entries.length === 0) {
        let message = `No files found matching pattern "${args.pattern}"`;
        message +=
          searchDirectories.length === 1
            ? ` within ${searchDirectories[0]}`
            : ` within ${searchDirectories.length} workspace directories`;
        if (ignoredCount > 0) message += ` (${ignoredCount} files were ignored)`;
        return { llmContent: message, returnDisplay: 'No files found' };
      }
      const sorted = sortByRecency(entries, Date.now()).map((entry) => entry.path);
      let message = `Found ${sorted.length} file(s) matching "${args.pattern}"${where}`;
      if (ignoredCount > 0) message += ` (${ignoredCount} additional files were ignored)`;
      message += `, sorted by modification time (newest first):\n${sorted.join('\n')}`;
      return {
        llmContent: message,
        returnDisplay: `Found ${sorted.length} matching file(s)`,
      };
    },
  });
}
