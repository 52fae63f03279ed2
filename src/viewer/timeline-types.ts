/** Token counts of a model call (gemini-cli's `TokensSummary`). */
export interface TimelineTokens {
  input: number;
  output: number;
  cached: number;
  thoughts: number;
  total: number;
}

/** One model response. */
export interface TimelineModelCall {
  kind: 'model';
  id: string;
  timestamp: string | undefined;
  model: string | undefined;
  /** Time from the message before it (the prompt or the tool results) to this response, when both have times. */
  latencyMs: number | undefined;
  tokens: TimelineTokens | undefined;
  /** Estimated USD (from `DEFAULT_PRICES`, as budgets count), when the model's price is known. */
  costUsd: number | undefined;
  text: string;
  thoughts: Array<{ subject: string; description: string }>;
  /** True when the response was cut off (a crash or an abort mid-stream). */
  interrupted: boolean;
}

/** Who decided about a call, as far as the session file tells. */
export type TimelineDecision =
  'ran' | 'denied by user' | 'denied by policy' | 'denied' | 'cancelled' | 'pending';

/** One tool call and its result. */
export interface TimelineToolCall {
  kind: 'tool';
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** `success`, `error`, `cancelled`, or `pending` (no result stored yet). */
  status: string;
  decision: TimelineDecision;
  timestamp: string | undefined;
  /** From the model's request to the stored result, when both have times. */
  durationMs: number | undefined;
  /** What the tool returned (display text, or the response as JSON), cut to 64 KiB. */
  result: string | undefined;
  error: string | undefined;
  /** The subagent this call ran (gemini-cli's `agentId`), with its own timeline when its file is found. */
  subagent: TimelineView | undefined;
}

/** A line gemini-cli shows but the model never sees (`info`, `warning`, `error` messages). */
export interface TimelineNote {
  kind: 'note';
  id: string;
  level: 'info' | 'warning' | 'error';
  timestamp: string | undefined;
  text: string;
}

/** One step of a turn. */
export type TimelineItem = TimelineModelCall | TimelineToolCall | TimelineNote;

/** One user prompt and everything the agent did for it. */
export interface TimelineTurn {
  id: string;
  index: number;
  timestamp: string | undefined;
  prompt: string;
  /** From the prompt to the last stored step. */
  durationMs: number | undefined;
  items: TimelineItem[];
}

/** Totals of a session. */
export interface TimelineTotals {
  turns: number;
  modelCalls: number;
  toolCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  thoughtTokens: number;
  /** Estimated USD of the calls whose model price is known. */
  costUsd: number;
  /** Model calls whose price is unknown (not in `costUsd`). */
  unpricedCalls: number;
}

/** A whole session as the viewer shows it. */
export interface TimelineView {
  sessionId: string;
  kind: string;
  startTime: string | undefined;
  lastUpdated: string | undefined;
  summary: string | undefined;
  totals: TimelineTotals;
  turns: TimelineTurn[];
}
