import type { SessionRuntime } from '../core/session-runtime.js';
import type { SessionHandle, AgentHandle } from '../core/session-context.js';
import { createSessionContext } from '../core/session-context.js';
import { addUsage, emptyUsage, type TokenUsage } from '../core/usage.js';
import type { LoopChains } from '../loop/loop-types.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { Workspace } from '../workspace/workspace.js';
import type { AgentServices } from './agent-services.js';
import { offeredTools } from './prepare-model-call.js';
import type { SessionPreamble } from './session-preamble.js';
import { buildSystemPrompt } from './system-prompt.js';

/** What {@link createSessionRuntime} builds a session's runtime from. */
export interface SessionRuntimeParts {
  services: AgentServices;
  session: SessionHandle;
  agent: AgentHandle;
  workspace: Workspace;
  /** The session's preamble, once loaded (after the features initialized). */
  preamble(): SessionPreamble | undefined;
  callModel: LoopChains['callModel'];
  policy: Pick<SessionPolicy, 'offered' | 'mode'>;
  /** The session's model id now. */
  model(): string;
  /** The session's usage total (added to in place). */
  usage: TokenUsage;
}

/**
 * The session's {@link SessionRuntime}: its model chain, the agent's decision and tool chains, its tools as its
 * policy offers them, and its store — what a subagent runs on. Nested model calls count in the session's usage,
 * and under `usage.subagents[name]`.
 */
export function createSessionRuntime(parts: SessionRuntimeParts): SessionRuntime {
  const { services, session, workspace, preamble, usage } = parts;
  return {
    sessionId: session.id,
    model: parts.model,
    generationConfig: (model) => services.generationConfig(model),
    tokenLimit: (model) => services.context.tokenLimit(model),
    approvalMode: () => parts.policy.mode,
    callModel: parts.callModel,
    decideTool: services.chains.tools.decideTool,
    runTool: services.chains.tools.runTool,
    tools: async (ctx) => parts.policy.offered(await offeredTools(services, ctx), ctx.signal),
    contextFor: (signal, history) =>
      createSessionContext(
        {
          sessionId: session.id,
          history,
          cwd: workspace.cwd,
          fs: workspace.fs,
          shell: workspace.shell,
          agent: parts.agent,
          session,
        },
        signal,
      ),
    get memory() {
      const memory = preamble()?.memory;
      return memory && buildSystemPrompt({ systemPrompt: 'none', memory });
    },
    get contextParts() {
      return preamble()?.contextParts ?? [];
    },
    roots: workspace.roots,
    openChildLog: (childId) =>
      services.persistence.open(childId, {
        resume: false,
        cwd: workspace.cwd,
        parentSessionId: session.id,
      }),
    addUsage: (source, metadata) => {
      addUsage(usage, metadata);
      const byAgent = (usage.subagents ??= {});
      addUsage((byAgent[source] ??= emptyUsage()), metadata);
    },
    toolTimeoutMs: services.limits.toolTimeoutMs,
    maxResponseBytes: services.limits.maxResponseBytes,
    streamRetry: services.streamRetry,
  };
}
