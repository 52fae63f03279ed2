import type { GenerateContentParameters, Part } from '@google/genai';
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
import type { ContentGenerator } from '../model/content-generator.js';
import type { BudgetTracker } from '../context/budget.js';
import { LimitExceededError } from '../errors.js';
import type { BudgetExceededInfo } from '../events.js';
import { estimateTokens } from '../loop/context-window.js';
import { buildSystemPrompt } from './system-prompt.js';
import { startRunMcpServers } from './subagent-mcp.js';

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
  /** The session's model client, for utility calls. */
  generator: ContentGenerator;
  /** The session's budget: nested calls count in it. */
  budget: BudgetTracker;
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
    addUsage: (source, metadata, model) => {
      addUsage(usage, metadata);
      const byAgent = (usage.subagents ??= {});
      addUsage((byAgent[source] ??= emptyUsage()), metadata);
      parts.budget.record(model ?? parts.model(), metadata);
    },
    startMcpServers: (servers, signal, onWarning) =>
      startRunMcpServers(services.mcp.manager, servers, { cwd: services.cwd, signal, onWarning }),
    subagentBudget: () => {
      const run = parts.budget.forSubagent();
      return {
        check: (model, tokens) => run?.check(model, tokens) ?? parts.budget.check(model, tokens),
        record: (model, usage) => run?.record(model, usage),
      };
    },
    async generateContent(request, signal) {
      const exceeded = parts.budget.check(request.model, estimateRequestTokens(request));
      if (exceeded !== undefined) throw budgetError(exceeded);
      const response = await parts.generator.generateContent(request, signal);
      addUsage(usage, response.usageMetadata);
      parts.budget.record(request.model, response.usageMetadata);
      return response;
    },
    toolTimeoutMs: services.limits.toolTimeoutMs,
    maxResponseBytes: services.limits.maxResponseBytes,
    streamRetry: services.streamRetry,
  };
}

/** The prompt tokens of a utility request, estimated as the loop estimates a history. */
function estimateRequestTokens(request: GenerateContentParameters): number {
  const contents = request.contents;
  if (typeof contents === 'string') return estimateTokens([{ text: contents }]);
  const list = Array.isArray(contents) ? contents : [contents];
  let tokens = 0;
  for (const item of list) {
    if (typeof item === 'string') tokens += estimateTokens([{ text: item }]);
    else if ('parts' in item && Array.isArray(item.parts)) tokens += estimateTokens(item.parts);
    else tokens += estimateTokens([item as Part]);
  }
  return tokens;
}

/** A utility call refused on the session's budget. */
function budgetError(info: BudgetExceededInfo): LimitExceededError {
  const unit = info.reason === 'cost' ? 'USD' : 'tokens';
  return new LimitExceededError(
    `The session's budget does not allow this model call (${info.reason}: ${info.wouldSpend} ${unit} would exceed the limit of ${info.limit}); raise it with session.extendBudget().`,
    { code: 'BUDGET_EXCEEDED' },
  );
}
