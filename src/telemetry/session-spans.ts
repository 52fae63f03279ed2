import type { Context, Span } from '@opentelemetry/api';
import type { ToolCallDecision } from './semconv.js';

/** One tool call's span while it is open. */
export interface ToolSpan {
  readonly span: Span;
  /** The context whose active span is this one (a subagent run by the tool nests under it). */
  readonly context: Context;
  decision?: ToolCallDecision;
  /** The MCP server of the tool, when it is an MCP tool. */
  mcpServer?: string;
  /** Held by its tool for approvals inside it (a subagent's): the turn ends without its answer, not failing. */
  held?: boolean;
}

/** What is open for one session while a turn runs. */
export interface TurnState {
  readonly sessionId: string;
  /** gemini-cli's prompt id of the turn (its metrics' and log records' `prompt_id`). */
  readonly promptId: string;
  readonly span: Span;
  /** The context whose active span is the turn: model and tool spans are its children. */
  readonly context: Context;
  /** True for `resolveApprovals` (the turn runs calls a human decided on). */
  readonly resumed: boolean;
  /**
   * True when the tracer is OpenTelemetry's no-op one (no SDK registered, no parent span): the turn's span neither
   * records nor carries a trace, so its model and tool calls make no spans either and run as without telemetry.
   */
  readonly inert: boolean;
  /** The model of the turn's last model call. */
  model?: string;
  /** The open `chat` span, if a model call is streaming. */
  chat: Span | undefined;
  readonly tools: Map<string, ToolSpan>;
  /** When the human was asked about a call (ms since the epoch), by call id. */
  readonly asked: Map<string, number>;
  /** When the model asked for a call, by call id (the start of a span made when the response comes). */
  readonly requested: Map<string, { at: number; args: Record<string, unknown> }>;
  modelCalls: number;
  toolCalls: number;
  inputTokens: number;
  outputTokens: number;
}
