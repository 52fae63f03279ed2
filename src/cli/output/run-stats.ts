import type { ServerGeminiStreamEvent } from '../sdk.js';

/** Token counts of one model, as the stream-json `result.stats.models` entry. */
export interface ModelTokenStats {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  cached: number;
  input: number;
}

/** stream-json `result.stats` (gemini-cli's field names). */
export interface StreamStats extends ModelTokenStats {
  duration_ms: number;
  tool_calls: number;
  models: Record<string, ModelTokenStats>;
}

/** Per-model metrics of the json format (gemini-cli's `SessionMetrics.models[m]`). */
export interface ModelMetrics {
  api: { totalRequests: number; totalErrors: number; totalLatencyMs: number };
  tokens: {
    input: number;
    prompt: number;
    candidates: number;
    total: number;
    cached: number;
    thoughts: number;
    tool: number;
  };
}

/** Approval outcomes of tool calls. */
export interface ToolDecisions {
  accept: number;
  reject: number;
  modify: number;
  auto_accept: number;
}

/** Per-tool metrics of the json format. */
export interface ToolMetrics {
  count: number;
  success: number;
  fail: number;
  durationMs: number;
  decisions: ToolDecisions;
}

/** json `stats` (gemini-cli's `SessionMetrics`, without the file diff counters we do not track). */
export interface SessionMetrics {
  models: Record<string, ModelMetrics>;
  tools: {
    totalCalls: number;
    totalSuccess: number;
    totalFail: number;
    totalDurationMs: number;
    totalDecisions: ToolDecisions;
    byName: Record<string, ToolMetrics>;
  };
}

/** Both views of the statistics of one run. */
export interface RunStats {
  stream: StreamStats;
  session: SessionMetrics;
}

interface Usage {
  prompt: number;
  candidates: number;
  total: number;
  cached: number;
  thoughts: number;
  tool: number;
}

/**
 * Accumulates token, request and tool statistics from the events of one run. Each `finished` event closes
 * one model request and carries its usage; each `tool_call_response` closes one tool call.
 */
export class RunStatsCollector {
  private readonly models = new Map<string, ModelMetrics>();
  private readonly tools = new Map<string, ToolMetrics>();
  private readonly confirmed = new Set<string>();
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
        const metrics = this.modelMetrics(this.currentModel);
        metrics.api.totalRequests += 1;
        metrics.api.totalLatencyMs += this.now() - this.requestStartedAt;
        addUsage(metrics, readUsage(event.value.usageMetadata));
        return;
      }
      case 'error':
      case 'invalid_stream':
        this.modelMetrics(this.currentModel).api.totalErrors += 1;
        return;
      case 'tool_call_confirmation':
        this.confirmed.add(event.value.request.callId);
        return;
      case 'tool_call_response': {
        const { name, error, durationMs, callId } = event.value;
        const tool = this.toolMetrics(name);
        tool.count += 1;
        if (error === undefined) tool.success += 1;
        else tool.fail += 1;
        tool.durationMs += durationMs ?? 0;
        const asked = this.confirmed.has(callId);
        if (!asked) tool.decisions.auto_accept += 1;
        else if (error === undefined) tool.decisions.accept += 1;
        else tool.decisions.reject += 1;
        this.requestStartedAt = this.now();
        return;
      }
      default:
        return;
    }
  }

  /** The statistics so far. */
  snapshot(): RunStats {
    const models: Record<string, ModelTokenStats> = {};
    const totals: ModelTokenStats = {
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 0,
      cached: 0,
      input: 0,
    };
    for (const [name, metrics] of this.models) {
      const t = metrics.tokens;
      const entry: ModelTokenStats = {
        total_tokens: t.total,
        input_tokens: t.prompt,
        output_tokens: t.candidates,
        cached: t.cached,
        input: t.input,
      };
      models[name] = entry;
      totals.total_tokens += entry.total_tokens;
      totals.input_tokens += entry.input_tokens;
      totals.output_tokens += entry.output_tokens;
      totals.cached += entry.cached;
      totals.input += entry.input;
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
      },
    };
  }

  private modelMetrics(model: string): ModelMetrics {
    let metrics = this.models.get(model);
    if (metrics === undefined) {
      metrics = {
        api: { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0 },
        tokens: { input: 0, prompt: 0, candidates: 0, total: 0, cached: 0, thoughts: 0, tool: 0 },
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

function addUsage(metrics: ModelMetrics, usage: Usage): void {
  const t = metrics.tokens;
  t.prompt += usage.prompt;
  t.candidates += usage.candidates;
  t.total += usage.total;
  t.cached += usage.cached;
  t.thoughts += usage.thoughts;
  t.tool += usage.tool;
  t.input += Math.max(0, usage.prompt - usage.cached);
}
