import { linkedAbortController, raceAbort } from '../core/abort.js';
import type { AgentTool, ToolResult } from '../core/agent-tool.js';
import type { ToolCheck, ToolDecision, ToolRun } from '../core/interceptors.js';
import { ToolCallHeld, type ToolHold } from '../core/held-call.js';
import type { SessionContext } from '../core/session-context.js';
import type { ApprovalRequest, ServerGeminiStreamEvent, ToolCallResponseInfo } from '../events.js';
import { silentLogger, type Logger } from '../logger.js';
import { unknownToolMessage } from './closest-names.js';
import { ModelVisibleError } from './model-visible-error.js';
import type { ToolCallInput } from './tool-call.js';
import { followTailCalls } from './tail-call.js';
import type { ToolRegistry } from './tool-registry.js';
import {
  cancelledResponse,
  errorResponse,
  resultToResponse,
  withToolDisplay,
} from './tool-response.js';

/** What {@link runToolCalls} needs. */
export interface ToolSchedulerOptions {
  /** The calls of one model turn, in the order the model sent them. */
  calls: readonly ToolCallInput[];
  registry: ToolRegistry;
  /**
   * The decision chain (the features' decision interceptors, the policy last); asked about each valid call, in
   * order, before anything runs.
   */
  decide(check: ToolCheck): Promise<ToolDecision>;
  /** The execution chain (the features' tool interceptors around the tool); one per allowed call. */
  run(run: ToolRun): Promise<ToolResult>;
  /** Builds a fresh context whose `signal` is the given one (per decision and per call). */
  contextFor(signal: AbortSignal): SessionContext;
  /** Aborting answers every unfinished call with a cancelled response. */
  signal: AbortSignal;
  /** Per-call time limit in ms; a call still running then gets an error response. */
  timeoutMs?: number;
  /** Yields an event into the running stream. */
  emit(event: ServerGeminiStreamEvent): void;
  /** Ends the turn at the loop's next step boundary (an interceptor's `stop()`). */
  stop(): void;
  logger?: Logger;
  /** The model the results go to: Gemini 3 models get media nested in the function response. */
  model?: string;
}

/** The innermost decision: `allow`, with the arguments that reached it. */
export function allowDecision(check: ToolCheck): Promise<ToolDecision> {
  return Promise.resolve({ outcome: 'allow', args: check.args });
}

/** The innermost step of a tool run: the tool itself. */
export function executeTool(run: ToolRun): Promise<ToolResult> {
  return run.tool.execute(run.args, run.ctx, {
    callId: run.request.callId,
    signal: run.ctx.signal,
    emit: run.emit,
  });
}

/** A call held by the gate, waiting for a human decision. */
export interface PausedToolCall {
  input: ToolCallInput;
  tool: AgentTool;
  args: Record<string, unknown>;
  approval: ApprovalRequest;
}

/** A call whose tool ran and holds it for approvals inside it ({@link ToolCallHeld}: a subagent's calls). */
export interface HeldToolCall {
  input: ToolCallInput;
  tool: AgentTool;
  args: Record<string, unknown>;
  hold: ToolHold;
}

/** Outcome of one call: answered, paused for approval, or held by its tool for approvals inside it. */
export type ToolCallOutcome =
  | { kind: 'done'; response: ToolCallResponseInfo }
  | { kind: 'paused'; paused: PausedToolCall }
  | { kind: 'held'; held: HeldToolCall };

/** The approval requests a tool turn waits for, in call order (a held call's inner requests in its place). */
export function waitingApprovals(outcomes: readonly ToolCallOutcome[]): ApprovalRequest[] {
  return outcomes.flatMap((o) => {
    if (o.kind === 'paused') return [o.paused.approval];
    return o.kind === 'held' ? [...o.held.hold.approvals] : [];
  });
}

/** Outcome of one scheduler run. */
export interface ToolSchedulerResult {
  /** One outcome per call, in call order. */
  outcomes: ToolCallOutcome[];
  /** The first tool that threw an error not meant for the model (its call was answered with an error). */
  fatal?: { error: unknown; toolName: string; callId: string };
  /** True when the signal aborted while calls were pending. */
  cancelled: boolean;
}

/** The error message the model gets for a call whose tool threw an error not meant for it. */
export const HIDDEN_FAILURE_MESSAGE =
  'The tool failed with an internal error. The details were not shared with the model.';

/** The answer of a held call that cannot stay held (another call of its turn failed): it did not finish. */
const HELD_PLACEHOLDER = 'Not finished: the call was waiting for approvals inside it.';

class ToolTimeout extends Error {}

/**
 * Runs the calls of one model turn: malformed and unknown calls get an error, arguments are validated, the gate
 * is asked (in order), then every allowed call runs in parallel. Results come back in call order. Never throws
 * for a tool's failure: see {@link ToolSchedulerResult.fatal}.
 */
export async function runToolCalls(options: ToolSchedulerOptions): Promise<ToolSchedulerResult> {
  const { registry, signal, emit, stop } = options;
  const logger = options.logger ?? silentLogger;
  const outcomes: Array<ToolCallOutcome | undefined> = [];
  const runnable: Array<{ index: number; tool: AgentTool; args: Record<string, unknown> }> = [];

  for (const [index, input] of options.calls.entries()) {
    const { request } = input;
    if (signal.aborted) {
      outcomes[index] = { kind: 'done', response: cancelledResponse(request, 'queued') };
      continue;
    }
    if (input.malformed) {
      const { message, type } = input.malformed;
      outcomes[index] = { kind: 'done', response: errorResponse(request, message, type) };
      continue;
    }
    const tool = registry.get(request.name);
    if (!tool) {
      const message = unknownToolMessage(request.name, registry.names);
      outcomes[index] = {
        kind: 'done',
        response: errorResponse(request, message, 'tool_not_registered'),
      };
      continue;
    }
    const validation = await tool.validate(request.args);
    if (!validation.ok) {
      const response = withToolDisplay(
        errorResponse(request, validation.error, 'invalid_tool_params'),
        tool,
        request.args,
      );
      outcomes[index] = { kind: 'done', response };
      continue;
    }
    const args = validation.args;
    let decision: ToolDecision;
    try {
      const ctx = options.contextFor(signal);
      decision = await raceAbort(
        options.decide({ request, tool, args, ctx, signal, emit, stop }),
        signal,
      );
    } catch (error) {
      if (signal.aborted) {
        outcomes[index] = { kind: 'done', response: cancelledResponse(request, 'queued') };
        continue;
      }
      throw error;
    }
    if (decision.outcome === 'deny') {
      const type = decision.type ?? 'policy_violation';
      const response = withToolDisplay(errorResponse(request, decision.message, type), tool, args);
      outcomes[index] = { kind: 'done', response };
    } else if (decision.outcome === 'pause') {
      outcomes[index] = {
        kind: 'paused',
        paused: { input, tool, args: decision.request.args, approval: decision.request },
      };
    } else {
      runnable.push({ index, tool, args: decision.args ?? args });
    }
  }

  const fatals: Array<{ index: number; error: unknown }> = [];
  await Promise.all(
    runnable.map(async ({ index, tool, args }) => {
      const input = options.calls[index] as ToolCallInput;
      const run = await executeOne(
        input,
        tool,
        args,
        { ...options, registry: () => registry },
        logger,
      );
      outcomes[index] =
        run.held === undefined
          ? { kind: 'done', response: run.response }
          : { kind: 'held', held: { input, tool, args, hold: run.held } };
      if (run.fatal !== undefined) fatals.push({ index, error: run.fatal.error });
    }),
  );
  const first = fatals.sort((a, b) => a.index - b.index)[0];
  const firstRequest = first && (options.calls[first.index] as ToolCallInput).request;
  return {
    outcomes: options.calls.map(
      (call, i) =>
        outcomes[i] ?? { kind: 'done', response: cancelledResponse(call.request, 'queued') },
    ),
    ...(first && firstRequest
      ? { fatal: { error: first.error, toolName: firstRequest.name, callId: firstRequest.callId } }
      : {}),
    cancelled: signal.aborted,
  };
}

/**
 * Runs one call with its own signal (session abort + timeout), racing the tool so a tool that ignores its
 * signal still ends promptly.
 */
export async function executeOne(
  input: ToolCallInput,
  tool: AgentTool,
  args: Record<string, unknown>,
  options: Pick<
    ToolSchedulerOptions,
    'run' | 'decide' | 'contextFor' | 'signal' | 'timeoutMs' | 'emit' | 'stop' | 'model'
  > & {
    /** The turn's tools, for hand-overs (`ToolResult.tailCall`). */
    registry: () => ToolRegistry | Promise<ToolRegistry>;
  },
  logger: Logger = silentLogger,
): Promise<ExecutedCall> {
  const run = await executeUnlabelled(input, tool, args, options, logger);
  return { ...run, response: withToolDisplay(run.response, tool, args) };
}

/**
 * One call run: its response, the error when its tool threw one not meant for the model, or — when the tool held
 * the call for approvals inside it — the hold (the response is then a placeholder, never sent).
 */
export interface ExecutedCall {
  response: ToolCallResponseInfo;
  fatal?: { error: unknown };
  held?: ToolHold;
}

async function executeUnlabelled(
  input: ToolCallInput,
  tool: AgentTool,
  args: Record<string, unknown>,
  options: Parameters<typeof executeOne>[3],
  logger: Logger,
): Promise<ExecutedCall> {
  const { request } = input;
  const { controller, dispose } = linkedAbortController(options.signal);
  const timeoutMs = options.timeoutMs;
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? setTimeout(() => controller.abort(new ToolTimeout()), timeoutMs)
      : undefined;
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  try {
    const ctx = options.contextFor(controller.signal);
    const { emit, stop } = options;
    const pending = Promise.resolve()
      .then(() => options.run({ request, tool, args, ctx, emit, stop }))
      .then((result) =>
        result.tailCall === undefined
          ? result
          : followTailCalls(result, request, {
              registry: options.registry,
              decide: options.decide,
              run: options.run,
              ctx,
              emit,
              stop,
            }),
      );
    const result = await raceAbort(pending, controller.signal);
    return { response: resultToResponse(request, result, elapsed(), options.model) };
  } catch (error) {
    if (controller.signal.aborted) {
      if (controller.signal.reason instanceof ToolTimeout) {
        const message = `Tool "${request.name}" timed out after ${timeoutMs} ms and was stopped.`;
        logger.warn('tool timed out', { tool: request.name, callId: request.callId, timeoutMs });
        return { response: errorResponse(request, message, 'timeout', elapsed()) };
      }
      return { response: cancelledResponse(request, 'running', elapsed()) };
    }
    if (error instanceof ToolCallHeld) {
      const response = errorResponse(request, HELD_PLACEHOLDER, 'held', elapsed());
      return { response, held: error.hold };
    }
    if (error instanceof ModelVisibleError) {
      return { response: errorResponse(request, error.message, 'execution_failed', elapsed()) };
    }
    logger.error('tool threw', {
      tool: request.name,
      callId: request.callId,
      error: String(error),
    });
    return {
      response: errorResponse(request, HIDDEN_FAILURE_MESSAGE, 'unhandled_exception', elapsed()),
      fatal: { error },
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    dispose();
  }
}
