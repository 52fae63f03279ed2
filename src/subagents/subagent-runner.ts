import { randomUUID } from 'node:crypto';
import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCheck, ToolDecision, ToolRun } from '../core/interceptors.js';
import type {
  RunBudget,
  RunMcpServers,
  SessionRuntime,
  SubagentCallInfo,
} from '../core/session-runtime.js';
import type { SessionLog } from '../core/session-log.js';
import { addUsage, emptyUsage } from '../core/usage.js';
import type {
  BudgetExceededInfo,
  ServerGeminiStreamEvent,
  SubagentActivityInfo,
  SubagentInnerEvent,
} from '../events.js';
import type { Logger } from '../logger.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import { ContextTracker } from '../loop/context-window.js';
import { ConversationHistory } from '../loop/conversation-history.js';
import { EventPump } from '../loop/event-pump.js';
import type { LoopEnvironment, LoopOutcome, PreparedModelCall } from '../loop/loop-types.js';
import { TurnControl } from '../loop/turn-control.js';
import { retryNote, storeNote } from '../sessions/session-notes.js';
import { createCompleteTaskTool, type SubmittedTask } from './complete-task-tool.js';
import { DeadlineTimer } from './deadline-timer.js';
import { startRunServers } from './subagent-mcp-servers.js';
import { buildSubagentSystemPrompt, finalWarningMessage } from './subagent-prompt.js';
import { ownTools, selectSubagentTools, SubagentToolRegistry } from './subagent-tools.js';
import type {
  ResolvedSubagent,
  SubagentRunResult,
  SubagentTerminateMode,
} from './subagent-types.js';

/** gemini-cli's grace period for the final recovery turn (1 minute). */
export const GRACE_PERIOD_MS = 60_000;

/** What {@link runSubagent} needs. */
export interface SubagentRunInput {
  definition: ResolvedSubagent;
  runtime: SessionRuntime;
  /** The task (the `prompt` of `invoke_agent`): the agent's `query` input. */
  prompt: string;
  /** The parent's `invoke_agent` call, when the parent model started the run. */
  parentCallId: string | undefined;
  /** The parent's signal: aborting it aborts the run (`ABORTED`). */
  signal: AbortSignal | undefined;
  /** Receives the run's events for the parent's stream. */
  emit(info: SubagentActivityInfo): void;
  logger: Logger;
  /** The grace turn's time limit (default {@link GRACE_PERIOD_MS}). */
  graceMs?: number;
}

const FORWARDED = new Set<ServerGeminiStreamEvent['type']>([
  'content',
  'thought',
  'tool_call_request',
  'tool_call_response',
  'tool_call_confirmation',
  'error',
  'warning',
  'retry',
  'tool_progress',
  'invalid_stream',
  'loop_detected',
  'model_info',
  'finished',
]);

/** What a subagent's call that needs approval gets when the agent pauses for approvals instead of asking. */
export const PAUSE_UNSUPPORTED =
  "This call needs a human's approval, which cannot be held for later inside a subagent (approvals: 'pause'). " +
  'Do the task without it, or report with `complete_task` that it needs this approval.';

const SUBAGENT_REJECTED_PREFIX = 'User rejected this operation.';
const USER_DENIED_PREFIX = 'User denied execution.';

/** gemini-cli's text for a call a human refused inside a subagent (the subagent is asked to rethink). */
function rejectedMessage(userMessage: string): string {
  const extra = userMessage.slice(USER_DENIED_PREFIX.length).trim();
  return (
    `${SUBAGENT_REJECTED_PREFIX}${extra ? ` ${extra}` : ''} Please acknowledge this, rethink your strategy, and ` +
    'try a different approach. If you cannot proceed without the rejected operation, summarize the issue and use ' +
    '`complete_task` to report your findings and the blocker.'
  );
}

/** One subagent run: its own history, tools and log, the session's model and chains. */
class SubagentRun {
  readonly usage = emptyUsage();
  readonly history = new ConversationHistory([]);
  readonly control = new TurnControl();
  submitted: SubmittedTask | undefined;
  timer: DeadlineTimer;
  private prepared: Promise<PreparedModelCall> | undefined;
  private readonly context = new ContextTracker();
  private readonly info: SubagentCallInfo;
  private readonly modelName: string;
  /** The run's `model_info` (the model it runs on) was emitted. */
  private modelAnnounced = false;
  /** `budget.perSubagent` and what the session's budget has left. */
  private readonly budget: RunBudget;
  /** Set when the run stopped before a model call its budget does not allow. */
  exceeded: BudgetExceededInfo | undefined;
  /** The run's own MCP servers (the definition's `mcpServers`), while it runs. */
  mcp: RunMcpServers | undefined;

  constructor(
    private readonly input: SubagentRunInput,
    private readonly log: SessionLog,
    readonly agentId: string,
  ) {
    const { definition, runtime } = input;
    this.info = { name: definition.name, agentId: this.agentId, parentCallId: input.parentCallId };
    this.modelName = definition.model === 'inherit' ? runtime.model() : definition.model;
    this.timer = new DeadlineTimer(definition.timeoutMs);
    this.budget = runtime.subagentBudget();
  }

  forward(event: SubagentInnerEvent): void {
    // After the parent's abort its call is answered as cancelled: nothing of the run follows it in the stream.
    if (this.input.signal?.aborted) return;
    this.input.emit({
      agentName: this.input.definition.name,
      agentId: this.agentId,
      parentCallId: this.input.parentCallId,
      event,
    });
  }

  /** The system prompt and the tools, computed once for the run (gemini-cli builds them with the chat). */
  private prepare(ctx: Parameters<LoopEnvironment['prepare']>[0]): Promise<PreparedModelCall> {
    this.prepared ??= (async () => {
      const { definition, runtime } = this.input;
      const complete = createCompleteTaskTool(definition, (task) => {
        this.submitted ??= task;
        this.control.stop();
      });
      const parent = (await runtime.tools(ctx)).filter((t) => t.name !== complete.name);
      // The run's own servers' tools are always its own (gemini-cli registers them in the agent's registry
      // whatever `tools` says) and win over a parent's tool of the same name.
      const servers = this.mcp?.tools().filter((t) => t.name !== complete.name) ?? [];
      const serverNames = new Set(servers.map((t) => t.name));
      const tools = [
        ...selectSubagentTools(definition.tools, parent, ownTools(definition.tools)).filter(
          (t) => !serverNames.has(t.name),
        ),
        ...servers,
        complete,
      ];
      const inputs = {
        query: this.input.prompt,
        activeModel: this.modelName,
        today: new Date().toLocaleDateString(),
      };
      return {
        systemInstruction: await buildSubagentSystemPrompt(definition, runtime, ctx, inputs),
        registry: new SubagentToolRegistry(tools),
        ...(runtime.contextParts.length > 0 ? { contextParts: [...runtime.contextParts] } : {}),
      };
    })();
    return this.prepared;
  }

  /** The decision chain with the subagent's name; the deadline stands still while a human is asked. */
  private async decide(check: ToolCheck): Promise<ToolDecision> {
    let asked = false;
    const emit = (event: ServerGeminiStreamEvent): void => {
      if (event.type === 'tool_call_confirmation' && !asked) {
        asked = true;
        this.timer.pause();
      }
      check.emit(event);
    };
    try {
      const decision = await this.input.runtime.decideTool({ ...check, emit, subagent: this.info });
      if (decision.outcome === 'pause') return { outcome: 'deny', message: PAUSE_UNSUPPORTED };
      if (asked && decision.outcome === 'deny' && decision.message.startsWith(USER_DENIED_PREFIX))
        return { ...decision, message: rejectedMessage(decision.message) };
      return decision;
    } finally {
      if (asked) this.timer.resume();
    }
  }

  environment(maxTurns: number, pump: EventPump): LoopEnvironment {
    const { runtime } = this.input;
    const generationConfig = {
      ...runtime.generationConfig(this.modelName),
      ...this.input.definition.generationConfig,
    };
    return {
      sessionId: this.agentId,
      modelName: this.modelName,
      generationConfig,
      history: this.history,
      commit: async (entry) => {
        this.history.push(entry.content);
        await this.log.append(entry);
      },
      commitPause: () => Promise.resolve(),
      prepare: (ctx) => this.prepare(ctx),
      contextFor: (signal) => runtime.contextFor(signal, this.history.view()),
      chains: {
        callModel: runtime.callModel,
        decideTool: (check) => this.decide(check),
        runTool: (run: ToolRun) => runtime.runTool({ ...run, subagent: this.info }),
      },
      control: this.control,
      limits: {
        maxTurns,
        ...(runtime.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: runtime.toolTimeoutMs }),
        ...(runtime.maxResponseBytes === undefined
          ? {}
          : { maxResponseBytes: runtime.maxResponseBytes }),
      },
      streamRetry: runtime.streamRetry,
      onRetry: (info) => storeNote(this.log, retryNote(info), this.input.logger),
      logger: this.input.logger,
      onUsage: (usage: GenerateContentResponseUsageMetadata | undefined) => {
        addUsage(this.usage, usage);
        runtime.addUsage(this.input.definition.name, usage, this.modelName);
        this.budget.record(this.modelName, usage);
        if (usage?.promptTokenCount !== undefined)
          this.context.calibrate(this.history.length, usage.promptTokenCount);
      },
      context: this.context,
      // A run cannot be held for later (its history is not resumable): crossing its budget ends it.
      budget: {
        check: (tokens) => this.budget.check(this.modelName, tokens),
        pause: (info) => {
          this.exceeded = info;
          return Promise.resolve();
        },
      },
      tokenLimit: runtime.tokenLimit(this.modelName),
      takeModelInfo: () => {
        if (this.modelAnnounced) return undefined;
        this.modelAnnounced = true;
        return this.modelName;
      },
      pump,
    };
  }

  /** Runs the loop once (the task, or the grace turn), forwarding the subagent's events. */
  async loop(text: string, maxTurns: number, signal: AbortSignal): Promise<LoopOutcome> {
    const pump = new EventPump();
    const run = runAgentLoop(
      this.environment(maxTurns, pump),
      { kind: 'prompt', parts: [{ text }] },
      signal,
    );
    for (;;) {
      const next = await run.next();
      if (next.done === true) return next.value;
      const event = next.value;
      if (FORWARDED.has(event.type)) this.forward(event as SubagentInnerEvent);
    }
  }
}

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
  const started = Date.now();
  const { definition } = input;
  const agentId = randomUUID();
  const log = await input.runtime.openChildLog(agentId);
  const run = new SubagentRun(input, log, agentId);
  const parent = input.signal;
  try {
    const main = AbortSignal.any([run.timer.signal, ...(parent ? [parent] : [])]);
    if (definition.mcpServers !== undefined && Object.keys(definition.mcpServers).length > 0) {
      run.mcp = await startRunServers(input.runtime, definition.mcpServers, main, (event) =>
        run.forward(event),
      );
    }
    const outcome = await run.loop(input.prompt, definition.maxTurns, main);
    let reason = reasonOf(outcome, run, run.timer.signal.aborted && !parent?.aborted);
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
    await Promise.all([run.mcp?.close(), log.close()]);
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
  run.timer = new DeadlineTimer(input.graceMs ?? GRACE_PERIOD_MS);
  const signal = AbortSignal.any([run.timer.signal, ...(input.signal ? [input.signal] : [])]);
  try {
    const outcome = await run.loop(finalWarningMessage(reason), 1, signal);
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
