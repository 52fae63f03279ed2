import type {
  Content,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type { AgentTool } from '../core/agent-tool.js';
import type { ApprovalMode } from '../core/policy-rule.js';
import type { SessionContext } from '../core/session-context.js';
import type { SessionLog } from '../core/session-log.js';
import type {
  NestedApprovals,
  RunBudget,
  RunMcpServers,
  SessionRuntime,
} from '../core/session-runtime.js';
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
import type { BudgetExceededInfo, WarningInfo } from '../events.js';
import { estimateTokens } from '../loop/context-window.js';
import { buildSystemPrompt, type PromptMemory } from './system-prompt.js';
import { startRunMcpServers } from './subagent-mcp.js';
import { createNestedApprovals } from './nested-approvals.js';

/** The memory block of a subagent's system prompt, rendered once per preamble memory (one per session). */
const renderedMemory = new WeakMap<PromptMemory, string | undefined>();

/** What {@link createSessionRuntime} builds a session's runtime from. */
export interface SessionRuntimeParts {
  services: AgentServices;
  session: SessionHandle;
  agent: AgentHandle;
  workspace: Workspace;
  /** The session's preamble, once loaded (after the features initialized). */
  preamble(): SessionPreamble | undefined;
  callModel: LoopChains['callModel'];
  policy: Pick<SessionPolicy, 'offered' | 'mode' | 'recordDecision' | 'logResolutions'>;
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
  return new AgentSessionRuntime(parts);
}

/**
 * The runtime as a class: its methods live on the prototype, so an idle session keeps one small object here
 * instead of twenty closures and a dictionary-mode object literal (P5, heap per idle session).
 */
class AgentSessionRuntime implements SessionRuntime {
  readonly sessionId: string;
  readonly callModel: LoopChains['callModel'];
  readonly decideTool: SessionRuntime['decideTool'];
  readonly runTool: SessionRuntime['runTool'];
  readonly roots: SessionRuntime['roots'];
  readonly toolTimeoutMs: number | undefined;
  readonly maxResponseBytes: number | undefined;
  readonly streamRetry: SessionRuntime['streamRetry'];

  constructor(private readonly parts: SessionRuntimeParts) {
    const { services } = parts;
    this.sessionId = parts.session.id;
    this.callModel = parts.callModel;
    this.decideTool = services.chains.tools.decideTool;
    this.runTool = services.chains.tools.runTool;
    this.roots = parts.workspace.roots;
    this.toolTimeoutMs = services.limits.toolTimeoutMs;
    this.maxResponseBytes = services.limits.maxResponseBytes;
    this.streamRetry = services.streamRetry;
  }

  model(): string {
    return this.parts.model();
  }

  generationConfig(model: string): GenerateContentConfig | undefined {
    return this.parts.services.generationConfig(model);
  }

  tokenLimit(model: string): number {
    return this.parts.services.context.tokenLimit(model);
  }

  approvalMode(): ApprovalMode {
    return this.parts.policy.mode;
  }

  async tools(ctx: SessionContext): Promise<AgentTool[]> {
    return this.parts.policy.offered(await offeredTools(this.parts.services, ctx), ctx.signal);
  }

  contextFor(signal: AbortSignal, history: readonly Content[]): SessionContext {
    const { session, workspace, agent } = this.parts;
    return createSessionContext(
      {
        sessionId: session.id,
        history,
        cwd: workspace.cwd,
        fs: workspace.fs,
        shell: workspace.shell,
        agent,
        session,
      },
      signal,
    );
  }

  get memory(): string | undefined {
    const memory = this.parts.preamble()?.memory;
    if (memory === undefined) return undefined;
    // Every subagent run asks for it; a preamble's memory is fixed once loaded (a reload makes a new object).
    if (!renderedMemory.has(memory))
      renderedMemory.set(memory, buildSystemPrompt({ systemPrompt: 'none', memory }));
    return renderedMemory.get(memory);
  }

  get contextParts(): readonly Part[] {
    return this.parts.preamble()?.contextParts ?? [];
  }

  openChildLog(childId: string, options?: { resume?: boolean }): Promise<SessionLog> {
    return this.parts.services.persistence.open(childId, {
      resume: options?.resume === true,
      cwd: this.parts.workspace.cwd,
      parentSessionId: this.parts.session.id,
    });
  }

  /** Made when a subagent run holds or resumes (rare): nothing is kept per idle session. */
  get nestedApprovals(): NestedApprovals {
    return createNestedApprovals({
      policy: this.parts.policy,
      approvalTtlMs: this.parts.services.approvalTtlMs,
    });
  }

  addUsage(
    source: string,
    metadata: GenerateContentResponseUsageMetadata | undefined,
    model?: string,
  ): void {
    const { usage } = this.parts;
    addUsage(usage, metadata);
    const byAgent = (usage.subagents ??= {});
    addUsage((byAgent[source] ??= emptyUsage()), metadata);
    this.parts.budget.record(model ?? this.parts.model(), metadata);
  }

  startMcpServers(
    servers: Readonly<Record<string, Record<string, unknown>>>,
    signal: AbortSignal,
    onWarning: (warning: WarningInfo) => void,
  ): Promise<RunMcpServers> {
    const { services } = this.parts;
    return startRunMcpServers(services.mcp.manager, servers, {
      cwd: services.cwd,
      signal,
      onWarning,
    });
  }

  subagentBudget(): RunBudget {
    const { budget } = this.parts;
    const run = budget.forSubagent();
    return {
      check: (model, tokens) => run?.check(model, tokens) ?? budget.check(model, tokens),
      record: (model, usage) => run?.record(model, usage),
    };
  }

  async generateContent(
    request: GenerateContentParameters,
    signal: AbortSignal,
  ): Promise<GenerateContentResponse> {
    const { budget, generator, usage } = this.parts;
    const exceeded = budget.check(request.model, estimateRequestTokens(request));
    if (exceeded !== undefined) throw budgetError(exceeded);
    const response = await generator.generateContent(request, signal);
    addUsage(usage, response.usageMetadata);
    budget.record(request.model, response.usageMetadata);
    return response;
  }
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
