import path from 'node:path';
import type { ToolCallLocation, ToolKind as AcpToolKind } from '@agentclientprotocol/sdk';
import { ACTIVATE_SKILL_TOOL_NAME } from '../skills/activate-skill-tool.js';
import { createBuiltinTools } from '../tools/builtin/create-builtin-tools.js';
import { isAgentTool, sdkToolToAgentTool } from '../tools/sdk-tool.js';
import type { AnyTool } from '../core/tool-definition.js';
import type { AgentTool } from '../core/agent-tool.js';

/** How a tool call is shown to the editor: its kind, a one-line title and the files it touches. */
export interface ToolCallDisplay {
  kind: AcpToolKind;
  title: string;
  locations: ToolCallLocation[];
}

/** Argument keys of gemini-cli's tools that name one file or folder (the call's `locations`). */
const PATH_KEYS = ['file_path', 'dir_path', 'path'] as const;

/** Our kinds are ACP's (gemini-cli maps `agent` to `think`, `plan`/`communicate` to `other`). */
function acpKind(kind: string | undefined): AcpToolKind {
  switch (kind) {
    case 'read':
    case 'edit':
    case 'delete':
    case 'move':
    case 'search':
    case 'execute':
    case 'think':
    case 'fetch':
    case 'switch_mode':
    case 'other':
      return kind;
    case 'agent':
      return 'think';
    default:
      return 'other';
  }
}

/**
 * What the editor shows for the agent's tools: gemini-cli's built-in tools, the agent's `tools` and
 * `activate_skill`, by name (a tool it does not know, e.g. an MCP tool, shows as kind `other` under its name).
 * Titles are the tools' own one-line descriptions, as gemini-cli's `getDescription()`.
 */
export class ToolCatalog {
  private readonly tools = new Map<string, AgentTool>();

  constructor(customTools: readonly AnyTool[] = []) {
    for (const tool of createBuiltinTools('all')) this.tools.set(tool.name, tool);
    for (const tool of customTools) {
      try {
        const adapted = isAgentTool(tool) ? tool : sdkToolToAgentTool(tool);
        this.tools.set(adapted.name, adapted);
      } catch {
        // A malformed custom tool fails the session itself with a clear error; here it just has no display.
      }
    }
  }

  /** The display of one call. */
  display(name: string, args: Record<string, unknown>, cwd: string): ToolCallDisplay {
    const tool = this.tools.get(name);
    let title = name;
    if (tool !== undefined) {
      try {
        title = tool.describe(args) || tool.displayName;
      } catch {
        title = tool.displayName;
      }
    } else if (name === ACTIVATE_SKILL_TOOL_NAME && typeof args['name'] === 'string') {
      title = `Activate skill "${args['name']}"`;
    }
    return {
      kind: name === ACTIVATE_SKILL_TOOL_NAME ? 'other' : acpKind(tool?.kind),
      title,
      locations: locationsOf(args, cwd),
    };
  }
}

/** The files or folders a call names (`file_path`, `dir_path`, `path`), made absolute against `cwd`. */
export function locationsOf(args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const locations: ToolCallLocation[] = [];
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const raw = value.startsWith('@') ? value.slice(1) : value;
    const line = typeof args['start_line'] === 'number' ? args['start_line'] : undefined;
    locations.push({ path: path.resolve(cwd, raw), ...(line === undefined ? {} : { line }) });
  }
  return locations;
}
