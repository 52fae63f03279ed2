import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { AgentTool } from '../../core/agent-tool.js';
import { defineBuiltinTool } from './builtin-tool.js';

/** Where `save_memory` writes. */
export interface SaveMemoryOptions {
  /** The global memory file: `~/.gemini/<first context.fileName>` (default `GEMINI.md`). */
  globalFile(): string;
  /** The private project memory index for a working directory: `~/.gemini/tmp/<project>/memory/MEMORY.md`. */
  projectFile(cwd: string): Promise<string>;
}

/** The section gemini-cli appends global memories under. */
const MEMORY_SECTION_HEADER = '## Gemini Added Memories';

const DESCRIPTION =
  '\nSaves concise user context (preferences, facts) for use across future sessions.\n\nSupports two scopes:\n- **global** (default): Cross-project preferences loaded in every workspace. Use for "Remember X" or clear personal facts.\n- **project**: Facts specific to the current workspace, private to the user (not committed to the repo). Use for local dev setup notes, project-specific workflows, or personal reminders about this codebase.\n\nDo NOT use for session-specific context or temporary data.';

const SaveMemoryArgs = z
  .object({ fact: z.string(), scope: z.enum(['global', 'project']).optional() })
  .strict();
type SaveMemoryArgs = z.infer<typeof SaveMemoryArgs>;

/**
 * gemini-cli's sanitising of a fact: one line, leading list dashes dropped, `<` and `>` replaced by spaces so a
 * fact cannot close the context tags memory is wrapped in.
 */
function sanitizeFact(fact: string): string {
  return fact
    .replace(/[\r\n]/g, ' ')
    .trim()
    .replace(/^(-+\s*)+/, '')
    .trim()
    .replace(/[<>]/g, ' ');
}

function separatorAfter(content: string): string {
  if (content.length === 0 || content.endsWith('\n\n') || content.endsWith('\r\n\r\n')) return '';
  return content.endsWith('\n') || content.endsWith('\r\n') ? '\n' : '\n\n';
}

/** The global file with `- fact` appended under `## Gemini Added Memories` (the section added when missing). */
function withGlobalMemory(content: string, fact: string): string {
  const item = `- ${sanitizeFact(fact)}`;
  const header = content.indexOf(MEMORY_SECTION_HEADER);
  if (header === -1)
    return `${content}${separatorAfter(content)}${MEMORY_SECTION_HEADER}\n${item}\n`;
  const start = header + MEMORY_SECTION_HEADER.length;
  let end = content.indexOf('\n## ', start);
  if (end === -1) end = content.length;
  const before = content.slice(0, start).trimEnd();
  const section = `${content.slice(start, end).trimEnd()}\n${item}`;
  return `${before}\n${section.trimStart()}\n${content.slice(end)}`.trimEnd() + '\n';
}

/** The project index with `- fact` appended as its last line. */
function withProjectMemory(content: string, fact: string): string {
  const item = `- ${sanitizeFact(fact)}`;
  if (content.length === 0) return `${item}\n`;
  return content.endsWith('\n') ? `${content}${item}\n` : `${content}\n${item}\n`;
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/**
 * gemini-cli's `save_memory` (SaveMemory, kind think; removed from gemini-cli in May 2026, kept here with its last
 * contract): appends the fact to the global `GEMINI.md` (under `## Gemini Added Memories`) or, with `scope:
 * "project"`, to the private project `MEMORY.md`. The file is replaced whole (written beside it, then renamed), so
 * a crash never leaves half a memory file. Later sessions load it as memory.
 */
export function createSaveMemoryTool(options: SaveMemoryOptions): AgentTool {
  // Calls of one turn run in parallel: each file's read-append-write runs one at a time, so no fact is lost.
  const writing = new Map<string, Promise<unknown>>();
  const serialized = <T>(file: string, work: () => Promise<T>): Promise<T> => {
    const run = (writing.get(file) ?? Promise.resolve()).then(work, work);
    const settled = run.catch(() => undefined);
    writing.set(file, settled);
    void settled.then(() => {
      if (writing.get(file) === settled) writing.delete(file);
    });
    return run;
  };
  const target = async (args: SaveMemoryArgs, cwd: string): Promise<string> =>
    args.scope === 'project' ? options.projectFile(cwd) : options.globalFile();
  return defineBuiltinTool({
    name: 'save_memory',
    displayName: 'SaveMemory',
    kind: 'think',
    description: DESCRIPTION,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        fact: {
          type: 'string',
          description:
            'The specific fact or piece of information to remember. Should be a clear, self-contained statement.',
        },
        scope: {
          type: 'string',
          enum: ['global', 'project'],
          description:
            "Where to save the memory. 'global' (default) saves to a file loaded in every workspace. 'project' saves to a project-specific file private to the user, not committed to the repo.",
        },
      },
      required: ['fact'],
      additionalProperties: false,
    },
    schema: SaveMemoryArgs,
    check: (args) =>
      args.fact.trim() === '' ? 'Parameter "fact" must be a non-empty string.' : null,
    describe: (args) =>
      args.scope === 'project' ? 'in the project memory' : `in ${options.globalFile()}`,
    async run(args, ctx) {
      try {
        const file = await target(args, ctx.cwd);
        await serialized(file, async () => {
          const before = await readOrEmpty(file);
          const after =
            args.scope === 'project'
              ? withProjectMemory(before, args.fact)
              : withGlobalMemory(before, args.fact);
          await mkdir(dirname(file), { recursive: true });
          const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
          await writeFile(temp, after, 'utf8');
          await rename(temp, file);
        });
        const message = `Okay, I've remembered that: "${sanitizeFact(args.fact)}"`;
        return { llmContent: JSON.stringify({ success: true, message }), returnDisplay: message };
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return {
          llmContent: JSON.stringify({
            success: false,
            error: `Failed to save memory. Detail: ${detail}`,
          }),
          returnDisplay: `Error saving memory: ${detail}`,
          error: { message: detail, type: 'memory_tool_execution_error' },
        };
      }
    },
  });
}
