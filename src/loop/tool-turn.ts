import type { ServerGeminiStreamEvent, ToolCallResponseInfo } from '../events.js';
import { InternalError, ToolExecutionError } from '../errors.js';
import { errorResponse } from '../tools/tool-response.js';
import { executeOne, type ExecutedCall, type ToolCallOutcome } from '../tools/tool-scheduler.js';
import type { ApprovalOutcome, LoopEnvironment, PausedTurn } from './loop-types.js';

/**
 * Emits `tool_call_response` for each response not yet emitted, then appends all responses as one user turn
 * (so every call of the model turn is answered) and persists it. A fatal tool error is thrown afterwards, as a
 * {@link ToolExecutionError} with the original error as `cause`.
 */
export async function* commitToolResults(
  env: LoopEnvironment,
  responses: readonly ToolCallResponseInfo[],
  fatal: { error: unknown; toolName: string; callId: string } | undefined,
  alreadyEmitted: ReadonlySet<string> = new Set(),
): AsyncGenerator<ServerGeminiStreamEvent, void> {
  for (const response of responses) {
    if (!alreadyEmitted.has(response.callId)) yield { type: 'tool_call_response', value: response };
  }
  await env.commit({
    kind: 'tool_results',
    content: { role: 'user', parts: responses.flatMap((r) => r.responseParts) },
    timestamp: new Date().toISOString(),
    responses: [...responses],
  });
  if (fatal) {
    const message = fatal.error instanceof Error ? fatal.error.message : String(fatal.error);
    throw new ToolExecutionError(
      `Tool "${fatal.toolName}" threw: ${message}. The model was told the call failed. To let the model see ` +
        `such errors instead, throw ModelVisibleError or set sendErrorsToModel: true on the tool.`,
      { toolName: fatal.toolName, callId: fatal.callId },
      { cause: fatal.error },
    );
  }
}

/** Answers the paused calls of an abandoned turn (a new prompt came before any decision). */
export function abandonedResponses(paused: PausedTurn): ToolCallResponseInfo[] {
  return paused.outcomes.map((o) =>
    o.kind === 'done'
      ? o.response
      : errorResponse(
          o.kind === 'held' ? o.held.input.request : o.paused.input.request,
          'The call was not approved before the next message was sent, so it did not run.',
          'cancelled',
        ),
  );
}

/** Runs the approved calls of a paused turn (in parallel), denies the rest; results in call order. */
export async function resolvePausedTurn(
  env: LoopEnvironment,
  paused: PausedTurn,
  decisions: readonly ApprovalOutcome[],
  signal: AbortSignal,
): Promise<{
  responses: ToolCallResponseInfo[];
  fatal?: { error: unknown; toolName: string; callId: string };
  /** Set when an approved call was held again by its tool: the turn, to pause once more. */
  held?: PausedTurn;
}> {
  const byId = new Map(decisions.map((d) => [d.callId, d]));
  const runs: ExecutedCall[] = await Promise.all(
    paused.outcomes.map(async (o): Promise<ExecutedCall> => {
      if (o.kind === 'done') return { response: o.response };
      // A held call's work already ran: it is continued through its paused form, never held here.
      if (o.kind === 'held')
        throw new InternalError('A held call cannot be resolved before it is decided.');
      const { input, tool, args } = o.paused;
      const decision = byId.get(input.request.callId);
      if (decision?.outcome !== 'allow') {
        const extra = decision?.message ? ` ${decision.message}` : '';
        return {
          response: errorResponse(
            input.request,
            `Tool execution was denied by the user.${extra}`,
            'policy_violation',
          ),
        };
      }
      return executeOne(
        input,
        tool,
        args,
        {
          run: env.chains.runTool,
          decide: env.chains.decideTool,
          registry: async () => (await env.prepare(env.contextFor(signal))).registry,
          contextFor: env.contextFor,
          signal,
          timeoutMs: env.limits.toolTimeoutMs,
          emit: env.pump.emit,
          stop: env.control.stop,
          model: env.modelName,
        },
        env.logger,
      );
    }),
  );
  const firstFatal = runs.findIndex((r) => r.fatal !== undefined);
  const responses = runs.map((r) => r.response);
  if (firstFatal === -1 && runs.some((r) => r.held !== undefined)) {
    const outcomes = paused.outcomes.map((o, i): ToolCallOutcome => {
      const run = runs[i] as ExecutedCall;
      if (run.held === undefined || o.kind !== 'paused')
        return { kind: 'done', response: run.response };
      const { input, tool, args } = o.paused;
      return { kind: 'held', held: { input, tool, args, hold: run.held } };
    });
    return { responses, held: { outcomes } };
  }
  if (firstFatal === -1) return { responses };
  const failed = responses[firstFatal] as ToolCallResponseInfo;
  const run = runs[firstFatal] as { fatal: { error: unknown } };
  return {
    responses,
    fatal: { error: run.fatal.error, toolName: failed.name, callId: failed.callId },
  };
}
