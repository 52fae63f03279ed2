import { z } from 'zod';
import { parseYaml } from '../core/yaml.js';
import { ConfigurationError } from '../errors.js';
import { resolveSubagentOptions, SUBAGENT_NAME } from './subagent.js';
import { DEFAULT_SUBAGENT_MAX_TURNS, type ResolvedSubagent } from './subagent-types.js';

/** gemini-cli's frontmatter pattern (the skill loader's): `---`, the YAML block, `---`, then the body. */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;

/** An agent file that could not be loaded: gemini-cli's `Failed to load agent from <path>: <why>`. */
export class AgentLoadError extends ConfigurationError {
  /** The file (or folder) that failed. */
  readonly filePath: string;

  constructor(filePath: string, message: string) {
    super(`Failed to load agent from ${filePath}: ${message}`, { code: 'AGENT_LOAD_FAILED' });
    this.name = 'AgentLoadError';
    this.filePath = filePath;
  }
}

/** The built-in tool names gemini-cli's `isValidToolName` accepts (0.61's full list, agents' own included). */
const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set([
  'glob',
  'write_todos',
  'write_file',
  'google_web_search',
  'web_fetch',
  'replace',
  'run_shell_command',
  'grep_search',
  'read_many_files',
  'read_file',
  'list_directory',
  'activate_skill',
  'ask_user',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
  'get_internal_docs',
  'enter_plan_mode',
  'exit_plan_mode',
  'update_topic',
  'complete_task',
  'invoke_agent',
  'read_mcp_resource',
  'list_mcp_resources',
  // legacy alias
  'search_file_content',
]);

const MCP_SLUG = /^[a-z0-9_.:-]+$/i;

/**
 * gemini-cli's `isValidToolName(name, { allowWildcards: true })`: a built-in name or legacy alias,
 * `discovered_tool_*`, `*`, `mcp_*`, `mcp_<server>_*` or `mcp_<server>_<tool>` — plus, for the SDK, the names of
 * the agent's own tools (`known`).
 */
export function isValidAgentToolName(
  name: string,
  known: ReadonlySet<string> = new Set(),
): boolean {
  if (BUILTIN_TOOL_NAMES.has(name) || known.has(name)) return true;
  if (name.startsWith('discovered_tool_') || name === '*') return true;
  if (!name.startsWith('mcp_')) return false;
  if (name === 'mcp_*') return true;
  const match = /^([^_]+)_(.+)$/.exec(name.slice('mcp_'.length));
  if (match === null) return false;
  const [, server = '', tool = ''] = match;
  if (!MCP_SLUG.test(server)) return false;
  if (tool === '*') return true;
  return !/^_*$/.test(tool) && MCP_SLUG.test(tool);
}

const McpServerFrontmatter = z.strictObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  http_url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  tcp: z.string().optional(),
  type: z.enum(['sse', 'http']).optional(),
  timeout: z.number().optional(),
  trust: z.boolean().optional(),
  description: z.string().optional(),
  include_tools: z.array(z.string()).optional(),
  exclude_tools: z.array(z.string()).optional(),
  auth: z.record(z.string(), z.unknown()).optional(),
});

function localFrontmatter(known: ReadonlySet<string>) {
  return z.strictObject({
    kind: z.literal('local').optional(),
    name: z.string().regex(SUBAGENT_NAME, 'Name must be a valid slug'),
    description: z.string().min(1),
    display_name: z.string().optional(),
    tools: z
      .array(
        z.string().refine((t) => isValidAgentToolName(t, known), { message: 'Invalid tool name' }),
      )
      .optional(),
    mcp_servers: z.record(z.string(), McpServerFrontmatter).optional(),
    model: z.string().optional(),
    temperature: z.number().optional(),
    max_turns: z.number().int().positive().optional(),
    timeout_mins: z.number().int().positive().optional(),
  });
}

function isRemote(raw: unknown): boolean {
  if (Array.isArray(raw)) return true;
  if (typeof raw !== 'object' || raw === null) return false;
  const r = raw as Record<string, unknown>;
  return r['kind'] === 'remote' || 'agent_card_url' in r || 'agent_card_json' in r;
}

/** Options of {@link parseAgentMarkdown} and {@link loadAgentsFromDirectory}. */
export interface AgentFileOptions {
  /** Tool names valid in `tools` besides gemini-cli's (the agent's own tools). */
  knownToolNames?: ReadonlySet<string>;
}

/**
 * Parses one agent file as gemini-cli's `parseAgentMarkdown` + `markdownToAgentDefinition` do: strict
 * frontmatter (an unknown key is an error), the body (trimmed) as the system prompt with `${query}` templating,
 * `model` default `inherit`, `temperature` default 1 with topP 0.95, `max_turns` default 30, `timeout_mins`
 * default 10. Remote (A2A) agents — `kind: remote`, an agent card, or a YAML list — are not supported: an error.
 *
 * @throws AgentLoadError naming the file and what is wrong.
 */
export function parseAgentMarkdown(
  filePath: string,
  content: string,
  options: AgentFileOptions = {},
): ResolvedSubagent {
  const match = FRONTMATTER.exec(content);
  if (match === null) {
    throw new AgentLoadError(
      filePath,
      'Invalid agent definition: Missing mandatory YAML frontmatter. Agent Markdown files MUST start with YAML ' +
        'frontmatter enclosed in triple-dashes "---" (e.g., ---\nname: my-agent\n---).',
    );
  }
  let raw: unknown;
  try {
    raw = parseYaml(match[1] ?? '');
  } catch (error) {
    throw new AgentLoadError(
      filePath,
      `YAML frontmatter parsing failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (isRemote(raw)) {
    throw new AgentLoadError(
      filePath,
      'Remote agents (kind: remote, agent_card_url, agent_card_json, or a YAML list of them) are not supported ' +
        'by gemini-agent-sdk: only local agents load.',
    );
  }
  const parsed = localFrontmatter(options.knownToolNames ?? new Set()).safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`,
    );
    throw new AgentLoadError(
      filePath,
      `Validation failed: Agent Definition:\n${[...new Set(lines)].join('\n')}`,
    );
  }
  const fm = parsed.data;
  const base = resolveSubagentOptions(
    {
      name: fm.name,
      description: fm.description,
      ...(fm.display_name === undefined ? {} : { displayName: fm.display_name }),
      instructions: (match[2] ?? '').trim(),
      ...(fm.tools === undefined ? {} : { tools: fm.tools }),
      model: fm.model ?? 'inherit',
      generationConfig: { temperature: fm.temperature ?? 1, topP: 0.95 },
      maxTurns: fm.max_turns ?? DEFAULT_SUBAGENT_MAX_TURNS,
      timeoutMs: (fm.timeout_mins ?? 10) * 60_000,
    },
    filePath,
  );
  return {
    ...base,
    templated: true,
    mcpServers:
      fm.mcp_servers === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(fm.mcp_servers).map(([name, server]) => [name, serverConfig(server)]),
          ),
  };
}

/**
 * A frontmatter server in the `mcpServers` shape, as gemini-cli's `markdownToAgentDefinition` builds its
 * `MCPServerConfig`: `http_url` → `httpUrl`, `include_tools` / `exclude_tools` → `includeTools` / `excludeTools`.
 */
function serverConfig(server: z.infer<typeof McpServerFrontmatter>): Record<string, unknown> {
  const { http_url, include_tools, exclude_tools, ...rest } = server;
  return {
    ...rest,
    ...(http_url === undefined ? {} : { httpUrl: http_url }),
    ...(include_tools === undefined ? {} : { includeTools: include_tools }),
    ...(exclude_tools === undefined ? {} : { excludeTools: exclude_tools }),
  };
}
