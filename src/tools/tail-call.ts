import type { ToolResult } from '../core/agent-tool.js';
import type {
  InterceptorControls,
  ToolCheck,
  ToolDecision,
  ToolRun,
} from '../core/interceptors.js';
import type { SessionContext } from '../core/session-context.js';
import type { ToolCallRequestInfo } from '../events.js';
import { unknownToolMessage } from './closest-names.js';
import type { ToolRegistry } from './tool-registry.js';

/** How many times one call may be handed over (`tailCall`) before the loop stops following. */
export const MAX_TAIL_CALLS = 8;

/** What following a tail call needs: the turn's tools and the decision and execution chains. */
export interface TailCallDeps extends InterceptorControls {
  /** The tools of this turn (the registry the model saw). */
  registry(): ToolRegistry | Promise<ToolRegistry>;
  decide(check: ToolCheck): Promise<ToolDecision>;
  run(run: ToolRun): Promise<ToolResult>;
  ctx: SessionContext;
}

function failure(message: string, type: string): ToolResult {
  return { llmContent: message, returnDisplay: message, error: { message, type } };
}

/**
 * Follows `result.tailCall` hand-overs (gemini-cli's `tailToolCallRequest`): each named tool is validated, decided
 * (decision interceptors, then the policy) and run (tool interceptors) like a call from the model, under the same
 * call id with `originalRequestName` set; the last result is the call's result. An unknown tool, invalid
 * arguments, a denial, an approval that would pause, or more than {@link MAX_TAIL_CALLS} hand-overs end it with an
 * error result.
 */
export async function followTailCalls(
  first: ToolResult,
  request: ToolCallRequestInfo,
  deps: TailCallDeps,
): Promise<ToolResult> {
  let result = first;
  for (let hops = 0; result.tailCall !== undefined; hops++) {
    const { name, args } = result.tailCall;
    if (hops >= MAX_TAIL_CALLS) {
      return failure(
        `The call was handed over more than ${MAX_TAIL_CALLS} times (last to "${name}"); it was stopped.`,
        'execution_failed',
      );
    }
    const tail: ToolCallRequestInfo = {
      ...request,
      name,
      args,
      originalRequestName: request.originalRequestName ?? request.name,
    };
    const registry = await deps.registry();
    const tool = registry.get(name);
    if (tool === undefined) {
      result = failure(unknownToolMessage(name, registry.names), 'tool_not_registered');
      continue;
    }
    const validation = await tool.validate(args);
    if (!validation.ok) {
      result = failure(validation.error, 'invalid_tool_params');
      continue;
    }
    const { ctx, emit, stop } = deps;
    const decision = await deps.decide({
      request: tail,
      tool,
      args: validation.args,
      ctx,
      signal: ctx.signal,
      emit,
      stop,
    });
    if (decision.outcome === 'deny') {
      result = failure(decision.message, decision.type ?? 'policy_violation');
    } else if (decision.outcome === 'pause') {
      result = failure(
        `The call was handed over to "${name}", which needs approval; a hand-over cannot wait for one ` +
          "(approvals: 'pause'), so it was not run.",
        'policy_violation',
      );
    } else {
      result = await deps.run({
        request: tail,
        tool,
        args: decision.args ?? validation.args,
        ctx,
        emit,
        stop,
      });
    }
  }
  return result;
}
