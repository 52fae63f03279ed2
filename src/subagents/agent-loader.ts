import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentLoadError, parseAgentMarkdown, type AgentFileOptions } from './agent-file.js';
import type { ResolvedSubagent } from './subagent-types.js';
import { Subagent } from './subagent.js';

/** Agent files larger than this are not read (a file that size is no agent definition). */
export const MAX_AGENT_FILE_BYTES = 4 * 1024 * 1024;

/** What {@link loadAgentsFromDirectory} found: the agents, and one error per file that failed. */
export interface AgentLoadResult {
  agents: Subagent[];
  errors: AgentLoadError[];
}

/**
 * Loads every agent file of a folder as gemini-cli's `loadAgentsFromDirectory`: regular files ending `.md` whose
 * name does not start with `_`, in name order; a missing folder is empty; a file that fails is reported in
 * `errors` and the others still load.
 */
export async function loadAgentsFromDirectory(
  dir: string,
  options: AgentDirectoryOptions = {},
): Promise<AgentLoadResult> {
  const result: AgentLoadResult = { agents: [], errors: [] };
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return result;
    result.errors.push(
      new AgentLoadError(dir, `Could not list directory: ${(error as Error).message}`),
    );
    return result;
  }
  const files = entries
    .filter((e) => e.isFile() && !e.name.startsWith('_') && e.name.endsWith('.md'))
    .map((e) => e.name)
    .sort();
  for (const name of files) {
    const path = join(dir, name);
    try {
      const { size } = await stat(path);
      if (size > MAX_AGENT_FILE_BYTES) {
        throw new AgentLoadError(path, `The file is larger than ${MAX_AGENT_FILE_BYTES} bytes.`);
      }
      const definition = parseAgentMarkdown(path, await readFile(path, 'utf8'), options);
      result.agents.push(
        new Subagent(options.hydrate ? hydrateDefinition(definition, options.hydrate) : definition),
      );
    } catch (error) {
      result.errors.push(
        error instanceof AgentLoadError
          ? error
          : new AgentLoadError(path, `Unexpected error: ${(error as Error).message}`),
      );
    }
  }
  return result;
}

/** Options of {@link loadAgentsFromDirectory}. */
export interface AgentDirectoryOptions extends AgentFileOptions {
  /**
   * Applied to each parsed definition's description, display name, instructions, model and `mcp_servers`
   * (gemini-cli hydrates an extension's agents with its variables after they are validated): every string in the
   * value given, objects and arrays walked.
   */
  hydrate?: Hydrator;
}

/** An extension's `agents/` folder, read after the user's agents. */
export interface ExtensionAgentDir {
  /** The extension's name. */
  readonly extension: string;
  readonly dir: string;
  /** The extension's variable substitution (`${extensionPath}`, settings values, …). */
  readonly hydrate?: Hydrator;
}

/** Substitutes variables in every string of a value (a string, or the strings inside objects and arrays). */
export type Hydrator = <T>(value: T) => T;

/**
 * gemini-cli's `recursivelyHydrateStrings(agent, context)` on a parsed agent. The name and tool names are slugs
 * that cannot hold `${…}`, so they are unchanged; the instructions are hydrated before `${query}` templating runs.
 */
function hydrateDefinition(definition: ResolvedSubagent, hydrate: Hydrator): ResolvedSubagent {
  return {
    ...definition,
    description: hydrate(definition.description),
    displayName: definition.displayName === undefined ? undefined : hydrate(definition.displayName),
    instructions:
      typeof definition.instructions === 'string'
        ? hydrate(definition.instructions)
        : definition.instructions,
    model: hydrate(definition.model),
    mcpServers: definition.mcpServers === undefined ? undefined : hydrate(definition.mcpServers),
  };
}

/** Which folders {@link discoverAgentFiles} reads. */
export interface AgentDiscoveryOptions extends AgentFileOptions {
  /** The workspace: `<cwd>/.gemini/agents`. */
  cwd: string;
  /** Holds `.gemini/` (GEMINI_CLI_HOME or the home directory): `<home>/.gemini/agents`. */
  home: string;
  /** Whether the workspace is trusted: its agents load only then. */
  trusted: boolean;
  /** Turns a tier off (`{ workspace: false }`); default both on. */
  tiers?: { user?: boolean; workspace?: boolean };
  /** The `agents/` folders of the active extensions, read last (gemini-cli's order). */
  extensionDirs?: readonly ExtensionAgentDir[];
}

/**
 * Reads the agent folders in gemini-cli's order: the (trusted) workspace's `.gemini/agents`, the user's
 * `~/.gemini/agents`, then the active extensions' `agents/`. Later duplicates lose when registered (first wins).
 */
export async function discoverAgentFiles(options: AgentDiscoveryOptions): Promise<AgentLoadResult> {
  const dirs: Array<{ dir: string; hydrate?: Hydrator }> = [];
  const add = (dir: string, hydrate?: Hydrator) => {
    if (!dirs.some((d) => d.dir === dir)) dirs.push(hydrate ? { dir, hydrate } : { dir });
  };
  if (options.trusted && options.tiers?.workspace !== false)
    add(join(options.cwd, '.gemini', 'agents'));
  if (options.tiers?.user !== false) add(join(options.home, '.gemini', 'agents'));
  for (const { dir, hydrate } of options.extensionDirs ?? []) add(dir, hydrate);
  const all: AgentLoadResult = { agents: [], errors: [] };
  for (const { dir, hydrate } of dirs) {
    const { knownToolNames } = options;
    const found = await loadAgentsFromDirectory(dir, {
      ...(knownToolNames ? { knownToolNames } : {}),
      ...(hydrate ? { hydrate } : {}),
    });
    all.agents.push(...found.agents);
    all.errors.push(...found.errors);
  }
  return all;
}
