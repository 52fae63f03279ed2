import { methods, type AgentConnection } from '@agentclientprotocol/sdk';
import { AbortError } from '../errors.js';
import type { Logger } from '../logger.js';
import {
  createRunShellCommandTool,
  formatShellResult,
} from '../tools/builtin/run-shell-command.js';
import { hasCommandSubstitution } from '../tools/builtin/shell-syntax.js';
import type { AgentTool, ToolResult } from '../core/agent-tool.js';

/** Output kept by the editor's terminal per command (the model sees at most this). */
export const TERMINAL_OUTPUT_LIMIT = 1024 * 1024;

/** What {@link clientShellTool} needs. */
export interface ClientShellOptions {
  connection(): AgentConnection | undefined;
  logger: Logger;
}

/**
 * gemini-cli's `run_shell_command` running in a terminal of the editor (`terminal/create` with `bash -c`): the
 * call shows the live terminal (`tool_call_update` with `terminal` content), an abort kills the command and
 * releases the terminal, and the model gets the same text as from the local tool. Same name, schema, policy and
 * checks as the built-in (command substitution refused, `dir_path` inside the workspace); background commands
 * and a client that is gone run locally.
 */
export function clientShellTool(options: ClientShellOptions): AgentTool {
  const local = createRunShellCommandTool();
  return {
    name: local.name,
    displayName: local.displayName,
    description: local.description,
    kind: local.kind,
    parametersJsonSchema: local.parametersJsonSchema,
    validate: (args) => local.validate(args),
    describe: (args) => local.describe(args),
    async execute(args, ctx, call): Promise<ToolResult> {
      const connection = options.connection();
      const command = typeof args['command'] === 'string' ? args['command'] : '';
      if (connection === undefined || connection.signal.aborted || args['is_background'] === true) {
        return local.execute(args, ctx, call);
      }
      if (hasCommandSubstitution(command)) return local.execute(args, ctx, call);
      let cwd = ctx.cwd;
      if (typeof args['dir_path'] === 'string' && args['dir_path'] !== '') {
        try {
          cwd = await ctx.fs.resolvePath(args['dir_path'], 'write');
        } catch {
          return local.execute(args, ctx, call);
        }
      }
      if (call.signal.aborted) {
        return {
          llmContent: 'Command was cancelled by user before it could start.',
          returnDisplay: 'Command cancelled by user.',
        };
      }
      const terminal = await connection.client.createTerminal({
        sessionId: ctx.sessionId,
        command: 'bash',
        args: ['-c', command],
        cwd,
        outputByteLimit: TERMINAL_OUTPUT_LIMIT,
      });
      try {
        await connection.client.notify(methods.client.session.update, {
          sessionId: ctx.sessionId,
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: call.callId,
            status: 'in_progress',
            content: [{ type: 'terminal', terminalId: terminal.id }],
          },
        });
        const aborted = new Promise<'aborted'>((resolve) => {
          if (call.signal.aborted) resolve('aborted');
          call.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        const exit = await Promise.race([terminal.waitForExit(), aborted]);
        if (exit === 'aborted') await terminal.kill().catch(() => undefined);
        const output = await terminal.currentOutput();
        const status = exit === 'aborted' ? output.exitStatus : exit;
        return formatShellResult(
          {
            exitCode: status?.exitCode ?? null,
            output: output.output,
            stdout: output.output,
            stderr: '',
            signal: status?.signal ?? null,
            ...(exit === 'aborted' ? { error: new AbortError('The command was cancelled.') } : {}),
          },
          0,
        );
      } finally {
        await terminal.release().catch((error: unknown) => {
          options.logger.debug('terminal/release failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      }
    },
  };
}
