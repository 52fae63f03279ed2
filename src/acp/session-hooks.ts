import { methods, type AgentConnection, type ClientCapabilities } from '@agentclientprotocol/sdk';
import type { ApprovalHandler, ApprovalResponse } from '../policy/approvals/approval-response.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import type { ResolvedAcpServerOptions } from './acp-server-options.js';
import type { SessionAgentHooks } from './agent-factory.js';
import { clientFilesystem } from './client-filesystem.js';
import { clientShellTool } from './client-terminal-shell.js';
import { permissionChoice, permissionOptions } from './permissions.js';

/** What {@link sessionHooks} needs from the connection. */
export interface SessionHooksInput {
  sessionId(): string;
  client(): AgentConnection | undefined;
  capabilities(): ClientCapabilities;
  options: ResolvedAcpServerOptions;
}

/**
 * What one ACP session adds to its agent: `ctx.shell` commands that need approval are asked in the editor (a
 * `tool_call` for the command, then `session/request_permission`; a vanished client refuses), the filesystem goes
 * through the editor when it serves files, and `run_shell_command` runs in the editor's terminal when the server
 * is configured for it and the client has terminals.
 */
export function sessionHooks(input: SessionHooksInput): Omit<
  SessionAgentHooks,
  'mcpServers' | 'filesystem'
> & {
  filesystem: (base: SandboxFilesystem) => SandboxFilesystem;
} {
  const { options } = input;
  const capabilities = input.capabilities();
  const onApproval: ApprovalHandler = async (request, { signal }): Promise<ApprovalResponse> => {
    const connection = input.client();
    if (connection === undefined || connection.signal.aborted) {
      return { decision: 'deny', message: 'The editor is not connected.' };
    }
    const sessionId = input.sessionId();
    const offered = permissionOptions(request, options.alwaysAllow);
    try {
      await connection.client.notify(methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: request.callId,
          title: request.description,
          kind: 'execute',
          status: 'pending',
          rawInput: request.args,
        },
      });
      const answer = await connection.client.request(
        methods.client.session.requestPermission,
        {
          sessionId,
          toolCall: {
            toolCallId: request.callId,
            status: 'pending',
            title: request.description,
            kind: 'execute',
          },
          options: offered,
        },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      const choice = permissionChoice(answer, offered);
      const decision = choice.kind === 'cancelled' ? 'deny' : choice.decision;
      await connection.client
        .notify(methods.client.session.update, {
          sessionId,
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: request.callId,
            status: decision === 'deny' ? 'failed' : 'completed',
          },
        })
        .catch(() => undefined);
      if (choice.kind === 'cancelled') return { decision: 'deny', message: 'The user cancelled.' };
      return choice.message === undefined
        ? choice.decision
        : { decision: choice.decision, message: choice.message };
    } catch (error) {
      options.logger.debug('Permission request for a ctx.shell command failed; refused', {
        error: error instanceof Error ? error.message : String(error),
      });
      return { decision: 'deny', message: 'The editor did not answer the permission request.' };
    }
  };
  const fs = options.clientFilesystem ? capabilities.fs : undefined;
  const read = fs?.readTextFile === true;
  const write = fs?.writeTextFile === true;
  const useTerminal = options.terminal === 'client' && capabilities.terminal === true;
  return {
    onApproval,
    filesystem: (base) =>
      read || write
        ? clientFilesystem(base, {
            sessionId: input.sessionId,
            connection: input.client,
            read,
            write,
            logger: options.logger,
          })
        : base,
    ...(useTerminal
      ? { replaceTools: [clientShellTool({ connection: input.client, logger: options.logger })] }
      : {}),
  };
}
