/** Token counts of one model, as the stream-json `result.stats.models` entry. */
export interface ModelTokenStats {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  cached: number;
  input: number;
  /** US dollars at `DEFAULT_PRICES` (not a gemini-cli field); null for a model without a price. */
  cost_usd: number | null;
}

/** stream-json `result.stats` (gemini-cli's field names, plus `cost_usd`). */
export interface StreamStats extends ModelTokenStats {
  duration_ms: number;
  tool_calls: number;
  models: Record<string, ModelTokenStats>;
  /** US dollars of the models that have a price (gemini-agent's field). */
  cost_usd: number;
}

/** json `stats.cost` (gemini-agent's field; gemini-cli has no cost): what the run's model calls cost. */
export interface RunCost {
  /** US dollars of every model call whose model has a price. */
  totalUsd: number;
  /** US dollars by model; null for a model without a price in `DEFAULT_PRICES`. */
  byModel: Record<string, number | null>;
  /** The date of the price table (`PRICES_DATE`). */
  pricesDate: string;
}

/** Token counts of the json format. */
export interface TokenMetrics {
  input: number;
  prompt: number;
  candidates: number;
  total: number;
  cached: number;
  thoughts: number;
  tool: number;
}

/** Requests of one model by one role (gemini-cli's `RoleMetrics`: the CLI's chat is `main`, subagents `subagent`). */
export interface RoleMetrics {
  totalRequests: number;
  totalErrors: number;
  totalLatencyMs: number;
  tokens: TokenMetrics;
}

/** Per-model metrics of the json format (gemini-cli's `SessionMetrics.models[m]`). */
export interface ModelMetrics {
  api: {
    totalRequests: number;
    totalErrors: number;
    totalLatencyMs: number;
    /** Failed requests by error type (`ApiError` for an HTTP error, else the network code or stream error type). */
    errorsByType: Record<string, number>;
  };
  tokens: TokenMetrics;
  roles: Record<string, RoleMetrics>;
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

/** json `stats` (gemini-cli's `SessionMetrics`). */
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
  /** Lines the model's file changes added and removed (`write_file`, `replace`). */
  files: { totalLinesAdded: number; totalLinesRemoved: number };
  /** What the run's model calls cost at the shipped prices. */
  cost: RunCost;
}

/** Both views of the statistics of one run. */
export interface RunStats {
  stream: StreamStats;
  session: SessionMetrics;
}
