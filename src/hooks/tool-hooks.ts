import type { AgentTool, ToolResult } from '../core/agent-tool.js';
import type {
  ToolCheck,
  ToolDecision,
  ToolDecisionInterceptor,
  ToolInterceptor,
  ToolRun,
} from '../core/interceptors.js';
import type { SessionHandle } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import {
  effectiveReason,
  isBlocking,
  sanitizedAdditionalContext,
  stopsExecution,
} from './hook-output.js';
import { scopeOf, type HookSessionState } from './hook-session.js';
import type { HookPlan } from './hook-planner.js';
import type { HookSystem } from './hook-system.js';
import type { AnyHookOutput, HookInputFields, McpToolContext, ToolInput } from './hook-types.js';

/** gemini-cli's `mcp_context` for an MCP tool (its server's non-secret facts); nothing for other tools. */
function mcpContextOf(tool: AgentTool): { mcp_context?: McpToolContext } {
  const facts = tool.mcpContext;
  if (facts === undefined || tool.serverName === undefined) return {};
  const { toolName, args, ...where } = facts;
  return {
    mcp_context: {
      server_name: tool.serverName,
      tool_name: toolName,
      ...where,
      ...(args === undefined ? {} : { args: [...args] }),
    },
  };
}

/** gemini-cli's note on a result whose arguments a BeforeTool hook rewrote. */
export const REWRITTEN_ARGS_NOTE =
  '\n\n[System] Tool input parameters were modified by a hook before execution.';

type StateOf = (session: SessionHandle) => HookSessionState | undefined;

/** Appends text to what the model gets from a tool (a string grows; parts get one more text part). */
export function appendToResult(result: ToolResult, text: string): ToolResult {
  const { llmContent } = result;
  return {
    ...result,
    llmContent: typeof llmContent === 'string' ? llmContent + text : [...llmContent, { text }],
  };
}

/** The `agent_execution_stopped` event for a hook's `continue: false`. */
export function stoppedEvent(
  output: AnyHookOutput,
  contextCleared?: boolean,
): ServerGeminiStreamEvent {
  return {
    type: 'agent_execution_stopped',
    value: {
      reason: effectiveReason(output),
      ...(output.systemMessage ? { systemMessage: output.systemMessage } : {}),
      ...(contextCleared === undefined ? {} : { contextCleared }),
    },
  };
}

/** The `agent_execution_blocked` event for a hook's `decision: 'deny'`/`'block'`. */
export function blockedEvent(
  output: AnyHookOutput,
  reason = effectiveReason(output),
  contextCleared?: boolean,
): ServerGeminiStreamEvent {
  return {
    type: 'agent_execution_blocked',
    value: {
      reason,
      ...(output.systemMessage ? { systemMessage: output.systemMessage } : {}),
      ...(contextCleared === undefined ? {} : { contextCleared }),
    },
  };
}

/**
 * BeforeTool, where gemini-cli's scheduler fires it — after validation, before the policy: `continue: false`
 * answers `Agent execution stopped by hook: <reason>` (`stop_execution`) and ends the turn once the results are
 * stored; `deny`/`block` answers `Tool execution blocked: <reason>` (`policy_violation`); `tool_input` replaces the
 * arguments, validated again (`Tool parameter modification by hook failed validation: …`); `ask` has a human
 * approve the call even where the policy would allow it. The policy still decides after the hook.
 */
export function beforeToolInterceptor(
  system: HookSystem,
  stateOf: StateOf,
): ToolDecisionInterceptor {
  // Not async: a hook that answers synchronously (most in-process hooks) costs no promise of its own here.
  return (check, next) => {
    try {
      const { request, tool } = check;
      // A call no BeforeTool hook matches goes straight to the next link: no input, scope or state lookup.
      const plan = system.toolPlan('BeforeTool', tool.name);
      if (plan === undefined) return next(check);
      const state = stateOf(check.ctx.session);
      const output = system.run(
        plan,
        beforeToolFields(tool, check.args, request.originalRequestName),
        scopeOf(state, check.ctx, check.emit),
      );
      return output instanceof Promise
        ? output.then((answer) => applyBeforeTool(answer, check, next, state))
        : applyBeforeTool(output, check, next, state);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

/** BeforeTool's own input fields (the arguments copied, so a hook that changes them changes nothing). */
function beforeToolFields(
  tool: AgentTool,
  args: Record<string, unknown>,
  originalRequestName: string | undefined,
): HookInputFields['BeforeTool'] {
  const fields: HookInputFields['BeforeTool'] = {
    tool_name: tool.name,
    tool_input: { ...args } as ToolInput,
  };
  if (tool.mcpContext !== undefined) Object.assign(fields, mcpContextOf(tool));
  if (originalRequestName) fields.original_request_name = originalRequestName;
  return fields;
}

type ToolDecisionNext = Parameters<ToolDecisionInterceptor>[1];

function applyBeforeTool(
  output: AnyHookOutput | undefined,
  check: ToolCheck,
  next: ToolDecisionNext,
  state: HookSessionState | undefined,
): Promise<ToolDecision> {
  if (output === undefined) return next(check);
  if (stopsExecution(output)) {
    if (state) state.toolStopped = true;
    check.emit(stoppedEvent(output));
    check.stop();
    return Promise.resolve({
      outcome: 'deny',
      message: `Agent execution stopped by hook: ${effectiveReason(output)}`,
      type: 'stop_execution',
    });
  }
  if (isBlocking(output)) {
    return Promise.resolve({
      outcome: 'deny',
      message: `Tool execution blocked: ${effectiveReason(output)}`,
      type: 'policy_violation',
    });
  }
  const rewritten = output.hookSpecificOutput?.['tool_input'] as
    Record<string, unknown> | undefined;
  const ask = output.decision === 'ask';
  if (rewritten === undefined) return ask ? next(withAsk(check, check.args, output)) : next(check);
  return withRewrittenArgs(rewritten, ask, output, check, next, state);
}

/** A hook's `tool_input`, validated again: the call runs with it, or is denied with the validation error. */
async function withRewrittenArgs(
  rewritten: Record<string, unknown>,
  ask: boolean,
  output: AnyHookOutput,
  check: ToolCheck,
  next: ToolDecisionNext,
  state: HookSessionState | undefined,
): Promise<ToolDecision> {
  const validation = await check.tool.validate(rewritten);
  if (!validation.ok) {
    return {
      outcome: 'deny',
      message: `Tool parameter modification by hook failed validation: ${validation.error}`,
      type: 'invalid_tool_params',
    };
  }
  state?.rewrittenCalls.add(check.request.callId);
  return next(ask ? withAsk(check, validation.args, output) : { ...check, args: validation.args });
}

/** The check with a hook's `ask`: a human approves the call (the hook's `systemMessage` as the reason). */
function withAsk(
  check: ToolCheck,
  args: Record<string, unknown>,
  output: AnyHookOutput,
): ToolCheck {
  return {
    ...check,
    args,
    requireApproval: output.systemMessage ? { reason: output.systemMessage } : {},
  };
}

/**
 * AfterTool, where gemini-cli's executor fires it — after the tool ran: `continue: false` replaces the result with
 * `Agent execution stopped by hook` and ends the turn once the results are stored; `deny`/`block` replaces it with
 * `Tool result blocked: <reason>`; `additionalContext` is appended as `<hook_context>…</hook_context>` (escaped);
 * `tailToolCallRequest` hands the call over to another tool. Then gemini-cli's note is appended when a BeforeTool
 * hook had rewritten the arguments.
 */
export function afterToolInterceptor(system: HookSystem, stateOf: StateOf): ToolInterceptor {
  const after = system.has('AfterTool');
  const before = system.has('BeforeTool');
  // Not async: a call no AfterTool hook matches and whose arguments no BeforeTool hook rewrote goes straight
  // through (only a BeforeTool hook rewrites arguments, so without one no session state is looked up).
  return (run, next) => {
    const plan = after ? system.toolPlan('AfterTool', run.tool.name) : undefined;
    if (plan !== undefined) return afterTool(system, plan, stateOf(run.ctx.session), run, next);
    if (before) {
      const state = stateOf(run.ctx.session);
      if (state?.rewrittenCalls.has(run.request.callId))
        return afterTool(system, undefined, state, run, next);
    }
    try {
      return next(run);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

async function afterTool(
  system: HookSystem,
  plan: (HookPlan & { readonly event: 'AfterTool' }) | undefined,
  state: HookSessionState | undefined,
  run: ToolRun,
  next: Parameters<ToolInterceptor>[1],
): Promise<ToolResult> {
  let result = await next(run);
  if (plan !== undefined) {
    const output = await system.run(
      plan,
      {
        tool_name: run.tool.name,
        tool_input: { ...run.args } as ToolInput,
        ...mcpContextOf(run.tool),
        tool_response: {
          llmContent: result.llmContent,
          returnDisplay: result.returnDisplay ?? result.llmContent,
          error: result.error,
        },
        ...(run.request.originalRequestName
          ? { original_request_name: run.request.originalRequestName }
          : {}),
      },
      scopeOf(state, run.ctx, run.emit),
    );
    if (output !== undefined) result = applyAfterTool(result, output, run, state);
  }
  if (state?.rewrittenCalls.delete(run.request.callId) && result.tailCall === undefined)
    result = appendToResult(result, REWRITTEN_ARGS_NOTE);
  return result;
}

function applyAfterTool(
  result: ToolResult,
  output: AnyHookOutput,
  run: Parameters<ToolInterceptor>[0],
  state: HookSessionState | undefined,
): ToolResult {
  const reason = effectiveReason(output);
  if (stopsExecution(output)) {
    if (state) state.toolStopped = true;
    run.emit(stoppedEvent(output));
    run.stop();
    const text = `Agent execution stopped by hook: ${reason}`;
    return {
      llmContent: text,
      returnDisplay: text,
      error: { message: reason, type: 'stop_execution' },
    };
  }
  if (isBlocking(output)) {
    const text = `Tool result blocked: ${reason}`;
    return {
      llmContent: text,
      returnDisplay: text,
      error: { message: reason, type: 'execution_failed' },
    };
  }
  let next = result;
  const context = sanitizedAdditionalContext(output);
  if (context) next = appendToResult(next, `\n\n<hook_context>${context}</hook_context>`);
  const tail = output.hookSpecificOutput?.['tailToolCallRequest'] as
    { name: string; args: Record<string, unknown> } | undefined;
  if (tail !== undefined) next = { ...next, tailCall: { name: tail.name, args: tail.args } };
  return next;
}
