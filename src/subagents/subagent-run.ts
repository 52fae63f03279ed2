import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCheck, ToolDecision, ToolRun } from '../core/interceptors.js';
import type {
  HeldCallOutcome,
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
  ToolCallResponseInfo,
} from '../events.js';
import type { Logger } from '../logger.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import { ContextTracker } from '../loop/context-window.js';
import { ConversationHistory } from '../loop/conversation-history.js';
import { EventPump } from '../loop/event-pump.js';
import type {
  LoopEnvironment,
  LoopOutcome,
  LoopStart,
  PausedTurn,
  PreparedModelCall,
} from '../loop/loop-types.js';
import type { AgentTool } from '../core/agent-tool.js';
import { InternalError } from '../errors.js';
import { TurnControl } from '../loop/turn-control.js';
import { retryNote, storeNote } from '../sessions/session-notes.js';
import { errorResponse } from '../tools/tool-response.js';
import { createCompleteTaskTool, type SubmittedTask } from './complete-task-tool.js';
import { DeadlineTimer } from './deadline-timer.js';
import { buildSubagentSystemPrompt } from './subagent-prompt.js';
import { ownTools, selectSubagentTools, SubagentToolRegistry } from './subagent-tools.js';
import type { ResolvedSubagent } from './subagent-types.js';

/** gemini-cli's grace period for the final recovery turn (1 minute). */
export const GRACE_PERIOD_MS = 60_000;

/** What a subagent run needs (`runSubagent`, `resumeSubagent`). */
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
  /**
   * True when the parent can hold the call (its `invoke_agent` call, with `approvals: 'pause'`): a call needing
   * approval then holds the run ({@link ToolCallHeld}) instead of being refused with {@link PAUSE_UNSUPPORTED}.
   */
  canHold?: boolean;
}

/** What a held run stores with the parent's paused turn to continue (`ToolHold.state`). */
export interface HeldRunState {
  agentId: string;
  agentName: string;
  /** Run time before the hold (waiting for the human excluded), counted against `timeoutMs`. */
  elapsedMs: number;
  /** Model calls before the hold, counted against `maxTurns`. */
  turns: number;
}

/** Reads a held run's stored state. */
export function heldRunState(state: Readonly<Record<string, unknown>>): HeldRunState | undefined {
  const { agentId, agentName, elapsedMs, turns } = state;
  if (typeof agentId !== 'string' || typeof agentName !== 'string') return undefined;
  if (typeof elapsedMs !== 'number' || typeof turns !== 'number') return undefined;
  return { agentId, agentName, elapsedMs, turns };
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

/**
 * What a call that needs approval gets inside a run that cannot be held (a direct `subagent.run()`, or the grace
 * turn) when the agent pauses for approvals instead of asking.
 */
export const PAUSE_UNSUPPORTED =
  "This call needs a human's approval, which cannot be held for later here (approvals: 'pause'). " +
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
export class SubagentRun {
  readonly usage = emptyUsage();
  readonly history: ConversationHistory;
  readonly control = new TurnControl();
  /** The run's tools (set by the first model call's preparation). */
  tools: AgentTool[] = [];
  /** The turn held for approvals, once stored in the run's log. */
  held: PausedTurn | undefined;
  /** False for the grace turn: a call needing approval is refused there. */
  canHold: boolean;
  readonly started = Date.now();
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
    readonly log: SessionLog,
    readonly agentId: string,
    /** What ran before a hold (a resumed run). */
    readonly before: Pick<HeldRunState, 'elapsedMs' | 'turns'> = { elapsedMs: 0, turns: 0 },
  ) {
    const { definition, runtime } = input;
    this.info = { name: definition.name, agentId: this.agentId, parentCallId: input.parentCallId };
    this.modelName = definition.model === 'inherit' ? runtime.model() : definition.model;
    this.timer = new DeadlineTimer(definition.timeoutMs - before.elapsedMs, input.signal);
    this.budget = runtime.subagentBudget();
    this.history = new ConversationHistory(log.history);
    this.canHold = input.canHold === true;
  }

  /** The state the parent stores to continue this run once its held turn is decided. */
  heldState(): HeldRunState {
    return {
      agentId: this.agentId,
      agentName: this.input.definition.name,
      elapsedMs: this.before.elapsedMs + Date.now() - this.started,
      turns: this.before.turns + this.usage.modelCalls,
    };
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
      this.tools = tools;
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
      if (decision.outcome === 'pause' && !this.canHold)
        return { outcome: 'deny', message: PAUSE_UNSUPPORTED };
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
      // The held turn is stored in the run's own transcript; the parent's call is then held (ToolCallHeld).
      commitPause: async (paused) => {
        const outcomes = paused.outcomes.map((o): HeldCallOutcome => {
          if (o.kind === 'held')
            throw new InternalError('A subagent has no tool that holds calls.');
          return o;
        });
        await runtime.nestedApprovals.hold(this.log, outcomes);
        this.held = paused;
      },
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

  /**
   * Decides the held turn of a reopened run with the human's decisions (as the parent's `resolveApprovals`), and
   * the loop start that continues it; the calls refused now are forwarded as answered. A human's refusal gets the
   * text a refusal through `onApproval` gets inside a subagent (gemini-cli's "User rejected this operation. …").
   */
  async resume(decisions: readonly unknown[], signal: AbortSignal): Promise<LoopStart> {
    await this.prepare(this.input.runtime.contextFor(signal, this.history.view()));
    const resolution = await this.input.runtime.nestedApprovals.resolve({
      log: this.log,
      runId: this.agentId,
      history: this.history.view(),
      tools: this.tools,
      decisions,
    });
    const rejected = new Map<string, ToolCallResponseInfo>();
    for (const denied of resolution.denied) {
      const message = denied.error?.message ?? '';
      const value = message.startsWith(USER_DENIED_PREFIX)
        ? errorResponse(
            {
              callId: denied.callId,
              name: denied.name,
              args: {},
              isClientInitiated: false,
              prompt_id: this.agentId,
            },
            rejectedMessage(message),
            denied.errorType ?? 'policy_violation',
          )
        : denied;
      rejected.set(value.callId, value);
      this.forward({ type: 'tool_call_response', value });
    }
    const outcomes = resolution.outcomes.map((o): HeldCallOutcome => {
      const answer = o.kind === 'done' ? rejected.get(o.response.callId) : undefined;
      return answer === undefined ? o : { kind: 'done', response: answer };
    });
    return {
      kind: 'approvals',
      paused: { outcomes },
      decisions: resolution.allowed.map((callId) => ({ callId, outcome: 'allow' as const })),
    };
  }

  /** Runs the loop once (the task, a resumed held turn, or the grace turn), forwarding the subagent's events. */
  async loop(start: LoopStart, maxTurns: number, signal: AbortSignal): Promise<LoopOutcome> {
    const pump = new EventPump();
    const run = runAgentLoop(this.environment(maxTurns, pump), start, signal);
    for (;;) {
      const next = await run.next();
      if (next.done === true) return next.value;
      const event = next.value;
      if (FORWARDED.has(event.type)) this.forward(event as SubagentInnerEvent);
    }
  }
}
