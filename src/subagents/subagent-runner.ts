import { randomUUID } from 'node:crypto';
import { ToolCallHeld } from '../core/held-call.js';
import type { BudgetExceededInfo, SubagentInnerEvent } from '../events.js';
import type { LoopOutcome, LoopStart } from '../loop/loop-types.js';
import { waitingApprovals } from '../tools/tool-scheduler.js';
import { DeadlineTimer } from './deadline-timer.js';
import { startRunServers } from './subagent-mcp-servers.js';
import { finalWarningMessage } from './subagent-prompt.js';
import {
  GRACE_PERIOD_MS,
  SubagentRun,
  type HeldRunState,
  type SubagentRunInput,
} from './subagent-run.js';
import type {
  ResolvedSubagent,
  SubagentRunResult,
  SubagentTerminateMode,
} from './subagent-types.js';

export { GRACE_PERIOD_MS, type SubagentRunInput } from './subagent-run.js';

function reasonOf(
  outcome: LoopOutcome,
  run: SubagentRun,
  timedOut: boolean,
): SubagentTerminateMode {
  if (run.submitted !== undefined) return 'GOAL';
  switch (outcome.kind) {
    case 'completed':
      return 'ERROR_NO_COMPLETE_TASK_CALL';
    case 'max_turns':
      return 'MAX_TURNS';
    case 'budget_paused':
      return 'BUDGET_EXCEEDED';
    case 'cancelled':
      return timedOut ? 'TIMEOUT' : 'ABORTED';
    default:
      return 'ERROR';
  }
}

/**
 * Runs a subagent as gemini-cli's `LocalAgentExecutor` does: its own history and tool registry, the session's
 * model and chains (hooks, policy, approvals with the subagent's name), `complete_task` as the only way to finish,
 * `maxTurns` and the time limit (paused while a human is asked) followed by one grace turn, the transcript in the
 * session's `chats/<sessionId>/<agentId>.jsonl`. Failures of the model reject (the parent turns them into its
 * `Subagent '<name>' failed.` answer); an abort of the parent ends the run with `ABORTED`.
 */
export async function runSubagent(input: SubagentRunInput): Promise<SubagentRunResult> {
  const agentId = randomUUID();
  const log = await input.runtime.openChildLog(agentId);
  const run = new SubagentRun(input, log, agentId);
  return driveRun(run, input, () =>
    Promise.resolve({ kind: 'prompt', parts: [{ text: input.prompt }] }),
  );
}

/**
 * Continues a run held for approvals ({@link ToolCallHeld}) from its transcript, in this process or another: the
 * held turn is decided with the human's decisions, approved calls run with the run's tools, and the run goes on to
 * its end (or holds again), within what is left of its `maxTurns` and time limit.
 *
 * @throws SessionNotFoundError when the run's transcript is gone.
 */
export async function resumeSubagent(
  input: SubagentRunInput & { held: HeldRunState; decisions: readonly unknown[] },
): Promise<SubagentRunResult> {
  const { held } = input;
  const log = await input.runtime.openChildLog(held.agentId, { resume: true });
  const run = new SubagentRun(input, log, held.agentId, held);
  return driveRun(run, input, (signal) => run.resume(input.decisions, signal));
}

async function driveRun(
  run: SubagentRun,
  input: SubagentRunInput,
  start: (signal: AbortSignal) => Promise<LoopStart>,
): Promise<SubagentRunResult> {
  const started = Date.now();
  const { definition } = input;
  const parent = input.signal;
  try {
    const main = run.timer.signal;
    if (definition.mcpServers !== undefined && Object.keys(definition.mcpServers).length > 0) {
      run.mcp = await startRunServers(input.runtime, definition.mcpServers, main, (event) =>
        run.forward(event),
      );
    }
    const outcome = await run.loop(
      await start(main),
      Math.max(0, definition.maxTurns - run.before.turns),
      main,
    );
    if (outcome.kind === 'paused' && run.held !== undefined) {
      const approvals = waitingApprovals(run.held.outcomes);
      throw new ToolCallHeld({ approvals, state: { ...run.heldState() } });
    }
    run.canHold = false;
    let reason = reasonOf(outcome, run, run.timer.expired && !parent?.aborted);
    let result: string | undefined = run.submitted?.result;
    if (outcome.kind === 'completed' && reason === 'ERROR_NO_COMPLETE_TASK_CALL') {
      run.forward(
        errorEvent(
          `Agent stopped calling tools but did not call 'complete_task' to finalize the session.`,
        ),
      );
    }
    if (
      reason === 'TIMEOUT' ||
      reason === 'MAX_TURNS' ||
      reason === 'ERROR_NO_COMPLETE_TASK_CALL'
    ) {
      result = await graceTurn(run, input, reason);
      if (result !== undefined) reason = 'GOAL';
      else result = failureText(reason, definition);
    }
    if (reason === 'BUDGET_EXCEEDED') result = failureText(reason, definition, run.exceeded);
    if (reason === 'GOAL') result ??= 'Task completed.';
    result ??= 'Agent execution was terminated before completion.';
    if (reason !== 'GOAL' && reason !== 'ABORTED' && reason !== 'ERROR_NO_COMPLETE_TASK_CALL') {
      if (reason !== 'ERROR') run.forward(errorEvent(result));
    }
    return {
      agentId: run.agentId,
      terminateReason: reason,
      result,
      output: reason === 'GOAL' ? run.submitted?.output : undefined,
      turns: run.usage.modelCalls,
      durationMs: Date.now() - started,
      usage: run.usage,
    };
  } finally {
    run.timer.clear();
    await Promise.all([run.mcp?.close(), run.log.close()]);
  }
}

function errorEvent(message: string): SubagentInnerEvent {
  return { type: 'error', value: { error: { message } } };
}

function failureText(
  reason: SubagentTerminateMode,
  definition: ResolvedSubagent,
  exceeded?: BudgetExceededInfo,
): string {
  if (reason === 'TIMEOUT') {
    const minutes = Math.round((definition.timeoutMs / 60_000) * 100) / 100;
    return `Agent timed out after ${minutes} minutes.`;
  }
  if (reason === 'MAX_TURNS') return `Agent reached max turns limit (${definition.maxTurns}).`;
  if (reason === 'BUDGET_EXCEEDED' && exceeded !== undefined) {
    const unit = exceeded.reason === 'cost' ? ' USD' : ' tokens';
    return `Agent stopped: its budget does not allow another model call (${exceeded.reason}: ${exceeded.wouldSpend}${unit} would exceed the limit of ${exceeded.limit}${unit}).`;
  }
  return `Agent stopped calling tools but did not call 'complete_task'.`;
}

/** gemini-cli's one recovery turn: a warning, one model call, `complete_task` or failure. */
async function graceTurn(
  run: SubagentRun,
  input: SubagentRunInput,
  reason: 'TIMEOUT' | 'MAX_TURNS' | 'ERROR_NO_COMPLETE_TASK_CALL',
): Promise<string | undefined> {
  if (input.signal?.aborted) return undefined;
  run.forward({
    type: 'thought',
    value: {
      subject: `Execution limit reached (${reason}). Attempting one final recovery turn with a grace period.`,
      description: '',
    },
  });
  run.timer.clear();
  run.timer = new DeadlineTimer(input.graceMs ?? GRACE_PERIOD_MS, input.signal);
  const { signal } = run.timer;
  try {
    const start: LoopStart = { kind: 'prompt', parts: [{ text: finalWarningMessage(reason) }] };
    const outcome = await run.loop(start, 1, signal);
    if (run.submitted !== undefined) {
      run.forward({
        type: 'thought',
        value: { subject: 'Graceful recovery succeeded.', description: '' },
      });
      return run.submitted.result;
    }
    run.forward(errorEvent(`Graceful recovery attempt failed. Reason: ${outcome.kind}`));
    return undefined;
  } catch (error) {
    run.forward(errorEvent(`Graceful recovery attempt failed: ${String(error)}`));
    return undefined;
  }
}
