import type { Content, Part } from '@google/genai';
import { ConfigurationError, SessionBusyError, SessionError } from '../errors.js';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { runAgentLoop } from '../loop/agent-loop.js';
import { ConversationHistory } from '../loop/conversation-history.js';
import { EventPump } from '../loop/event-pump.js';
import type {
  ApprovalDecision,
  LoopEnvironment,
  LoopStart,
  PausedTurn,
  PreparedModelCall,
} from '../loop/loop-types.js';
import { addUsage, emptyUsage, type TokenUsage } from '../loop/usage.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { SkillManager } from '../skills/skill-manager.js';
import type { Workspace } from '../workspace/workspace.js';
import type { GeminiCliAgent } from './agent.js';
import type { AgentServices } from './agent-services.js';
import { renderInstructions } from './instructions.js';
import { createSessionContext } from './session-context.js';
import type { SessionLog } from './session-persistence.js';
import { composeSystemInstruction } from './system-instruction.js';
import type { SessionContext } from './types.js';

/** Result of {@link GeminiCliSession.send}. */
export interface SendResult {
  /** The concatenated `content` events (the model's visible text). */
  text: string;
  /** Every event the stream yielded, in order. */
  events: ServerGeminiStreamEvent[];
  /** Tokens used by this call only. */
  usage: TokenUsage;
}

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
export class GeminiCliSession {
  /** The session id (a random UUID unless given). */
  readonly id: string;
  /** The agent that created this session. */
  readonly agent: GeminiCliAgent;
  private readonly services: AgentServices;
  private readonly preopenedLog: SessionLog | undefined;
  private state: SessionState | undefined;
  private initializing: Promise<SessionState> | undefined;
  private running = false;
  private modelInfoSent = false;
  private pendingTurn: PausedTurn | undefined;
  private readonly totalUsage: TokenUsage = emptyUsage();
  private currentPump: EventPump | undefined;

  /** @internal Use `agent.session()` / `agent.resumeSession()`. */
  constructor(agent: GeminiCliAgent, services: AgentServices, id: string, log?: SessionLog) {
    this.agent = agent;
    this.services = services;
    this.id = id;
    this.preopenedLog = log;
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

  /** Cumulative token usage of all model calls of this session object. */
  get usage(): TokenUsage {
    return { ...this.totalUsage };
  }

  /** A copy of the conversation so far (empty before initialization of a new session). */
  getHistory(): Content[] {
    return this.state?.history.snapshot() ?? structuredClone(this.preopenedLog?.history ?? []);
  }

  /** The calls waiting for a decision after a stream ended with `approval_required`. */
  get pendingApprovals(): ApprovalRequest[] {
    return (this.pendingTurn?.outcomes ?? []).flatMap((o) =>
      o.kind === 'paused' ? [o.paused.approval] : [],
    );
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
    yield* this.run(signal, (abandoned) => ({
      kind: 'prompt',
      parts,
      ...(abandoned ? { abandoned } : {}),
    }));
  }

  /** Sends a prompt and collects the whole answer. Same semantics as {@link GeminiCliSession.sendStream}. */
  async send(prompt: string | Part[], options: { signal?: AbortSignal } = {}): Promise<SendResult> {
    const before = this.usage;
    const events: ServerGeminiStreamEvent[] = [];
    for await (const event of this.sendStream(prompt, options.signal)) events.push(event);
    const text = events.map((e) => (e.type === 'content' ? e.value : '')).join('');
    return { text, events, usage: diffUsage(this.usage, before) };
  }

  /**
   * Decides the calls listed by the last `approval_required` event and continues the conversation: allowed
   * calls run, denied ones answer the model with an error. Calls without a decision are denied.
   */
  async *resolveApprovals(
    decisions: readonly ApprovalDecision[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    yield* this.run(signal, (paused) => {
      if (!paused) {
        throw new ConfigurationError('No tool calls are waiting for approval in this session.');
      }
      return { kind: 'approvals', paused, decisions };
    });
  }

  /** Releases the session's store (locks, handles). The session cannot be used afterwards. */
  async close(): Promise<void> {
    const state = this.state;
    if (state) await state.log.close();
    else await this.preopenedLog?.close();
  }

  private async *run(
    signal: AbortSignal | undefined,
    makeStart: (paused: PausedTurn | undefined) => LoopStart,
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
      const start = makeStart(this.pendingTurn);
      this.pendingTurn = undefined;
      const pump = new EventPump();
      this.currentPump = pump;
      const outcome = yield* runAgentLoop(this.environment(state, pump), start, signal);
      if (outcome.kind === 'paused') this.pendingTurn = outcome.paused;
    } finally {
      this.currentPump = undefined;
      this.running = false;
    }
  }

  private ensureState(signal?: AbortSignal): Promise<SessionState> {
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
    const workspace = services.createWorkspace();
    const model = await services.createModel({
      onRetry: () => this.currentPump?.emit({ type: 'retry' }),
    });
    const log =
      this.preopenedLog ??
      (await services.persistence.open(this.id, { resume: false, cwd: workspace.cwd }));
    const history = new ConversationHistory(log.history);
    for (const init of services.initializers) {
      await init({
        sessionId: this.id,
        workspace,
        logger: services.logger,
        ...(signal ? { signal } : {}),
      });
    }
    return { model, history, log, workspace };
  }

  private environment(state: SessionState, pump: EventPump): LoopEnvironment {
    const { services } = this;
    const contextFor = (signal: AbortSignal): SessionContext =>
      createSessionContext(
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
    return {
      sessionId: this.id,
      model: state.model,
      modelName: services.modelName,
      ...(services.generationConfig ? { generationConfig: services.generationConfig } : {}),
      history: state.history,
      commit: async (entry) => {
        state.history.push(entry.content);
        await state.log.append(entry);
      },
      prepare: (ctx) => this.prepare(ctx),
      contextFor,
      gate: services.gate,
      limits: services.limits,
      logger: services.logger,
      onUsage: (usage) => addUsage(this.totalUsage, usage),
      takeModelInfo: () => {
        if (this.modelInfoSent) return undefined;
        this.modelInfoSent = true;
        return services.modelName;
      },
      pump,
    };
  }

  private async prepare(ctx: SessionContext): Promise<PreparedModelCall> {
    const { services } = this;
    const instructions = await renderInstructions(services.instructions, ctx);
    const sections: Array<string | undefined> = [];
    for (const provider of services.sectionProviders) sections.push(await provider(ctx));
    const tools = [];
    for (const provider of services.toolProviders) tools.push(...(await provider(ctx)));
    const systemInstruction = composeSystemInstruction(sections, instructions);
    return {
      ...(systemInstruction === undefined ? {} : { systemInstruction }),
      registry: new ToolRegistry(tools),
    };
  }
}

function toParts(prompt: string | Part[]): Part[] {
  if (typeof prompt === 'string') {
    if (prompt === '') {
      throw new ConfigurationError(
        'The prompt is empty: pass a non-empty string or at least one Part.',
      );
    }
    return [{ text: prompt }];
  }
  if (!Array.isArray(prompt) || prompt.length === 0) {
    throw new ConfigurationError(
      'The prompt must be a non-empty string or a non-empty array of Parts.',
    );
  }
  return structuredClone(prompt);
}

function diffUsage(after: TokenUsage, before: TokenUsage): TokenUsage {
  const out = emptyUsage();
  for (const key of Object.keys(out) as Array<keyof TokenUsage>)
    out[key] = after[key] - before[key];
  return out;
}
