import type { Content, Part } from '@google/genai';
import { SessionBusyError, SessionError } from '../errors.js';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import { ConversationHistory } from '../loop/conversation-history.js';
import { EventPump } from '../loop/event-pump.js';
import type { LoopEnvironment, LoopStart } from '../loop/loop-types.js';
import { addUsage, emptyUsage, subtractUsage, type TokenUsage } from '../core/usage.js';
import type { SkillManager } from '../skills/skill-manager.js';
import type { Workspace } from '../workspace/workspace.js';
import type { AgentServices } from './agent-services.js';
import { offeredTools, prepareModelCall } from './prepare-model-call.js';
import { createSessionContext } from '../core/session-context.js';
import type { SessionApprovalDecision } from './approval-resolution.js';
import { toParts } from './prompt-parts.js';
import { answerText } from './answer-text.js';
import { noPendingApprovals, SessionPause } from './session-pause.js';
import { openSessionLog } from './open-session-log.js';
import type { SessionLog } from '../core/session-log.js';
import { SessionPolicy, type ApprovalLogEntry } from './session-policy.js';
import type { ApprovalMode } from '../policy/policy-rule.js';
import type { AgentHandle, SessionContext, SessionHandle } from '../core/session-context.js';
import type { SendResult } from './send-result.js';
import { SessionModel } from './session-model.js';

interface SessionState {
  model: ContentGenerator;
  history: ConversationHistory;
  log: SessionLog;
  workspace: Workspace;
}

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
  /**
   * This session's policy: `mode` / `setMode(mode)`, `explain(call)` (the rule that decides), its "always allow"
   * `rules` and the decision `log`.
   */
  readonly policy: SessionPolicy;

  /**
   * @internal Reopens a stored session (see `GeminiCliAgent.resumeSession`): takes the lease over from an idle
   * session of the same agent, opens the log and registers the new session as the lease holder.
   */
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
    this.policy = new SessionPolicy(services.policy, {
      emit: (event) => this.currentPump?.emit(event),
      signal: () => this.currentSignal,
    });
  }

  /**
   * Prepares the session: the model, the workspace, the stored history and the features' initializers. Done
   * lazily by the first `sendStream`; calling it again is a no-op.
   */
  async initialize(signal?: AbortSignal): Promise<void> {
    await this.ensureState(signal);
  }

  /**
   * The agent's skills (`list()`, `enable(name)`, `disable(name)`): the SDK's `/skills list|enable|disable`. The
   * `activate_skill` tool follows on the next model call.
   *
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
    return { ...this.totalUsage };
  }

  /** A copy of the conversation so far (empty before initialization of a new session). */
  getHistory(): Content[] {
    return this.state?.history.snapshot() ?? structuredClone(this.preopenedLog?.history ?? []);
  }

  /**
   * The calls waiting for a decision after a stream ended with `approval_required` — also after
   * `agent.resumeSession(id)` in another process: the paused turn is stored with the session.
   */
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
    yield* this.run(signal, async (state) => {
      const abandoned = this.pause.abandon(state.history.view(), this.id);
      return { start: { kind: 'prompt', parts, ...(abandoned ? { abandoned } : {}) } };
    });
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
   * Decides the calls listed by the last `approval_required` event and continues the conversation: approved
   * calls run (each exactly once), refused ones answer the model with an error. Works after a restart too:
   * `(await agent.resumeSession(id)).resolveApprovals(...)`.
   *
   * Decisions are `{ callId, decision }` with `'allow'`, `'allow_always'`, `'deny'` or `{ decision, message }`
   * (optionally `argsHash`: the hash of the arguments the human saw). Fails closed: a call without a decision,
   * whose arguments changed since it paused (e.g. the stored session was edited), whose approval expired
   * (`approvalTtlMs`) or whose tool is gone is denied; the decisions are stored before any tool runs.
   *
   * @throws ConfigurationError when nothing waits for approval, or a decision is invalid or names no waiting call
   *   (nothing is run or recorded then).
   */
  async *resolveApprovals(
    decisions: readonly SessionApprovalDecision[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    if (!this.pause.waiting) throw noPendingApprovals();
    yield* this.run(signal, async (state) => {
      const resolution = await this.pause.resolve({
        decisions,
        history: state.history.view(),
        loadTools: () =>
          offeredTools(
            this.services,
            this.contextFor(state, signal ?? new AbortController().signal),
          ),
        log: state.log,
        sessionId: this.id,
        now: new Date(),
        approvalTtlMs: this.services.approvalTtlMs,
      });
      for (const v of resolution.verdicts) {
        if (v.undecided) this.policy.logResolutions([v.request], []);
        else await this.policy.recordDecision(v.request, v.decision, v.message);
      }
      const events = resolution.denied.map((value): ServerGeminiStreamEvent => ({
        type: 'tool_call_response',
        value,
      }));
      return { start: resolution.start, events };
    });
  }

  /**
   * Copies this session's stored conversation into a new session (a new id, default a random UUID) and returns
   * it, opened. This session stays open. A paused turn is not copied: in the fork its held calls are answered as
   * interrupted.
   */
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

  /** True while a `sendStream` or `resolveApprovals` of this session runs. */
  get streaming(): boolean {
    return this.running;
  }

  /**
   * Releases the session's lease (and file handle), so another session or process can open it. Idempotent; the
   * session cannot be used afterwards (resume it with `agent.resumeSession(id)`). Also `await using session = …`.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const log = this.state?.log ?? this.preopenedLog;
    this.services.openSessions.remove(this);
    await log?.close();
  }

  /** `await using session = agent.session()` closes the session at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async *run(
    signal: AbortSignal | undefined,
    makeStart: (
      state: SessionState,
    ) => Promise<{ start: LoopStart; events?: ServerGeminiStreamEvent[] }>,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    if (this.running) {
      throw new SessionBusyError(
        `Session ${this.id} is already streaming a response. Wait for the running sendStream to finish ` +
          `(or abort it) before sending again.`,
      );
    }
    this.running = true;
    try {
      const state = await this.ensureState(signal);
      const { start, events = [] } = await makeStart(state);
      yield* events;
      const pump = new EventPump();
      this.currentPump = pump;
      this.currentSignal = signal;
      const loop = runAgentLoop(this.environment(state, pump), start, signal);
      yield* this.pause.storeBeforeAnnouncing(loop, state.log);
    } finally {
      this.currentPump = undefined;
      this.currentSignal = undefined;
      this.running = false;
    }
  }

  private ensureState(signal?: AbortSignal): Promise<SessionState> {
    if (this.closed) {
      return Promise.reject(
        new SessionError(
          `Session ${this.id} is closed. Continue it with the session returned by agent.resumeSession(` +
            `${JSON.stringify(this.id)}).`,
          { code: 'SESSION_CLOSED' },
        ),
      );
    }
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

  private async createState(signal?: AbortSignal): Promise<SessionState> {
    const { services } = this;
    // Builds the policy engine first: a bad policy file fails here, before anything is opened.
    await this.policy.engine(signal);
    const workspace = services.createWorkspace(this.policy.commandCheck);
    const model = await services.createModel({
      sessionId: this.id,
      onRetry: (value) => this.currentPump?.emit({ type: 'retry', value }),
    });
    const log =
      this.preopenedLog ??
      (await openSessionLog(services, this.id, { chosenId: this.chosenId, cwd: workspace.cwd }));
    if (log !== this.preopenedLog) this.pause = new SessionPause(log.pausedTurn);
    services.openSessions.add(this);
    try {
      const history = new ConversationHistory(log.history);
      await this.pause.closeUnfinished(history, log, this.id);
      for (const init of services.initializers) {
        await init({
          sessionId: this.id,
          workspace,
          logger: services.logger,
          ...(signal ? { signal } : {}),
        });
      }
      return { model, history, log, workspace };
    } catch (error) {
      if (this.preopenedLog === undefined) {
        // A new session that failed to initialize gives its lease back (a resumed one keeps it until close()).
        services.openSessions.remove(this);
        await log.close();
      }
      throw error;
    }
  }

  /** A fresh context for tools and providers; its `signal` is the given one. */
  private contextFor(state: SessionState, signal: AbortSignal): SessionContext {
    return createSessionContext(
      {
        sessionId: this.id,
        history: state.history.view(),
        cwd: state.workspace.cwd,
        fs: state.workspace.fs,
        shell: state.workspace.shell,
        agent: this.agent,
        session: this,
      },
      signal,
    );
  }

  private environment(state: SessionState, pump: EventPump): LoopEnvironment {
    const { services } = this;
    const contextFor = (signal: AbortSignal): SessionContext => this.contextFor(state, signal);
    return {
      sessionId: this.id,
      model: state.model,
      modelName: this.model,
      ...(services.generationConfig ? { generationConfig: services.generationConfig } : {}),
      history: state.history,
      commit: async (entry) => {
        state.history.push(entry.content);
        await state.log.append(entry);
      },
      prepare: (ctx) => prepareModelCall(services, ctx),
      contextFor,
      gate: services.createGate(this.policy),
      limits: services.limits,
      streamRetry: services.streamRetry,
      logger: services.logger,
      onUsage: (usage) => addUsage(this.totalUsage, usage),
      takeModelInfo: () => this.chosenModel.takeAnnouncement(),
      pump,
    };
  }
}
