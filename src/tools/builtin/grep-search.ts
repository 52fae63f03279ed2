import path from 'node:path';
import { z } from 'zod';
import type { SessionContext } from '../../core/session-context.js';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { compileLinearRegex } from '../../linear-regex.js';
import { defineBuiltinTool, errorResult } from './builtin-tool.js';
import { SEARCH_EXCLUDES } from './default-excludes.js';
import { looksBinary } from './file-types.js';
import { formatGrepResults, type GrepMatch } from './grep-format.js';
import { fileFiltering, IgnoreRules } from './ignore-rules.js';
import { readForTool } from './safe-read.js';
import { resolveToolPath, shortenPath } from './tool-paths.js';

const GrepArgs = z.object({
  pattern: z.string(),
  dir_path: z.string().optional(),
  include_pattern: z.string().optional(),
  exclude_pattern: z.string().optional(),
  names_only: z.boolean().optional(),
  max_matches_per_file: z.number().int().optional(),
  total_max_matches: z.number().int().optional(),
});
type GrepArgs = z.infer<typeof GrepArgs>;

/** gemini-cli's default cap on matches. */
export const DEFAULT_TOTAL_MAX_MATCHES = 100;

function regexError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Lines matched between two yields to the event loop (so an abort is seen promptly). */
const LINES_PER_SLICE = 4096;

/** Files a search could not read: above the read cap, or not safe to read. */
interface Skipped {
  path: string;
  reason: string;
}

async function searchDirectory(
  ctx: SessionContext,
  dir: string,
  args: GrepArgs,
  maxMatches: number,
  rules: IgnoreRules,
  signal: AbortSignal,
  skipped: Skipped[],
): Promise<GrepMatch[]> {
  // The model's patterns run on a linear-time engine: no pattern can stall the event loop.
  const regex = compileLinearRegex(args.pattern, { ignoreCase: true });
  const exclude = args.exclude_pattern
    ? compileLinearRegex(args.exclude_pattern, { ignoreCase: true })
    : null;
  // Like grep --include / git grep pathspecs, a pattern without "/" matches the file name at any depth.
  const include = args.include_pattern
    ? args.include_pattern.includes('/')
      ? args.include_pattern
      : `**/${args.include_pattern}`
    : '**/*';
  const files = await ctx.fs.glob(include, {
    cwd: dir,
    dot: true,
    ignore: [...SEARCH_EXCLUDES],
    signal,
  });
  const matches: GrepMatch[] = [];
  for (const file of files) {
    if (matches.length >= maxMatches || signal.aborted) break;
    if (rules.ignores(file)) continue;
    const read = await readForTool(ctx.fs, file);
    if (read.kind === 'refused') {
      skipped.push({ path: path.relative(dir, file) || path.basename(file), reason: read.message });
      continue;
    }
    if (read.kind === 'missing' || looksBinary(read.bytes)) continue;
    const lines = Buffer.from(read.bytes).toString('utf8').split(/\r?\n/);
    let inFile = 0;
    for (let index = 0; index < lines.length; index += 1) {
      if (index > 0 && index % LINES_PER_SLICE === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (signal.aborted) return matches;
      }
      const line = lines[index] ?? '';
      if (!regex.test(line)) continue;
      if (exclude?.test(line)) continue;
      matches.push({
        filePath: path.relative(dir, file) || path.basename(file),
        absolutePath: file,
        lineNumber: index + 1,
        line,
      });
      inFile += 1;
      if (matches.length >= maxMatches) break;
      if (args.max_matches_per_file && inFile >= args.max_matches_per_file) break;
    }
  }
  return matches;
}

/** Tells the model which files were not searched and why (too large for the read cap, FIFOs, …). */
function withSkipNote(result: ToolResult, skipped: Skipped[]): ToolResult {
  const shown = skipped.slice(0, 5).map((s) => `- ${s.path}: ${s.reason}`);
  if (skipped.length > 5) shown.push(`- ...and ${skipped.length - 5} more.`);
  const note = `\n\nSkipped ${skipped.length} file(s) that could not be searched:\n${shown.join('\n')}`;
  return {
    ...result,
    llmContent:
      typeof result.llmContent === 'string' ? result.llmContent + note : result.llmContent,
    returnDisplay: `${String(result.returnDisplay ?? '')} (skipped ${skipped.length} file(s))`,
  };
}

/** gemini-cli's `grep_search` (SearchText, kind search): a regex over file contents, in pure JavaScript. */
export function createGrepSearchTool(): AgentTool {
  return defineBuiltinTool({
    name: 'grep_search',
    displayName: 'SearchText',
    kind: 'search',
    description: 'Searches for a regular expression pattern within file contents. Max 100 matches.',
    parametersJsonSchema: {
      type: 'object',
      properties: {
        pattern: {
          description: `The regular expression (regex) pattern to search for within file contents (e.g., 'function\\s+myFunction', 'import\\s+\\{.*\\}\\s+from\\s+.*').`,
          type: 'string',
        },
        dir_path: {
          description:
            'Optional: The absolute path to the directory to search within. If omitted, searches the current working directory.',
          type: 'string',
        },
        include_pattern: {
          description: `Optional: A glob pattern to filter which files are searched (e.g., '*.js', '*.{ts,tsx}', 'src/**'). If omitted, searches all files (respecting potential global ignores).`,
          type: 'string',
        },
        exclude_pattern: {
          description:
            'Optional: A regular expression pattern to exclude from the search results. If a line matches both the pattern and the exclude_pattern, it will be omitted.',
          type: 'string',
        },
        names_only: {
          description:
            'Optional: If true, only the file paths of the matches will be returned, without the line content or line numbers. This is useful for gathering a list of files.',
          type: 'boolean',
        },
        max_matches_per_file: {
          description:
            'Optional: Maximum number of matches to return per file. Use this to prevent being overwhelmed by repetitive matches in large files.',
          type: 'integer',
          minimum: 1,
        },
        total_max_matches: {
          description:
            'Optional: Maximum number of total matches to return. Use this to limit the overall size of the response. Defaults to 100 if omitted.',
          type: 'integer',
          minimum: 1,
        },
      },
      required: ['pattern'],
    },
    schema: GrepArgs,
    check(args) {
      try {
        compileLinearRegex(args.pattern);
      } catch (error) {
        return `Invalid regular expression pattern provided: ${args.pattern}. Error: ${regexError(error)}`;
      }
      if (args.exclude_pattern) {
        try {
          compileLinearRegex(args.exclude_pattern);
        } catch (error) {
          return `Invalid exclude regular expression pattern provided: ${args.exclude_pattern}. Error: ${regexError(error)}`;
        }
      }
      if (args.max_matches_per_file !== undefined && args.max_matches_per_file < 1) {
        return 'max_matches_per_file must be at least 1.';
      }
      if (args.total_max_matches !== undefined && args.total_max_matches < 1) {
        return 'total_max_matches must be at least 1.';
      }
      return null;
    },
    describe(args) {
      let text = `'${args.pattern}'`;
      if (args.include_pattern) text += ` in ${args.include_pattern}`;
      if (args.dir_path)
        text += ` within ${args.dir_path === '.' ? './' : shortenPath(args.dir_path)}`;
      return text;
    },
    async run(args, ctx, call) {
      let searchDirectories: readonly string[];
      if (args.dir_path) {
        const resolved = await resolveToolPath(
          ctx.fs,
          args.dir_path,
          'read',
          'Error: Path not in workspace.',
        );
        if ('result' in resolved) return resolved.result;
        const info = await ctx.fs.stat(resolved.path);
        if (!info) {
          return errorResult(
            `Path does not exist: ${resolved.path}`,
            'file_not_found',
            'Error: Path does not exist.',
          );
        }
        if (info.kind !== 'directory') {
          return errorResult(
            `Path is not a directory: ${resolved.path}`,
            'path_is_not_a_directory',
            'Error: Path is not a directory.',
          );
        }
        searchDirectories = [resolved.path];
      } else {
        searchDirectories = ctx.fs.workspaceDirectories();
      }
      const total = args.total_max_matches ?? DEFAULT_TOTAL_MAX_MATCHES;
      const rules = await IgnoreRules.load(ctx.fs, ctx.fs.workspaceDirectories(), fileFiltering());
      let all: GrepMatch[] = [];
      const skipped: Skipped[] = [];
      for (const dir of searchDirectories) {
        const remaining = total - all.length;
        if (remaining <= 0) break;
        const found = await searchDirectory(ctx, dir, args, remaining, rules, call.signal, skipped);
        if (searchDirectories.length > 1) {
          for (const match of found) match.filePath = path.join(path.basename(dir), match.filePath);
        }
        all = all.concat(found);
      }
      const location = args.dir_path
        ? `in path "${args.dir_path}"`
        : searchDirectories.length > 1
          ? `across ${searchDirectories.length} workspace directories`
          : 'in the workspace directory';
      const result = await formatGrepResults(ctx.fs, all, args, location, total);
      return skipped.length === 0 ? result : withSkipNote(result, skipped);
    },
  });
}
