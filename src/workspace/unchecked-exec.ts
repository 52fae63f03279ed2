import type { SandboxShell, AgentShellOptions, AgentShellResult } from '../core/workspace-types.js';
import { WorkspaceShell } from './workspace-shell.js';

/**
 * Runs a command through `shell` without asking its command check again — for `run_shell_command`, whose
 * call the scheduler's policy already approved. The workspace boundary on `cwd` still holds. Shells that are
 * not the SDK's own fall back to their checked `exec`.
 */
export function execWithoutCommandCheck(
  shell: SandboxShell,
  command: string,
  options: AgentShellOptions = {},
): Promise<AgentShellResult> {
  return shell instanceof WorkspaceShell
    ? shell.execUnchecked(command, options)
    : shell.exec(command, options);
}
