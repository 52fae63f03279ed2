import type { Content } from '@google/genai';
import { ConfigurationError } from '../../errors.js';
import type { ApprovalRequest, ToolCallResponseInfo } from '../../events.js';
import type { PausedTurn } from '../../loop/loop-types.js';
import type { AgentTool } from '../../core/agent-tool.js';
import type { ConversationHistory } from '../../loop/conversation-history.js';
import {
  resolvePause,
  type PauseResolution,
  type SessionApprovalDecision,
} from './approval-resolution.js';
import {
  closingResponses,
  lastModelCalls,
  parsePausedTurn,
  pausedTurnRecord,
  pendingRequests,
  type PausedTurnRecord,
} from './paused-turn.js';
import type { PausedTurnData, SessionLog } from '../../core/session-log.js';

/** `resolveApprovals` with nothing waiting. */
export function noPendingApprovals(): ConfigurationError {
  return new ConfigurationError('No tool calls are waiting for approval in this session.');
}

/** What {@link SessionPause.resolve} needs from the session. */
export interface ResolveContext {
  decisions: readonly SessionApprovalDecision[];
  /** The session's history: it ends with the paused model turn. */
  history: readonly Content[];
  /** The tools offered now (asked only when the turn paused in another session object or process). */
  loadTools(): Promise<readonly AgentTool[]>;
  log: SessionLog;
  sessionId: string;
  now: Date;
  approvalTtlMs: number | undefined;
}

/**
 * A session's durable approvals: the model turn held for approvals, stored with the session so that it survives
 * the session object and the process. The turn is stored (`commit`) before `approval_required` is announced;
 * decisions are stored before any approved tool runs; the turn's results clear it in the same write.
 */
export class SessionPause {
  private record: PausedTurnRecord | undefined;
  /** The loop's own paused turn, when it paused in this session object (its tools are at hand). */
  private live: PausedTurn | undefined;
  /** A turn whose decisions were stored but whose results never were: the process died while tools ran. */
  private unfinished: PausedTurnRecord | undefined;

  constructor(stored: PausedTurnData | undefined) {
    const record = parsePausedTurn(stored);
    if (record?.resolvedAt !== undefined) this.unfinished = record;
    else this.record = record;
  }

  /** True while a paused turn waits for `resolveApprovals`. */
  get waiting(): boolean {
    return this.record !== undefined;
  }

  /** The calls waiting for a decision, in call order. */
  get pending(): ApprovalRequest[] {
    return this.record === undefined ? [] : pendingRequests(this.record);
  }

  /**
   * For a turn that was being resolved when its process died: the responses that close it (approved calls that
   * may have run are `interrupted`, never run again). Undefined otherwise. Call once, when the session opens.
   */
  takeUnfinished(
    history: readonly Content[],
    sessionId: string,
  ): ToolCallResponseInfo[] | undefined {
    const record = this.unfinished;
    this.unfinished = undefined;
    return record && closingResponses(record, lastModelCalls(history), sessionId);
  }

  /**
   * Answers, in `history` and the log, a turn that was being resolved when its process died (decided approvals
   * whose results were never stored; see {@link SessionPause.takeUnfinished}). Call once, when the session opens.
   */
  async closeUnfinished(
    history: ConversationHistory,
    log: SessionLog,
    sessionId: string,
  ): Promise<void> {
    const closing = this.takeUnfinished(history.view(), sessionId);
    if (closing === undefined) return;
    const content: Content = { role: 'user', parts: closing.flatMap((r) => r.responseParts) };
    history.push(content);
    const timestamp = new Date().toISOString();
    await log.append({ kind: 'tool_results', content, timestamp, responses: closing });
  }

  /** For a new prompt: the paused turn to answer first (its held calls did not run). Forgets the pause. */
  abandon(history: readonly Content[], sessionId: string): PausedTurn | undefined {
    const { record, live } = this;
    if (record === undefined) return undefined;
    this.record = undefined;
    this.live = undefined;
    if (live !== undefined) return live;
    const responses = closingResponses(record, lastModelCalls(history), sessionId);
    return { outcomes: responses.map((response) => ({ kind: 'done', response })) };
  }

  /**
   * Decides the held calls (see `resolvePause`: fail closed on unknown ids, changed arguments, expiry) and stores
   * the decisions before anything runs. The pause is then over: the returned start continues the loop.
   *
   * @throws ConfigurationError when nothing waits for approval, or for an invalid decision or unknown call id.
   */
  async resolve(context: ResolveContext): Promise<PauseResolution> {
    const { record, live } = this;
    if (record === undefined) throw noPendingApprovals();
    const liveTools = new Map<string, AgentTool>();
    for (const o of live?.outcomes ?? []) {
      if (o.kind === 'paused') liveTools.set(o.paused.input.request.name, o.paused.tool);
      if (o.kind === 'held') liveTools.set(o.held.input.request.name, o.held.tool);
    }
    const tools =
      live === undefined ? new Map((await context.loadTools()).map((t) => [t.name, t])) : liveTools;
    const calls = lastModelCalls(context.history);
    const validatedArgs = new Map<string, Record<string, unknown>>();
    for (const held of record.calls) {
      const call = held.state === 'pending' ? calls.get(held.approval.callId) : undefined;
      if (call === undefined || held.state !== 'pending') continue;
      const raw = (call.args as Record<string, unknown> | undefined) ?? {};
      const validation = await tools.get(call.name ?? '')?.validate(raw);
      validatedArgs.set(held.approval.callId, validation?.ok === true ? validation.args : raw);
    }
    const resolution = resolvePause({
      record,
      decisions: context.decisions,
      calls,
      toolFor: (name) => tools.get(name),
      validatedArgs,
      sessionId: context.sessionId,
      now: context.now,
      ...(context.approvalTtlMs === undefined ? {} : { approvalTtlMs: context.approvalTtlMs }),
    });
    await context.log.savePausedTurn(resolution.record);
    this.record = undefined;
    this.live = undefined;
    return resolution;
  }

  /**
   * Stores a turn the loop just held for approvals (the loop awaits it before announcing `approval_required`, so
   * a consumer that stops at that event, or a process that exits then, leaves it stored).
   */
  async commit(paused: PausedTurn, log: SessionLog): Promise<void> {
    const record = pausedTurnRecord(paused, new Date());
    await log.savePausedTurn(record);
    this.record = record;
    this.live = paused;
  }
}
