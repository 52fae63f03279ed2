import type { ToolCallInfo, ToolResult, ToolValidation } from '../core/agent-tool.js';
import { ToolCallHeld, type ResumableTool } from '../core/held-call.js';
import type { SessionContext } from '../core/session-context.js';
import { abortErrorFrom } from '../core/abort.js';
import type { SessionHandle } from '../core/session-context.js';
import { INVOKE_AGENT_TOOL_NAME } from '../core/session-runtime.js';
import { InternalError } from '../errors.js';
import type { SubagentHost } from './subagent.js';
import type { ResolvedSubagent, SubagentRunResult } from './subagent-types.js';
import { resumeSubagent, runSubagent } from './subagent-runner.js';
import { heldRunState, type SubagentRunInput } from './subagent-run.js';

/** What `invoke_agent` looks subagents and sessions up in. */
export interface InvokeAgentDirectory {
  /** The enabled subagent of that name, as the agent runs it (its settings override applied). */
  find(name: string): { definition: ResolvedSubagent } | undefined;
  /** Where a session's subagents run. */
  hostOf(session: SessionHandle): SubagentHost | undefined;
}

/** gemini-cli's answer to `invoke_agent` with an unknown `agent_name`. */
export function subagentNotFoundMessage(name: string): string {
  return `Subagent '${name}' not found.`;
}

const PARAMETERS = {
  type: 'object',
  properties: {
    agent_name: { type: 'string', description: 'Name of the subagent to invoke' },
    prompt: {
      type: 'string',
      description:
        'The COMPLETE query to send the subagent. MUST be comprehensive and detailed. Include all context, ' +
        'background, questions, and expected output format. Do NOT send brief or incomplete instructions.',
    },
  },
  required: ['agent_name', 'prompt'],
};

/**
 * gemini-cli's `invoke_agent` tool: `{ agent_name, prompt }` runs that subagent on the prompt (its one input) and
 * answers `Subagent '<name>' finished.\nTermination Reason: <MODE>\nResult:\n<result>`; a run that fails answers
 * `Subagent '<name>' failed. Error: <message>`; an abort of the parent cancels the call. The subagent's events
 * reach the parent's stream as `subagent_activity`.
 */
export function createInvokeAgentTool(directory: InvokeAgentDirectory): ResumableTool {
  return {
    name: INVOKE_AGENT_TOOL_NAME,
    displayName: 'Invoke Subagent',
    description: 'Invoke a subagent to perform a specific task or investigation.',
    kind: 'other',
    parametersJsonSchema: PARAMETERS,
    validate(args): ToolValidation {
      const { agent_name: name, prompt } = args;
      if (typeof name !== 'string' || name === '')
        return { ok: false, error: "params must have required property 'agent_name'" };
      if (typeof prompt !== 'string')
        return { ok: false, error: "params must have required property 'prompt'" };
      if (directory.find(name) === undefined)
        return { ok: false, error: subagentNotFoundMessage(name) };
      return { ok: true, args: { agent_name: name, prompt } };
    },
    describe: (args) => `Delegating to agent '${String(args['agent_name'])}'`,
    execute: (args, ctx, call) => invoke(directory, args, ctx, call, (input) => runSubagent(input)),
    resumeHeld: (hold, args, ctx, call) =>
      invoke(directory, args, ctx, call, (input) => {
        const held = heldRunState(hold.state);
        if (held === undefined)
          throw new InternalError('invoke_agent: the held run was stored without its state.');
        return resumeSubagent({ ...input, held, decisions: hold.decisions });
      }),
  };
}

/**
 * One `invoke_agent` call: runs (or continues) the named subagent and answers with gemini-cli's text. A run held
 * for approvals holds the call ({@link ToolCallHeld} passes through).
 */
async function invoke(
  directory: InvokeAgentDirectory,
  args: Record<string, unknown>,
  ctx: SessionContext,
  call: ToolCallInfo,
  run: (input: SubagentRunInput) => Promise<SubagentRunResult>,
): Promise<ToolResult> {
  const name = String(args['agent_name']);
  const found = directory.find(name);
  if (found === undefined) {
    return {
      llmContent: subagentNotFoundMessage(name),
      error: { message: subagentNotFoundMessage(name) },
    };
  }
  const host = directory.hostOf(ctx.session);
  if (host === undefined) {
    throw new InternalError(
      `invoke_agent: session ${ctx.sessionId} was not initialized by this agent.`,
    );
  }
  try {
    const output = await run({
      definition: found.definition,
      runtime: host.runtime,
      prompt: String(args['prompt']),
      parentCallId: call.callId,
      signal: call.signal,
      emit: (value) => call.emit?.({ type: 'subagent_activity', value }),
      logger: host.logger,
      canHold: true,
    });
    if (output.terminateReason === 'ABORTED') throw abortErrorFrom(call.signal);
    const text =
      `Subagent '${name}' finished.\nTermination Reason: ${output.terminateReason}\nResult:\n` +
      output.result;
    return { llmContent: [{ text }], returnDisplay: text };
  } catch (error) {
    if (call.signal.aborted || error instanceof ToolCallHeld) throw error;
    const message = error instanceof Error ? error.message : String(error);
    host.logger.warn(`subagent '${name}' failed`, { error: message });
    return { llmContent: `Subagent '${name}' failed. Error: ${message}` };
  }
}
