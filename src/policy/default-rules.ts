import type { PolicyRule } from '../core/policy-rule.js';

/** Tools gemini-cli's `read-only.toml` allows in every mode. */
const READ_ONLY_TOOLS = [
  'glob',
  'grep_search',
  'list_directory',
  'read_file',
  'read_many_files',
  'google_web_search',
  'codebase_investigator',
  'cli_help',
  'get_internal_docs',
  'tracker_create_task',
  'tracker_update_task',
  'tracker_get_task',
  'tracker_list_tasks',
  'tracker_add_dependency',
  'tracker_visualize',
  'update_topic',
  'complete_task',
  'read_mcp_resource',
  'list_mcp_resources',
];

/** Kinds that never change anything (our `READ_ONLY_KINDS`). */
const READ_ONLY_KINDS = ['read', 'search', 'think', 'fetch'];

/** Tools gemini-cli's `write.toml` asks about. */
const ASKING_TOOLS = [
  'replace',
  'save_memory',
  'run_shell_command',
  'write_file',
  'activate_skill',
  'web_fetch',
];

const PLAN_MESSAGE =
  'You are in Plan Mode with access to read-only tools. Execution of scripts (including those from skills) is blocked.';

/**
 * The built-in rules (tier `default`, final priority `1 + priority / 1000`), translated from gemini-cli's shipped
 * `read-only.toml`, `write.toml`, `plan.toml`, `yolo.toml` and `non-interactive.toml`, plus kind rules so custom
 * tools behave like built-ins of the same kind. Unmatched calls ask (yolo: allow).
 *
 * | mode | effect |
 * |---|---|
 * | default | read-only tools and kinds run; edits, shell, skills, web_fetch and everything else ask |
 * | auto_edit | as default, but edit tools (kind `edit`, `write_file`, `replace`) and `web_fetch` run |
 * | yolo | everything runs (redirection included) unless a deny rule matches |
 * | plan | read-only tools and kinds run; skills, web_fetch, ask_user and read-only MCP tools ask; the rest is denied |
 */
export const DEFAULT_POLICY_RULES: readonly PolicyRule[] = [
  // read-only.toml
  { toolName: READ_ONLY_TOOLS, decision: 'allow', priority: 50 },
  // write_todos has no rule in gemini-cli: it asks, and runs without a prompt (the tool has nothing to confirm) where
  // a human could be asked; headless, the ask is a deny and the model is not offered it. Plan mode denies it.
  {
    toolName: 'write_todos',
    decision: 'allow',
    priority: 50,
    interactive: true,
    modes: ['default', 'auto_edit'],
  },
  // Kind rules: custom tools follow their kind (below every named rule so gemini-cli's names win).
  { toolName: '*', kinds: READ_ONLY_KINDS, decision: 'allow', priority: 5 },
  // write.toml
  { toolName: ASKING_TOOLS, decision: 'ask_user', priority: 10 },
  {
    toolName: ['replace', 'write_file', 'web_fetch'],
    decision: 'allow',
    priority: 15,
    modes: ['auto_edit'],
  },
  { toolName: '*', kinds: ['edit'], decision: 'allow', priority: 15, modes: ['auto_edit'] },
  // plan.toml: deny all, then read-only kinds and a few asking tools above the deny.
  { toolName: '*', decision: 'deny', priority: 40, modes: ['plan'], denyMessage: PLAN_MESSAGE },
  { toolName: '*', kinds: READ_ONLY_KINDS, decision: 'allow', priority: 45, modes: ['plan'] },
  {
    toolName: ['ask_user', 'save_memory', 'web_fetch', 'activate_skill'],
    decision: 'ask_user',
    priority: 50,
    modes: ['plan'],
  },
  // MCP tools their server marks read-only may run in plan mode once a human agrees.
  {
    toolName: '*',
    mcpName: '*',
    toolAnnotations: { readOnlyHint: true },
    decision: 'ask_user',
    priority: 50,
    modes: ['plan'],
    interactive: true,
  },
  // yolo.toml
  { toolName: 'ask_user', decision: 'ask_user', priority: 999, modes: ['yolo'], interactive: true },
  { toolName: '*', decision: 'allow', priority: 998, modes: ['yolo'], allowRedirection: true },
  // non-interactive.toml
  { toolName: 'ask_user', decision: 'deny', priority: 999, interactive: false },
];
