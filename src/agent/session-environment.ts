import {
  createSessionContext,
  type AgentHandle,
  type SessionContext,
  type SessionHandle,
} from '../core/session-context.js';
import { addUsage, type ContextWindowUsage, type TokenUsage } from '../core/usage.js';
import type { SessionLogEntry } from '../core/session-log.js';
import type { EventPump } from '../loop/event-pump.js';
import type { LoopEnvironment } from '../loop/loop-types.js';
import type { TurnControl } from '../loop/turn-control.js';
import type { SessionPause } from '../policy/approvals/session-pause.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { AgentServices } from './agent-services.js';
import { prepareModelCall } from './prepare-model-call.js';
import { retryNote, storeNote } from '../sessions/session-notes.js';
import type { SessionModel } from './session-model.js';
import type { SessionState } from './session-state.js';
import type { SessionTurns } from './session-turn.js';

/** The session as its context shows it: itself, and its agent. */
export type OwnSession = SessionHandle & { readonly agent: AgentHandle };

/** A fresh context for tools, providers and interceptors of a session; its `signal` is the given one. */
export function sessionContext(
  session: OwnSession,
  state: SessionState,
  signal: AbortSignal,
): SessionContext {
  return createSessionContext(
    {
      sessionId: session.id,
      history: state.history.view(),
      cwd: state.workspace.cwd,
      fs: state.workspace.fs,
      shell: state.workspace.shell,
      agent: session.agent,
      session,
    },
    signal,
  );
}

/** What one loop run of a session needs besides its state. */
export interface LoopRunParts {
  session: OwnSession;
  services: AgentServices;
  state: SessionState;
  pause: SessionPause;
  pump: EventPump;
  control: TurnControl;
  /** The session's running usage total (added to in place). */
  usage: TokenUsage;
  /** The session's model choice: the id this run sends, announced (`model_info`) once per change. */
  model: SessionModel;
  /** The session's policy: it decides which tools the model is offered, and its decisions are stored with the calls. */
  policy: Pick<SessionPolicy, 'offered' | 'takeDecisions'>;
  /** Stores the session's new "always allow" grants with the session, before each commit. */
  turns: Pick<SessionTurns, 'saveGrants' | 'saveBudget'>;
}

/** A tool_results entry with the policy's decisions on its calls (stored as `toolCalls[].sdkApproval`). */
function withDecisions(
  entry: SessionLogEntry,
  policy: Pick<SessionPolicy, 'takeDecisions'>,
): SessionLogEntry {
  const ids =
    entry.responses?.map((r) => r.callId) ??
    (entry.content.parts ?? []).flatMap((p) =>
      p.functionResponse?.id === undefined ? [] : [p.functionResponse.id],
    );
  const approvals = policy.takeDecisions(ids);
  return Object.keys(approvals).length === 0 ? entry : { ...entry, approvals };
}

/** The loop's view of a session for one run: history and log, the features' chains, limits, events. */
export function loopEnvironment(parts: LoopRunParts): LoopEnvironment {
  const { session, services, state, pause } = parts;
  const generationConfig = services.generationConfig(parts.model.id);
  return {
    sessionId: session.id,
    modelName: parts.model.id,
    ...(generationConfig ? { generationConfig } : {}),
    history: state.history,
    commit: async (entry) => {
      state.history.push(entry.content);
      await parts.turns.saveGrants(state.log);
      // The spending of the model calls before this message is stored first, so a process killed later in the
      // turn cannot forget money it spent (a resume would otherwise count from the last turn's end).
      await parts.turns.saveBudget(state.log);
      await state.log.append(
        entry.kind === 'tool_results' ? withDecisions(entry, parts.policy) : entry,
      );
    },
    commitPause: (paused) => pause.commit(paused, state.log),
    prepare: (ctx) =>
      prepareModelCall(services, ctx, {
        preamble: state.preamble,
        offered: (tools, signal) => parts.policy.offered(tools, signal),
      }),
    contextFor: (signal) => sessionContext(session, state, signal),
    chains: { callModel: state.callModel, ...services.chains.tools },
    control: parts.control,
    limits: services.limits,
    streamRetry: services.streamRetry,
    onRetry: (info) => storeNote(state.log, retryNote(info), services.logger),
    logger: services.logger,
    onUsage: (usage) => {
      addUsage(parts.usage, usage);
      // The model turn is not committed yet: the count is for the history as it is now.
      if (usage?.promptTokenCount !== undefined)
        state.context.calibrate(state.history.length, usage.promptTokenCount);
      state.budget.record(parts.model.id, usage);
    },
    budget: {
      check: (inputTokens) => state.budget.check(parts.model.id, inputTokens),
      pause: async (info) => {
        state.budget.paused = info;
        await state.log.saveBudgetState?.(state.budget.toState());
      },
    },
    context: state.context,
    tokenLimit: services.context.tokenLimit(parts.model.id),
    compress: (ctx, signal) =>
      state.compressor.run(
        {
          services,
          state,
          model: parts.model.id,
          usage: parts.usage,
          ctx,
          emit: parts.pump.emit,
          signal,
        },
        false,
      ),
    takeModelInfo: () => parts.model.takeAnnouncement(),
    pump: parts.pump,
  };
}

/** `session.contextWindow`: the session's history against its model's context window. */
export function contextWindowOf(
  services: AgentServices,
  state: SessionState,
  model: string,
): ContextWindowUsage {
  return {
    model,
    tokenLimit: services.context.tokenLimit(model),
    lastPromptTokenCount: state.context.lastCount,
    estimatedTokens: state.context.estimate(state.history.view()),
    compressionThreshold: services.context.compressionThreshold,
  };
}
