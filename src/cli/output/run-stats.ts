import {
  DEFAULT_PRICES,
  PRICES_DATE,
  callCost,
  type ServerGeminiStreamEvent,
  type SubagentActivityInfo,
  type ToolCallResponseInfo,
} from '../sdk.js';

export type {
  ModelTokenStats,
  StreamStats,
  RunCost,
  TokenMetrics,
  RoleMetrics,
  ModelMetrics,
  ToolDecisions,
  ToolMetrics,
  SessionMetrics,
  RunStats,
} from './run-stats-types.js';
import type {
  ModelTokenStats,
  TokenMetrics,
  RoleMetrics,
  ModelMetrics,
  ToolDecisions,
  ToolMetrics,
  RunStats,
} from './run-stats-types.js';

/** The role of the CLI's chat requests in gemini-cli's statistics. */
const MAIN_ROLE = 'main';
/** The role of a subagent's requests (gemini-cli's `LlmRole.SUBAGENT`). */
const SUBAGENT_ROLE = 'subagent';

/**
 * Error types of calls refused before a decision to run them (gemini-cli counts no decision for them: unknown
 * tool, bad arguments, policy or hook denial).
 */
const UNDECIDED_ERRORS: ReadonlySet<string> = new Set([
  'tool_not_registered',
  'invalid_tool_params',
  'policy_violation',
]);

/** One response's usage, in the json format's names. */
type Usage = Omit<TokenMetrics, 'input'>;

/**
 * Accumulates token, request and tool statistics from the events of one run. Each `finished` event closes
 * one model request and carries its usage; each `tool_call_response` closes one tool call.
 */
export class RunStatsCollector {
  private readonly models = new Map<string, ModelMetrics>();
  /** US dollars by model (null: no price). */
  private readonly costs = new Map<string, number | null>();
  private readonly tools = new Map<string, ToolMetrics>();
  private readonly confirmed = new Set<string>();
  /** Each subagent run's model and the start of its current request, by `agentId`. */
  private readonly subagents = new Map<string, { model: string; requestStartedAt: number }>();
  private readonly files = { totalLinesAdded: 0, totalLinesRemoved: 0 };
  private readonly startedAt: number;
  private requestStartedAt: number;
  private currentModel: string;

  constructor(
    model: string,
    private readonly now: () => number = Date.now,
  ) {
    this.currentModel = model;
    this.startedAt = now();
    this.requestStartedAt = this.startedAt;
  }

  /** Feeds one event. */
  observe(event: ServerGeminiStreamEvent): void {
    switch (event.type) {
      case 'model_info':
        this.currentModel = event.value;
        return;
      case 'finished': {
        this.request(
          this.currentModel,
          MAIN_ROLE,
          this.requestStartedAt,
          event.value.usageMetadata,
        );
        this.requestStartedAt = this.now();
        return;
      }
      case 'retry':
        this.failedRequest(event.value.status !== undefined ? 'ApiError' : event.value.code);
        return;
      case 'error':
        this.failedRequest(
          event.value.error.status !== undefined ? 'ApiError' : event.value.error.code,
        );
        return;
      case 'invalid_stream': {
        // gemini-cli's recordSemanticValidationError: an error of the request already counted.
        const api = this.modelMetrics(this.currentModel).api;
        api.totalErrors += 1;
        api.errorsByType[event.value.type] = (api.errorsByType[event.value.type] ?? 0) + 1;
        return;
      }
      case 'tool_call_confirmation':
        this.confirmed.add(event.value.request.callId);
        return;
      case 'tool_call_response':
        this.toolCall(event.value);
        this.requestStartedAt = this.now();
        return;
      case 'subagent_activity':
        this.subagentEvent(event.value);
        return;
      default:
        return;
    }
  }

  /**
   * A subagent's event: as in gemini-cli, its model requests count under its model with the `subagent` role, and
   * its tool calls count with the others.
   */
  private subagentEvent(activity: SubagentActivityInfo): void {
    let run = this.subagents.get(activity.agentId);
    if (run === undefined) {
      run = { model: this.currentModel, requestStartedAt: this.now() };
      this.subagents.set(activity.agentId, run);
    }
    const inner = activity.event;
    switch (inner.type) {
      case 'model_info':
        run.model = inner.value;
        return;
      case 'finished':
        this.request(run.model, SUBAGENT_ROLE, run.requestStartedAt, inner.value.usageMetadata);
        run.requestStartedAt = this.now();
        return;
      case 'tool_call_confirmation':
        this.confirmed.add(inner.value.request.callId);
        return;
      case 'tool_call_response':
        this.toolCall(inner.value);
        run.requestStartedAt = this.now();
        return;
      default:
        return;
    }
  }

  /** One model request that answered (gemini-cli's `ApiResponseEvent`). */
  private request(
    model: string,
    roleName: string,
    startedAt: number,
    usageMetadata: unknown,
  ): void {
    const metrics = this.modelMetrics(model);
    const role = roleMetrics(metrics, roleName);
    const latency = this.now() - startedAt;
    metrics.api.totalRequests += 1;
    metrics.api.totalLatencyMs += latency;
    role.totalRequests += 1;
    role.totalLatencyMs += latency;
    const usage = readUsage(usageMetadata);
    addUsage(metrics.tokens, usage);
    addUsage(role.tokens, usage);
    this.addCost(model, usage);
  }

  /** One tool call answered. */
  private toolCall(response: ToolCallResponseInfo): void {
    const { name, error, durationMs, callId, fileDiff } = response;
    const tool = this.toolMetrics(name);
    tool.count += 1;
    if (error === undefined) tool.success += 1;
    else tool.fail += 1;
    tool.durationMs += durationMs ?? 0;
    // gemini-cli: a call allowed without asking is accepted once (ProceedOnce → accept); one asked about
    // and refused is rejected; a call refused before any decision counts none.
    const asked = this.confirmed.has(callId);
    const type = error?.type ?? '';
    if (asked && error !== undefined && (type === 'policy_violation' || type === 'cancelled')) {
      tool.decisions.reject += 1;
    } else if (error === undefined || !UNDECIDED_ERRORS.has(type)) {
      tool.decisions.accept += 1;
    }
    if (error === undefined && fileDiff?.diffStat !== undefined) {
      this.files.totalLinesAdded += fileDiff.diffStat.model_added_lines;
      this.files.totalLinesRemoved += fileDiff.diffStat.model_removed_lines;
    }
  }

  /** The statistics so far. */
  snapshot(): RunStats {
    const models: Record<string, ModelTokenStats> = {};
    const totals: ModelTokenStats & { cost_usd: number } = {
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cached: 0,
      input: 0,
      cost_usd: 0,
    };
    for (const [name, metrics] of this.models) {
      const t = metrics.tokens;
      const entry: ModelTokenStats = {
        total_tokens: t.total,
        input_tokens: t.prompt,
        output_tokens: t.candidates,
        cached: t.cached,
        input: t.input,
        cost_usd: this.costs.get(name) ?? null,
      };
      models[name] = entry;
      totals.total_tokens += entry.total_tokens;
      totals.input_tokens += entry.input_tokens;
      totals.output_tokens += entry.output_tokens;
      totals.cached += entry.cached;
      totals.input += entry.input;
      totals.cost_usd += entry.cost_usd ?? 0;
    }
    const byName: Record<string, ToolMetrics> = {};
    const totalDecisions: ToolDecisions = { accept: 0, reject: 0, modify: 0, auto_accept: 0 };
    let totalCalls = 0;
    let totalSuccess = 0;
    let totalFail = 0;
    let totalDurationMs = 0;
    for (const [name, tool] of this.tools) {
      byName[name] = structuredClone(tool);
      totalCalls += tool.count;
      totalSuccess += tool.success;
      totalFail += tool.fail;
      totalDurationMs += tool.durationMs;
      totalDecisions.accept += tool.decisions.accept;
      totalDecisions.reject += tool.decisions.reject;
      totalDecisions.modify += tool.decisions.modify;
      totalDecisions.auto_accept += tool.decisions.auto_accept;
    }
    return {
      stream: {
        ...totals,
        duration_ms: Math.max(0, this.now() - this.startedAt),
        tool_calls: totalCalls,
        models,
      },
      session: {
        models: Object.fromEntries(
          [...this.models].map(([name, metrics]) => [name, structuredClone(metrics)]),
        ),
        tools: { totalCalls, totalSuccess, totalFail, totalDurationMs, totalDecisions, byName },
        files: { ...this.files },
        cost: {
          totalUsd: totals.cost_usd,
          byModel: Object.fromEntries(this.costs),
          pricesDate: PRICES_DATE,
        },
      },
    };
  }

  /** Adds one response's cost at the shipped prices (the model stays at null without a price). */
  private addCost(model: string, usage: Usage): void {
    const price = DEFAULT_PRICES[model];
    const before = this.costs.get(model) ?? null;
    if (price === undefined) {
      this.costs.set(model, before);
      return;
    }
    const metadata = {
      promptTokenCount: usage.prompt,
      candidatesTokenCount: usage.candidates,
      thoughtsTokenCount: usage.thoughts,
      cachedContentTokenCount: usage.cached,
    };
    this.costs.set(model, (before ?? 0) + callCost(metadata, price));
  }

  /** A model request that failed (gemini-cli's processApiError): a request, an error, its type. */
  private failedRequest(type: string | undefined): void {
    const metrics = this.modelMetrics(this.currentModel);
    const role = roleMetrics(metrics, MAIN_ROLE);
    const latency = this.now() - this.requestStartedAt;
    const key = type ?? 'unknown';
    metrics.api.totalRequests += 1;
    metrics.api.totalErrors += 1;
    metrics.api.totalLatencyMs += latency;
    metrics.api.errorsByType[key] = (metrics.api.errorsByType[key] ?? 0) + 1;
    role.totalRequests += 1;
    role.totalErrors += 1;
    role.totalLatencyMs += latency;
    this.requestStartedAt = this.now();
  }

  private modelMetrics(model: string): ModelMetrics {
    let metrics = this.models.get(model);
    if (metrics === undefined) {
      metrics = {
        api: { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0, errorsByType: {} },
        tokens: emptyTokens(),
        roles: {},
      };
      this.models.set(model, metrics);
    }
    return metrics;
  }

  private toolMetrics(name: string): ToolMetrics {
    let tool = this.tools.get(name);
    if (tool === undefined) {
      tool = {
        count: 0,
        success: 0,
        fail: 0,
        durationMs: 0,
        decisions: { accept: 0, reject: 0, modify: 0, auto_accept: 0 },
      };
      this.tools.set(name, tool);
    }
    return tool;
  }
}

function readUsage(metadata: unknown): Usage {
  const record = typeof metadata === 'object' && metadata !== null ? metadata : {};
  const num = (key: string): number => {
    const value = (record as Record<string, unknown>)[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : 0;
  };
  return {
    prompt: num('promptTokenCount'),
    candidates: num('candidatesTokenCount'),
    total: num('totalTokenCount'),
    cached: num('cachedContentTokenCount'),
    thoughts: num('thoughtsTokenCount'),
    tool: num('toolUsePromptTokenCount'),
  };
}

function emptyTokens(): TokenMetrics {
  return { input: 0, prompt: 0, candidates: 0, total: 0, cached: 0, thoughts: 0, tool: 0 };
}

function roleMetrics(metrics: ModelMetrics, name: string): RoleMetrics {
  let role = metrics.roles[name];
  if (role === undefined) {
    role = { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0, tokens: emptyTokens() };
    metrics.roles[name] = role;
  }
  return role;
}

function addUsage(t: TokenMetrics, usage: Usage): void {
  t.prompt += usage.prompt;
  t.candidates += usage.candidates;
  t.total += usage.total;
  t.cached += usage.cached;
  t.thoughts += usage.thoughts;
  t.tool += usage.tool;
  t.input += Math.max(0, usage.prompt - usage.cached);
}
