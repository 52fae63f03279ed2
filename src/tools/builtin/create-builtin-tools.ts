import { ConfigurationError } from '../../errors.js';
import { READ_ONLY_KINDS, type AgentTool } from '../../core/agent-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepSearchTool } from './grep-search.js';
import { createListDirectoryTool } from './list-directory.js';
import { createReadFileTool } from './read-file.js';
import { createReadManyFilesTool } from './read-many-files.js';
import { createReplaceTool } from './replace.js';
import { createRunShellCommandTool, type ShellToolOptions } from './run-shell-command.js';
import { createWebFetchTool, type WebFetchOptions } from './web-fetch.js';
import { createWriteFileTool } from './write-file.js';
import { createWriteTodosTool } from './write-todos.js';
import { createGoogleWebSearchTool, type GroundedSearch } from './google-web-search.js';
import { createSaveMemoryTool, type SaveMemoryOptions } from './save-memory.js';
import { ASK_USER_TOOL_NAME, createAskUserTool, type AskUserHandler } from './ask-user.js';

/** Which built-in tools to register: all, the read-only ones, a list of names, or none. */
export type BuiltinToolSelection = 'all' | 'read-only' | readonly string[] | false;

/** Options for the built-in tools that have any. */
export interface BuiltinToolOptions {
  shell?: ShellToolOptions;
  webFetch?: WebFetchOptions;
  /** How `google_web_search` reaches the model (the agent's session model client); without it, no such tool. */
  webSearch?: GroundedSearch;
  /** Where `save_memory` writes (the agent's home and project); without it, no such tool. */
  memory?: SaveMemoryOptions;
  /** Who answers `ask_user` (the agent's `onAskUser`); without it, no such tool. */
  askUser?: AskUserHandler;
}

/** gemini-cli's built-in tool names this SDK ships, in registration order. */
export const BUILTIN_TOOL_NAMES = [
  'list_directory',
  'read_file',
  'grep_search',
  'glob',
  'replace',
  'write_file',
  'web_fetch',
  'run_shell_command',
  'read_many_files',
  'google_web_search',
  'write_todos',
  'save_memory',
  'ask_user',
] as const;

/**
 * The built-in tools gemini-cli 0.61 registers by default: all of ours except `read_many_files`, which it no longer
 * offers the model (it still serves `@path` references), and `save_memory`, which it removed (kept here with its
 * last contract, on request). The agent offers these unless `builtinTools` says otherwise; the policy decides which
 * the model sees (headless, `write_todos` is not offered, as in gemini). `ask_user` is built only for an
 * `onAskUser` handler.
 */
export const DEFAULT_BUILTIN_TOOLS: readonly BuiltinToolName[] = BUILTIN_TOOL_NAMES.filter(
  (name) => name !== 'read_many_files' && name !== 'save_memory',
);

/** A built-in tool name. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Legacy names gemini-cli still accepts. */
const ALIASES: Record<string, BuiltinToolName> = { search_file_content: 'grep_search' };

function build(name: BuiltinToolName, options: BuiltinToolOptions): AgentTool | undefined {
  switch (name) {
    case 'list_directory':
      return createListDirectoryTool();
    case 'read_file':
      return createReadFileTool();
    case 'grep_search':
      return createGrepSearchTool();
    case 'glob':
      return createGlobTool();
    case 'replace':
      return createReplaceTool();
    case 'write_file':
      return createWriteFileTool();
    case 'web_fetch':
      return createWebFetchTool(options.webFetch);
    case 'run_shell_command':
      return createRunShellCommandTool(options.shell);
    case 'read_many_files':
      return createReadManyFilesTool();
    case 'google_web_search':
      return options.webSearch && createGoogleWebSearchTool(options.webSearch);
    case 'write_todos':
      return createWriteTodosTool();
    case 'save_memory':
      return options.memory && createSaveMemoryTool(options.memory);
    case 'ask_user':
      return options.askUser && createAskUserTool(options.askUser);
  }
}

function isBuiltinName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * Builds gemini-cli's built-in tools (`google_web_search`, `save_memory` and `ask_user` only when `options` say how
 * they reach the model, the memory files and a human). `'all'` gives every tool; `'read-only'` the ones whose kind never
 * changes anything (read, search, fetch); a list picks by name (legacy `search_file_content` accepted);
 * `false` gives none. Approval of edit and execute tools is the policy's job, by `kind`.
 *
 * @throws ConfigurationError for an unknown name or a selection of the wrong type.
 */
export function createBuiltinTools(
  selection: BuiltinToolSelection,
  options: BuiltinToolOptions = {},
): AgentTool[] {
  if (selection === false) return [];
  const buildAll = (names: readonly BuiltinToolName[]): AgentTool[] =>
    names.flatMap((name) => build(name, options) ?? []);
  if (selection === 'all') return buildAll(BUILTIN_TOOL_NAMES);
  if (selection === 'read-only') {
    // save_memory is gemini-cli's kind `think`, but it writes a file; ask_user (kind communicate) changes nothing.
    return buildAll(BUILTIN_TOOL_NAMES).filter(
      (tool) =>
        (READ_ONLY_KINDS.has(tool.kind) && tool.name !== 'save_memory') ||
        tool.name === ASK_USER_TOOL_NAME,
    );
  }
  if (!Array.isArray(selection)) {
    throw new ConfigurationError(
      `builtinTools must be 'all', 'read-only', false or an array of tool names; got ${JSON.stringify(selection)}.`,
    );
  }
  const names: BuiltinToolName[] = [];
  const unknown: string[] = [];
  for (const raw of selection as readonly unknown[]) {
    const name = typeof raw === 'string' ? (ALIASES[raw] ?? raw) : String(raw);
    if (typeof raw === 'string' && isBuiltinName(name)) {
      if (!names.includes(name)) names.push(name);
    } else {
      unknown.push(String(raw));
    }
  }
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `Unknown built-in tool${unknown.length > 1 ? 's' : ''}: ${unknown.map((n) => JSON.stringify(n)).join(', ')}. ` +
        `Valid names: ${BUILTIN_TOOL_NAMES.join(', ')}.`,
    );
  }
  return buildAll(names);
}

/**
 * The built-in names a selection could register, which custom tools may not take: none for `false`, the listed
 * ones, else all (`'read-only'` is a subset, so none). `ask_user` is reserved only with an `onAskUser` handler.
 */
export function reservedBuiltinNames(selection: unknown, askUser: boolean): Set<string> {
  let names: Set<string>;
  if (selection === false || selection === 'read-only') names = new Set();
  else if (Array.isArray(selection))
    names = new Set(selection.filter((s) => typeof s === 'string'));
  else names = new Set(BUILTIN_TOOL_NAMES);
  if (!askUser) names.delete(ASK_USER_TOOL_NAME);
  return names;
}
