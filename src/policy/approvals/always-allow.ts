import { SHELL_TOOL_NAME } from '../compiled-rule.js';
import type { ApprovalScope } from './approval-response.js';
import type { PolicyCall } from '../policy-engine.js';
import {
  MODES_BY_PERMISSIVENESS,
  type ApprovalMode,
  type PolicyRule,
} from '../../core/policy-rule.js';
import { rootCommands } from '../shell-check.js';
import type { ShellParser } from '../shell-syntax.js';

/** The current mode and every more permissive one (gemini-cli's `modes` for "always" rules). */
export function modesFrom(mode: ApprovalMode): ApprovalMode[] {
  return MODES_BY_PERMISSIVENESS.slice(MODES_BY_PERMISSIVENESS.indexOf(mode));
}

/**
 * The session rule an `allow_always` answer adds, narrowed as gemini-cli narrows it: for a shell command, its root
 * commands as `commandPrefix` (so `ls -la` then `ls src` asks once; `allowRedirection` when the approved command
 * redirected); for any other tool, the tool by name. Undefined when a shell command cannot be narrowed (it does
 * not parse, or a command name expands at run time): the call is then allowed once only. An MCP tool answered with
 * `scope: 'server'` allows every tool of its server (`mcpName`, gemini-cli's `mcp_<server>_*` rule).
 */
export async function alwaysAllowRule(
  call: PolicyCall,
  options: {
    mode: ApprovalMode;
    parser: () => Promise<ShellParser>;
    /** The MCP server of the tool, when it has one. */
    mcpServer?: string | undefined;
    scope?: ApprovalScope | undefined;
  },
): Promise<PolicyRule | undefined> {
  const modes = modesFrom(options.mode);
  if (options.scope === 'server' && options.mcpServer !== undefined) {
    return { toolName: '*', mcpName: options.mcpServer, decision: 'allow', modes };
  }
  if (call.name !== SHELL_TOOL_NAME) return { toolName: call.name, decision: 'allow', modes };
  const command = call.args.command;
  if (typeof command !== 'string') return undefined;
  const parser = await options.parser();
  const roots = rootCommands(command, parser);
  if (roots.length === 0) return undefined;
  const rule: PolicyRule = {
    toolName: SHELL_TOOL_NAME,
    commandPrefix: roots,
    decision: 'allow',
    modes,
  };
  if (parser.parse(command).hasRedirection) rule.allowRedirection = true;
  return rule;
}
