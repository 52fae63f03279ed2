import { z } from 'zod';
import { GeminiAgentError } from '../../errors.js';
import type { AgentShellResult } from '../../core/workspace-types.js';
import { execWithoutCommandCheck } from '../../workspace/unchecked-exec.js';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { defineBuiltinTool } from './builtin-tool.js';
import { hasCommandSubstitution, stripAnsi, wrapUntrusted } from './shell-syntax.js';
import { resolveToolPath } from './tool-paths.js';

/** Options for `run_shell_command`. */
export interface ShellToolOptions {
  /** Cancel a command that prints nothing for this long (default 300 s, gemini-cli's 5 minutes; 0 = never). */
  inactivityTimeoutSeconds?: number;
  /** Allow `$(…)`, backticks, `<(…)` and `>(…)` (default false: refused, as gemini-cli does). */
  allowCommandSubstitution?: boolean;
}

const ShellArgs = z.object({
  command: z.string(),
  description: z.string().optional(),
  dir_path: z.string().optional(),
  is_background: z.boolean().optional(),
  delay_ms: z.number().int().min(0).optional(),
});
type ShellArgs = z.infer<typeof ShellArgs>;

const DESCRIPTION = `This tool executes a given shell command as \`bash -c <command>\`. To run a command in the background, set the \`is_background\` parameter to true. Do NOT use \`&\` to background commands. Command is executed as a subprocess that leads its own process group. Command process group can be terminated as \`kill -- -PGID\` or signaled as \`kill -s SIGNAL -- -PGID\`.

      The following information is returned:

      Output: Combined stdout/stderr. Can be \`(empty)\` or partial on error and for any unwaited background processes.
      Exit Code: Only included if non-zero (command failed).
      Error: Only included if a process-level error occurred (e.g., spawn failure).
      Signal: Only included if process was terminated by a signal.
      Background PIDs: Only included if background processes were started.
      Process Group PGID: Only included if available.`;

/** Default delay before a background command's initial output is reported. */
const BACKGROUND_DELAY_MS = 200;

function codeOf(error: Error | undefined): string | undefined {
  return error instanceof GeminiAgentError ? error.code : undefined;
}

/** Formats a finished command as gemini-cli does, wrapped in `<untrusted_context>`. */
export function formatShellResult(result: AgentShellResult, inactivitySeconds: number): ToolResult {
  const output = stripAnsi(result.output).trim();
  const code = codeOf(result.error);
  if (code === 'ABORTED' || code === 'SHELL_INACTIVITY_TIMEOUT' || code === 'SHELL_TIMEOUT') {
    const head =
      code === 'ABORTED'
        ? 'Command was cancelled by user before it could complete.'
        : `Command was automatically cancelled because it exceeded the timeout of ${(inactivitySeconds / 60).toFixed(1)} minutes without output.`;
    const tail = output
      ? ` Below is the output before it was cancelled:\n${output}`
      : ' There was no output before it was cancelled.';
    return {
      llmContent: wrapUntrusted(head + tail),
      returnDisplay: output ? `${head}\n\nOutput before cancellation:\n${output}` : head,
    };
  }
  const lines = [`Output: ${output || '(empty)'}`];
  if (result.error) lines.push(`Error: ${result.error.message}`);
  if (result.exitCode !== null && result.exitCode !== 0)
    lines.push(`Exit Code: ${result.exitCode}`);
  if (result.signal) lines.push(`Signal: ${result.signal}`);
  if (result.pid) lines.push(`Process Group PGID: ${result.pid}`);
  const llmContent = wrapUntrusted(lines.join('\n'));
  let returnDisplay = output;
  if (!output) {
    if (result.signal) returnDisplay = `Command terminated by signal: ${result.signal}`;
    else if (result.error) returnDisplay = `Command failed: ${result.error.message}`;
    else if (result.exitCode !== null && result.exitCode !== 0) {
      returnDisplay = `Command exited with code: ${result.exitCode}`;
    } else returnDisplay = 'Command executed successfully.';
  }
  if (result.error) {
    return {
      llmContent,
      returnDisplay,
      error: { message: result.error.message, type: 'shell_execute_error' },
    };
  }
  return { llmContent, returnDisplay };
}

/** Script that starts `command` in the background with its output in a temp log, then reports. */
function backgroundScript(command: string, delayMs: number): string {
  const seconds = (delayMs / 1000).toFixed(3);
  return [
    '__gemini_log=$(mktemp "${TMPDIR:-/tmp}/gemini-bg-XXXXXX")',
    `{\n${command}\n} >"$__gemini_log" 2>&1 </dev/null &`,
    '__gemini_pid=$!',
    `sleep ${seconds}`,
    'cat "$__gemini_log"',
    'printf \'\\n__GEMINI_BG__ %s %s\\n\' "$__gemini_pid" "$__gemini_log"',
  ].join('\n');
}

function describe(args: ShellArgs): string {
  let text = args.command;
  text += args.dir_path ? ` [in ${args.dir_path}]` : ' [current working directory]';
  if (args.description) text += ` (${args.description.replace(/\n/g, ' ')})`;
  if (args.is_background) text += ' [background]';
  return text;
}

/** gemini-cli's `run_shell_command` (Shell, kind execute): `bash -c` in the workspace. */
export function createRunShellCommandTool(options: ShellToolOptions = {}): AgentTool {
  const inactivity = options.inactivityTimeoutSeconds ?? 300;
  return defineBuiltinTool({
    name: 'run_shell_command',
    displayName: 'Shell',
    kind: 'execute',
    description: DESCRIPTION,
    parametersJsonSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: 'Exact bash command to execute as `bash -c <command>`',
        },
        description: {
          type: 'string',
          description:
            'Brief description of the command for the user. Be specific and concise. Ideally a single sentence. Can be up to 3 sentences for clarity. No line breaks.',
        },
        dir_path: {
          type: 'string',
          description:
            '(OPTIONAL) The path of the directory to run the command in. If not provided, the project root directory is used. Must be a directory within the workspace and must already exist.',
        },
        is_background: {
          type: 'boolean',
          description:
            'Set to true if this command should be run in the background (e.g. for long-running servers or watchers). The command will be started, allowed to run for a brief moment to check for immediate errors, and then moved to the background.',
        },
      },
      required: ['command'],
    },
    schema: ShellArgs,
    check: (args) => (args.command.trim() === '' ? 'Command cannot be empty.' : null),
    describe,
    async run(args, ctx, call) {
      if (call.signal.aborted) {
        return {
          llmContent: 'Command was cancelled by user before it could start.',
          returnDisplay: 'Command cancelled by user.',
        };
      }
      let cwd = ctx.cwd;
      if (args.dir_path) {
        const resolved = await resolveToolPath(ctx.fs, args.dir_path, 'write');
        if ('result' in resolved) return resolved.result;
        cwd = resolved.path;
      }
      if (!options.allowCommandSubstitution && hasCommandSubstitution(args.command)) {
        const message =
          'Command injection detected: command substitution syntax ($(...), backticks, <(...) or >(...)) was blocked. Rewrite the command without command substitution.';
        return { llmContent: message, returnDisplay: message };
      }
      if (args.is_background) {
        const result = await execWithoutCommandCheck(
          ctx.shell,
          backgroundScript(args.command, args.delay_ms ?? BACKGROUND_DELAY_MS),
          { cwd, signal: call.signal },
        );
        const marker = /\n?__GEMINI_BG__ (\d+) (\S+)\s*$/.exec(result.output);
        if (!marker) return formatShellResult(result, inactivity);
        const initial = stripAnsi(result.output.slice(0, marker.index)).trim();
        const text = `Command is running in background. PID: ${marker[1]}. Its output is written to ${marker[2]}. Initial output: ${initial || '(empty)'}`;
        return {
          llmContent: wrapUntrusted(text),
          returnDisplay: `Command moved to background (PID: ${marker[1]}).`,
        };
      }
      const result = await execWithoutCommandCheck(ctx.shell, args.command, {
        cwd,
        signal: call.signal,
        ...(inactivity > 0 ? { inactivityTimeoutSeconds: inactivity } : {}),
      });
      return formatShellResult(result, inactivity);
    },
  });
}
