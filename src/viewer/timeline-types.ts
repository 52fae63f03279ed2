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

/**
 * Who decided about a call. From the stored decision (`sdkApproval`, this SDK's files): `approved by user`,
 * `approved always by user` (allowed for the rest of the session), `denied by user`, `allowed by policy`,
 * `denied by policy`, `waiting for approval`. Without one (gemini-cli's files, calls a feature answered), from the
 * stored result: `denied by user`, `denied by policy`, `denied`, `cancelled`, `pending`, else `ran`.
 */
export type TimelineDecision =
  | 'ran'
  | 'approved by user'
  | 'approved always by user'
  | 'allowed by policy'
  | 'denied by user'
  | 'denied by policy'
  | 'denied'
  | 'cancelled'
  | 'waiting for approval'
  | 'pending';

/** The stored decision on a call (`toolCalls[].sdkApproval`). */
export interface TimelineApproval {
  /** `allow`, `allow_always`, `deny` or `pending`. */
  decision: string;
  /** `user` (a human), `rule` (a policy rule) or `default` (the approval mode's default). */
  by: string;
  /** The deciding rule's label. */
  rule: string | undefined;
  /** When it was decided. */
  timestamp: string | undefined;
  /** When the human was asked. */
  askedAt: string | undefined;
  /** How long the human took (from `askedAt` to the decision). */
  waitMs: number | undefined;
  /** On deny: what the model was told. */
  message: string | undefined;
}

/** One tool call and its result. */
export interface TimelineToolCall {
  kind: 'tool';
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** `success`, `error`, `cancelled`, or `pending` (no result stored yet). */
  status: string;
  decision: TimelineDecision;
  /** The stored decision, when the session file has one. */
  approval: TimelineApproval | undefined;
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

/** A model request that failed and was sent again (stored as a `warning` line with `sdkEvent.kind: 'retry'`). */
export interface TimelineRetry {
  kind: 'retry';
  id: string;
  timestamp: string | undefined;
  /** The attempt that failed (1 = the first). */
  attempt: number;
  maxAttempts: number;
  /** The wait before the next attempt. */
  delayMs: number;
  /** `connect` (before any content) or `stream` (the response broke off). */
  phase: string;
  /** The cause in a few words (`HTTP 503`, `ECONNRESET`). */
  reason: string;
  /** The failure's message. */
  message: string;
}

/**
 * A compression that replaced the history (this SDK's `sdkEvent.kind: 'compression'` lines, and gemini-cli's
 * `Context compressed from …` lines). The stored history is the compressed one from there on.
 */
export interface TimelineCompression {
  kind: 'compression';
  id: string;
  timestamp: string | undefined;
  /** The line gemini-cli shows. */
  text: string;
  /** `auto` or `manual` (`session.compress()`), when stored. */
  trigger: string | undefined;
  /** `compressed` (a summary) or `content_truncated` (old tool outputs cut), when stored. */
  status: string | undefined;
  originalTokens: number | undefined;
  newTokens: number | undefined;
}

/** One step of a turn. */
export type TimelineItem =
  TimelineModelCall | TimelineToolCall | TimelineNote | TimelineRetry | TimelineCompression;

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
  /** Model requests sent again after a failure. */
  retries: number;
  /** Compressions of the history. */
  compressions: number;
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
