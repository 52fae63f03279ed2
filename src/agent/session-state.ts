import type { Part } from '@google/genai';
import type { FeatureDispose } from '../core/feature.js';
import type { AgentHandle, SessionHandle } from '../core/session-context.js';
import type { SessionLog } from '../core/session-log.js';
import { ConfigurationError, SessionBusyError, SessionError } from '../errors.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import { ContextTracker } from '../loop/context-window.js';
import { ConversationHistory } from '../loop/conversation-history.js';
import type { LoopChains, LoopStart } from '../loop/loop-types.js';
import type { SessionPause } from '../policy/approvals/session-pause.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { Workspace } from '../workspace/workspace.js';
import type { AgentServices } from './agent-services.js';
import { openSessionLog } from './open-session-log.js';
import { retryNote, storeNote } from '../sessions/session-notes.js';
import { SessionCompressor } from './session-compression.js';
import { BudgetTracker, type Budget } from '../context/budget.js';
import type { LeaseHolder } from './open-sessions.js';
import { runTeardowns } from './teardown.js';
import type { TokenUsage } from '../core/usage.js';
import { createSessionRuntime } from './session-runtime.js';
import type { SessionPreamble } from './session-preamble.js';

/** How the first loop run of a turn starts (later runs, retries of a turn interceptor, start from a prompt). */
export type FirstStart = (
  state: SessionState,
  prompt: Part[] | undefined,
) => Promise<{ start: LoopStart; events?: ServerGeminiStreamEvent[] }>;

/** What an initialized session works with. */
export interface SessionState {
  history: ConversationHistory;
  log: SessionLog;
  workspace: Workspace;
  /** The features' model interceptors around this session's model. */
  callModel: LoopChains['callModel'];
  /** What the features' `initialize` returned, in feature order (run in reverse on close). */
  disposes: FeatureDispose[];
  /** The session's context files and `<session_context>`. */
  preamble: SessionPreamble;
  /** The context accounting of the history (calibrated by each model call's `promptTokenCount`). */
  context: ContextTracker;
  /** Compresses the history (automatically before model calls, or `session.compress()`). */
  compressor: SessionCompressor;
  /** The session's budget: limits, spent (stored with the session), a pause. */
  budget: BudgetTracker;
}

/** What {@link createSessionState} needs from the session. */
export interface SessionStateInput {
  services: AgentServices;
  session: SessionHandle & LeaseHolder;
  agent: AgentHandle;
  policy: SessionPolicy;
  /** The session's durable approvals for the log it opened (a continued session brings its paused turn). */
  pauseFor(log: SessionLog): SessionPause;
  /** The log of a resumed (or forked) session, opened already. */
  preopenedLog: SessionLog | undefined;
  /** The caller chose the id (`agent.session({ sessionId })`): a stored session of that id is continued. */
  chosenId: boolean;
  /** Puts an event into the session's stream (the running one, or the next). */
  emit(event: ServerGeminiStreamEvent): void;
  signal: AbortSignal | undefined;
  /** This session's own budget limits (`session({ budget })`, `resumeSession(id, { budget })`), over the agent's. */
  budgetLimits?: Budget | undefined;
  /** The session's usage total and model choice, for nested conversations (subagents) in it. */
  nested: { usage: TokenUsage; model(): string };
}

/** A prompt's start: a turn still waiting for approvals is answered first (its held calls did not run). */
export function promptStart(
  pause: SessionPause,
  state: SessionState,
  sessionId: string,
  parts: Part[],
): LoopStart {
  state.budget.paused = undefined; // a new prompt replaces a turn paused on the budget
  const abandoned = pause.abandon(state.history.view(), sessionId);
  return { kind: 'prompt', parts, ...(abandoned ? { abandoned } : {}) };
}

/**
 * How one loop run of a turn starts: the first as the turn asked (`firstStart`); a later one (a turn interceptor's
 * retry) from the prompt it passed.
 *
 * @throws ConfigurationError for a retry without a prompt.
 */
export async function turnStart(
  firstStart: FirstStart | undefined,
  state: SessionState,
  parts: Part[] | undefined,
  pause: () => SessionPause,
  sessionId: string,
): Promise<{ start: LoopStart; events?: ServerGeminiStreamEvent[] }> {
  if (firstStart) return firstStart(state, parts);
  if (parts) return { start: promptStart(pause(), state, sessionId, parts) };
  throw new ConfigurationError(
    'A turn interceptor called next() again without a prompt: pass one, next({ ...turn, prompt }).',
  );
}

/** The error for a second `sendStream` while one runs. */
export function sessionBusyError(sessionId: string): SessionBusyError {
  return new SessionBusyError(
    `Session ${sessionId} is already streaming a response. Wait for the running sendStream to finish ` +
      `(or abort it) before sending again.`,
  );
}

/** The error for using a closed session. */
export function sessionClosedError(sessionId: string): SessionError {
  return new SessionError(
    `Session ${sessionId} is closed. Continue it with the session returned by agent.resumeSession(` +
      `${JSON.stringify(sessionId)}).`,
    { code: 'SESSION_CLOSED' },
  );
}

/**
 * Initializes a session: the policy engine (a bad policy file fails first, before anything is opened), the
 * workspace, the model, the log (taking the lease), the stored history (closing a turn whose process died while
 * its approved tools ran), then every feature's `initialize` in order. On failure, what was set up is undone: the
 * features initialized so far are disposed, and a new session gives its lease back.
 */
export async function createSessionState(input: SessionStateInput): Promise<SessionState> {
  const { services, session, policy } = input;
  await policy.engine(input.signal);
  const workspace = services.createWorkspace(policy.commandCheck);
  // Connection retries are stored in the session's log once it is open (the model is made first).
  const opening: { log?: SessionLog } = {};
  const model = await services.createModel({
    sessionId: session.id,
    onRetry: (value) => {
      storeNote(opening.log, retryNote(value), services.logger);
      input.emit({ type: 'retry', value });
    },
  });
  const opened =
    input.preopenedLog === undefined
      ? await openSessionLog(services, session.id, { chosenId: input.chosenId, cwd: workspace.cwd })
      : { log: input.preopenedLog, resumed: true };
  const { log } = opened;
  opening.log = log;
  const pause = input.pauseFor(log);
  services.openSessions.add(session);
  const disposes: FeatureDispose[] = [];
  try {
    const history = new ConversationHistory(log.history);
    await pause.closeUnfinished(history, log, session.id);
    const callModel = services.chains.modelChain(model);
    const loaded: { preamble?: SessionPreamble } = {};
    const budget = new BudgetTracker(
      { ...services.budget.limits, ...input.budgetLimits },
      services.budget.prices,
      log.budgetState,
    );
    const runtime = createSessionRuntime({
      services,
      session,
      agent: input.agent,
      workspace,
      preamble: () => loaded.preamble,
      callModel,
      policy,
      ...input.nested,
      generator: model,
      budget,
    });
    for (const feature of services.features) {
      if (feature.initialize === undefined) continue;
      const dispose = await feature.initialize({
        sessionId: session.id,
        session,
        agent: input.agent,
        resumed: opened.resumed,
        transcriptPath: log.file,
        workspace,
        logger: services.logger,
        signal: input.signal,
        emit: input.emit,
        runtime,
      });
      if (typeof dispose === 'function') disposes.push(dispose);
    }
    const preamble = await services.loadPreamble(workspace);
    loaded.preamble = preamble;
    return {
      history,
      log,
      workspace,
      callModel,
      disposes,
      preamble,
      context: new ContextTracker(),
      compressor: new SessionCompressor(model),
      budget,
    };
  } catch (error) {
    await runTeardowns(disposes, `Session ${session.id}`).catch((disposeError: unknown) =>
      services.logger.warn('feature teardown failed after a failed initialization', {
        sessionId: session.id,
        error: String(disposeError),
      }),
    );
    if (input.preopenedLog === undefined) {
      // A new session that failed to initialize gives its lease back (a resumed one keeps it until close()).
      services.openSessions.remove(session);
      await log.close();
    }
    throw error;
  }
}
