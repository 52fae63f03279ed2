import type { Content, Part } from '@google/genai';
import type { Turn, TurnEvents } from '../core/interceptors.js';
import type { ApprovalMode } from '../core/policy-rule.js';
import type { AgentHandle, SessionHandle } from '../core/session-context.js';
import { answerText } from './answer-text.js';
import type { SessionLog } from '../core/session-log.js';
import {
  copyUsage,
  emptyUsage,
  subtractUsage,
  type ContextWindowUsage,
  type TokenUsage,
} from '../core/usage.js';
import { SessionError } from '../errors.js';
import type { ApprovalRequest, ChatCompressedInfo, ServerGeminiStreamEvent } from '../events.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import { EventPump } from '../loop/event-pump.js';
import { TurnControl } from '../loop/turn-control.js';
import type { SessionApprovalDecision } from '../policy/approvals/approval-resolution.js';
import { noPendingApprovals, SessionPause } from '../policy/approvals/session-pause.js';
import type { ApprovalLogEntry, SessionPolicy } from '../policy/session-policy.js';
import type { SkillManager } from '../skills/skill-manager.js';
import type { AgentServices } from './agent-services.js';
import { approvalsStart } from './session-approvals.js';
import { compressNow } from './session-compress-now.js';
import type { Budget } from '../context/budget.js';
import * as budgets from './session-budget.js';
import { toParts } from './prompt-parts.js';
import type { SendResult } from './send-result.js';
import { contextWindowOf, loopEnvironment } from './session-environment.js';
import {
  createSessionState,
  promptStart,
  sessionBusyError,
  sessionClosedError,
  turnStart,
  type FirstStart,
  type SessionState,
} from './session-state.js';
import { runTeardowns } from './teardown.js';
import { SessionModel } from './session-model.js';
import { SessionTurns } from './session-turn.js';

/**
 * One conversation with the agent. Create it with `agent.session()` or `agent.resumeSession(id)`; talk to it
 * with {@link GeminiCliSession.sendStream} (events as they happen) or {@link GeminiCliSession.send}.
 */
export class GeminiCliSession implements SessionHandle {
  /** The session id (a random UUID unless given). */
  readonly id: string;
  /** The agent that created this session (the `GeminiCliAgent`). */
  readonly agent: AgentHandle;
  private readonly services: AgentServices;
  private readonly preopenedLog: SessionLog | undefined;
  private state: SessionState | undefined;
  private initializing: Promise<SessionState> | undefined;
  private running = false;
  private readonly chosenModel: SessionModel;
  private pause: SessionPause;
  private closed = false;
  private readonly totalUsage: TokenUsage = emptyUsage();
  private currentPump: EventPump | undefined;
  private currentSignal: AbortSignal | undefined;
  /** Events features emitted while no stream ran; the next stream yields them first. */
  private readonly pendingEvents: ServerGeminiStreamEvent[] = [];
  /**
   * This session's policy: `mode` / `setMode(mode)`, `explain(call)` (the rule that decides), its "always allow"
   * `rules` and the decision `log`.
   */
  readonly policy: SessionPolicy;
  private readonly turns: SessionTurns;
  /** @internal This session's own budget limits (`session({ budget })`), set before it initializes. */
  budgetLimits: Budget | undefined;

  /** @internal Reopens a stored session (`agent.resumeSession`): takes an idle lease over, opens the log. */
  static async resume(
    agent: AgentHandle,
    services: AgentServices,
    sessionId: string,
    cwd: string,
  ): Promise<GeminiCliSession> {
    await services.openSessions.handOver(sessionId);
    const log = await services.persistence.open(sessionId, { resume: true, cwd });
    const session = new GeminiCliSession(agent, services, sessionId, log);
    services.openSessions.add(session);
    return session;
  }

  /** @internal Use `agent.session()` / `agent.resumeSession()`; `chosenId` continues a stored session. */
  constructor(
    agent: AgentHandle,
    services: AgentServices,
    id: string,
    log?: SessionLog,
    private readonly chosenId = false,
  ) {
    this.agent = agent;
    this.services = services;
    this.id = id;
    this.preopenedLog = log;
    this.chosenModel = new SessionModel(services.modelName);
    this.pause = new SessionPause(log?.pausedTurn);
    this.policy = services.policy.forSession(this, {
      emit: (event) => this.emit(event),
      signal: () => this.currentSignal,
    });
    this.turns = new SessionTurns(this.policy, services.logger);
    if (log) this.turns.attach(log, (value) => this.emit({ type: 'warning', value }));
  }

  /** Prepares the session (model, workspace, history, features' `initialize`); lazy, idempotent. */
  async initialize(signal?: AbortSignal): Promise<void> {
    await this.ensureState(signal);
  }

  /**
   * The agent's skills (`list()`, `enable(name)`, `disable(name)`); `activate_skill` follows on the next model call.
   * @throws SessionError before the session was initialized (`await session.initialize()` first).
   */
  get skills(): SkillManager {
    if (!this.services.skills.loaded) {
      throw new SessionError(
        'Skills are loaded when the session initializes: call `await session.initialize()` first.',
      );
    }
    return this.services.skills.manager;
  }

  /** The approval mode of this session (`policy.mode` of the agent until changed). */
  get approvalMode(): ApprovalMode {
    return this.policy.mode;
  }

  /**
   * Changes the approval mode for this session's next tool calls: `plan` (read-only), `default`, `auto_edit`
   * (edits run too) or `yolo` (everything runs except what a deny rule catches).
   *
   * @throws ConfigurationError for an unknown mode.
   */
  setApprovalMode(mode: ApprovalMode): void {
    this.policy.setMode(mode);
  }

  /** The model id this session sends: the agent's `model`, until {@link GeminiCliSession.setModel}. */
  get model(): string {
    return this.chosenModel.id;
  }

  /** Switches the model from this session's next `sendStream` on (`auto*` aliases mean the default model). */
  setModel(model: string): void {
    this.chosenModel.set(model);
  }

  /** Every policy decision taken in this session (by a rule, the mode's default or a human), oldest first. */
  get approvalLog(): ApprovalLogEntry[] {
    return this.policy.log;
  }

  /** Cumulative token usage of all model calls of this session object. */
  get usage(): TokenUsage {
    return copyUsage(this.totalUsage);
  }

  /** The history against the model's context window: the last real count, the estimate now, the limit. */
  get contextWindow(): ContextWindowUsage | undefined {
    return this.state && contextWindowOf(this.services, this.state, this.chosenModel.id);
  }

  /** A copy of the conversation so far (empty before initialization of a new session). */
  getHistory(): Content[] {
    return this.state?.history.snapshot() ?? structuredClone(this.preopenedLog?.history ?? []);
  }

  /** The calls waiting for a decision after `approval_required` (stored: also after a resume elsewhere). */
  get pendingApprovals(): ApprovalRequest[] {
    return this.pause.pending;
  }

  /**
   * Sends a prompt and streams the agent's events until it answers without tool calls (or stops on a limit,
   * abort or approvals). Rejects with a typed error when something fails; the history stays valid either way.
   *
   * @throws SessionBusyError when another `sendStream` of this session is still running.
   */
  async *sendStream(
    prompt: string | Part[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    const parts = toParts(prompt);
    yield* this.run(signal, parts, async (state, turnParts) => ({
      start: promptStart(this.pause, state, this.id, turnParts ?? parts),
    }));
  }

  /** Sends a prompt and collects the whole answer. Same semantics as {@link GeminiCliSession.sendStream}. */
  async send(prompt: string | Part[], options: { signal?: AbortSignal } = {}): Promise<SendResult> {
    const before = this.usage;
    const events: ServerGeminiStreamEvent[] = [];
    for await (const event of this.sendStream(prompt, options.signal)) events.push(event);
    const text = answerText(events);
    return { text, events, usage: subtractUsage(this.usage, before) };
  }

  /**
   * Decides the calls of the last `approval_required` (after a restart too) and continues: approved calls run once,
   * refused ones answer the model with an error. Decisions: `{ callId, decision }` (`'allow'`, `'allow_always'`,
   * `'deny'` or `{ decision, message }`, optionally `argsHash`). Fails closed: a call without a decision, with
   * changed arguments, expired (`approvalTtlMs`) or whose tool is gone is denied; decisions are stored first.
   *
   * @throws ConfigurationError when nothing waits, or a decision is invalid or names no waiting call.
   */
  async *resolveApprovals(
    decisions: readonly SessionApprovalDecision[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    if (!this.pause.waiting) throw noPendingApprovals();
    yield* this.run(signal, undefined, (state) =>
      approvalsStart(
        { session: this, services: this.services, pause: this.pause, policy: this.policy },
        state,
        decisions,
        signal,
      ),
    );
  }

  /** Copies the stored conversation into a new, opened session (new id); held calls answer as interrupted there. */
  async fork(
    options: { sessionId?: string; signal?: AbortSignal } = {},
  ): Promise<GeminiCliSession> {
    const state = await this.ensureState(options.signal);
    const forkId = await this.services.persistence.forkSession(this.id, options.sessionId, {
      cwd: state.workspace.cwd,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return GeminiCliSession.resume(this.agent, this.services, forkId, state.workspace.cwd);
  }

  /**
   * Compresses the history now (gemini-cli's `/compress`; PreCompress `manual`), stored for resume; resolves with
   * the outcome (`compressionStatus` 1 when compressed). See docs/context.md.
   * @throws SessionBusyError while a `sendStream` of this session runs.
   */
  async compress(signal?: AbortSignal): Promise<ChatCompressedInfo> {
    if (this.running) throw sessionBusyError(this.id);
    this.running = true;
    try {
      const state = await this.ensureState(signal);
      const { services, chosenModel, totalUsage: usage, turns } = this;
      const run = { services, state, model: chosenModel.id, usage, signal };
      return await compressNow(run, this, turns, (event) => this.emit(event));
    } finally {
      this.running = false;
    }
  }

  /** The session's budget: `limits`, `spent` (stored with the session) and `paused` (a turn waiting on it). */
  get budget(): budgets.SessionBudget | undefined {
    return this.state && budgets.budgetView(this.state.budget);
  }

  /** Raises the budget's limits by these amounts (stored with the session); `resumeTurn()` then continues. */
  async extendBudget(more: Budget): Promise<void> {
    await budgets.extendSessionBudget(await this.ensureState(), this.turns, more, this.running);
  }

  /**
   * Continues the turn that ended with `budget_exceeded`, exactly where it stopped (after a restart too).
   * @throws ConfigurationError when no turn is paused on the budget.
   */
  async *resumeTurn(signal?: AbortSignal): AsyncGenerator<ServerGeminiStreamEvent, void> {
    yield* this.run(signal, undefined, async (state) => ({
      start: budgets.continueStart(state, this.id),
    }));
  }

  /** True while a `sendStream` or `resolveApprovals` of this session runs. */
  get streaming(): boolean {
    return this.running;
  }

  /**
   * Runs the features' teardowns (last feature first), then releases the lease, so another session or process can
   * open it. Idempotent; afterwards use `agent.resumeSession(id)`. Also `await using session`.
   * @throws SessionError `FEATURE_DISPOSE_FAILED` when a teardown failed (the others ran; the lease is released).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.state) return this.release(this.state);
    this.services.openSessions.remove(this);
    await this.preopenedLog?.close();
  }

  /** `await using session = agent.session()` closes the session at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async *run(
    signal: AbortSignal | undefined,
    prompt: Part[] | undefined,
    firstStart: FirstStart,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    if (this.running) throw sessionBusyError(this.id);
    this.running = true;
    const pump = (this.currentPump = new EventPump());
    this.currentSignal = signal;
    for (const event of this.pendingEvents.splice(0)) pump.emit(event);
    try {
      const state = await this.ensureState(signal);
      const control = new TurnControl();
      let runs = 0;
      const terminal = (turn: Turn): TurnEvents =>
        this.loopRun(state, pump, control, turn, runs++ === 0 ? firstStart : undefined, prompt);
      const turn: Turn = { session: this, prompt, signal, stop: control.stop };
      yield* this.turns.during(state.log, pump, this.services.chains.turnChain(terminal)(turn));
    } finally {
      this.currentPump = undefined;
      this.currentSignal = undefined;
      this.running = false;
    }
  }

  /** One loop run of a turn: the first starts as the turn asked; a later one (a retry) from `turn.prompt`. */
  private async *loopRun(
    state: SessionState,
    pump: EventPump,
    control: TurnControl,
    turn: Turn,
    firstStart: FirstStart | undefined,
    prompt: Part[] | undefined,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    const parts = turn.prompt === prompt ? prompt : turn.prompt && toParts(turn.prompt);
    const begin = await turnStart(firstStart, state, parts, () => this.pause, this.id);
    yield* begin.events ?? [];
    const { services, pause, totalUsage: usage, chosenModel: model, policy, turns } = this;
    const deps = { services, state, pause, pump, control, usage, model, policy, turns };
    yield* runAgentLoop(loopEnvironment({ ...deps, session: this }), begin.start, turn.signal);
  }

  /** Into the running stream, or the next one when none runs. */
  private emit(event: ServerGeminiStreamEvent): void {
    if (this.currentPump) this.currentPump.emit(event);
    else this.pendingEvents.push(event);
  }

  private ensureState(signal?: AbortSignal): Promise<SessionState> {
    if (this.closed) return Promise.reject(sessionClosedError(this.id));
    if (this.state) return Promise.resolve(this.state);
    this.initializing ??= this.createState(signal).then(
      (state) => (this.state = state),
      (error: unknown) => {
        this.initializing = undefined;
        throw error;
      },
    );
    return this.initializing;
  }

  private async createState(signal: AbortSignal | undefined): Promise<SessionState> {
    const state = await createSessionState({
      services: this.services,
      session: this,
      agent: this.agent,
      policy: this.policy,
      pauseFor: (log) => {
        // A chosen id that continues a stored session brings that session's paused turn.
        if (log !== this.preopenedLog) this.pause = new SessionPause(log.pausedTurn);
        return this.pause;
      },
      preopenedLog: this.preopenedLog,
      chosenId: this.chosenId,
      emit: (event) => this.emit(event),
      signal,
      budgetLimits: this.budgetLimits,
      nested: { usage: this.totalUsage, model: () => this.chosenModel.id },
    });
    if (this.closed) {
      // close() ran while the session initialized: undo what the features set up.
      await this.release(state);
      throw sessionClosedError(this.id);
    }
    this.turns.attach(state.log, (value) => this.emit({ type: 'warning', value }));
    this.turns.budget = state.budget;
    if (!this.running) await this.turns.end(state.log); // initialize() outside a turn: the lease goes idle
    return state;
  }

  /** Runs the features' disposes (reverse order), then gives the lease back and closes the log. */
  private async release(state: SessionState): Promise<void> {
    try {
      await runTeardowns(state.disposes, `Closing session ${this.id}`);
    } finally {
      this.services.openSessions.remove(this);
      await state.log.close();
    }
  }
}
