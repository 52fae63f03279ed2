import type { Attributes } from '@opentelemetry/api';
import type { ToolCheck, ToolDecision, ToolRun } from '../core/interceptors.js';
import type { ToolResult } from '../core/agent-tool.js';
import type { ApprovalNotice } from '../core/interceptors.js';
import type { ApprovalRequest, ToolCallRequestInfo, ToolCallResponseInfo } from '../events.js';
import type { TelemetryRecorder } from './telemetry-recorder.js';
import { ATTR, type ToolCallDecision } from './semconv.js';
import type { ToolSpan, TurnState } from './session-spans.js';

function toolAttributes(
  request: ToolCallRequestInfo,
  sessionId: string,
  tool?: ToolCheck['tool'],
): Attributes {
  const attributes: Attributes = {
    [ATTR.operationName]: 'execute_tool',
    [ATTR.toolName]: request.name,
    [ATTR.toolCallId]: request.callId,
    [ATTR.conversationId]: sessionId,
    [ATTR.toolType]: tool?.serverName === undefined ? 'function' : 'extension',
  };
  if (tool !== undefined) {
    attributes[ATTR.toolKind] = tool.kind;
    if (tool.description !== '') attributes[ATTR.toolDescription] = tool.description.slice(0, 500);
    if (tool.serverName !== undefined) {
      attributes[ATTR.mcpMethod] = 'tools/call';
      attributes[ATTR.mcpServer] = tool.serverName;
      if (tool.mcpContext !== undefined) attributes[ATTR.mcpToolName] = tool.mcpContext.toolName;
    }
  }
  return attributes;
}

function openToolSpan(
  recorder: TelemetryRecorder,
  state: TurnState | undefined,
  request: ToolCallRequestInfo,
  sessionId: string,
  tool?: ToolCheck['tool'],
  startTime?: number,
): ToolSpan {
  const { span, context } = recorder.start(
    `execute_tool ${request.name}`,
    'internal',
    toolAttributes(request, sessionId, tool),
    state?.context,
    startTime,
  );
  const entry: ToolSpan = {
    span,
    context,
    ...(tool?.serverName === undefined ? {} : { mcpServer: tool.serverName }),
  };
  if (state !== undefined) {
    state.toolCalls += 1;
    state.tools.set(request.callId, entry);
  }
  recorder.content(span, ATTR.toolArguments, request.args);
  return entry;
}

/** A human is about to be asked about a call: the approval wait starts now. */
export function noteApprovalAsked(recorder: TelemetryRecorder, notice: ApprovalNotice): void {
  recorder.turn(notice.ctx.sessionId)?.asked.set(notice.call.callId, Date.now());
}

/** The model asked for a call: remembered for a span made when only its response comes (unknown tool, bad args). */
export function onToolRequest(state: TurnState, request: ToolCallRequestInfo): void {
  state.requested.set(request.callId, { at: Date.now(), args: request.args });
}

/**
 * Around each call's decision: opens the call's `execute_tool <name>` span and records the decision — who decided
 * (the policy and features, or a human) and how long the human took.
 */
export async function traceToolDecision(
  recorder: TelemetryRecorder,
  check: ToolCheck,
  next: (check?: ToolCheck) => Promise<ToolDecision>,
): Promise<ToolDecision> {
  const state = recorder.turn(check.ctx.sessionId);
  if (state?.inert === true) return next();
  const entry = openToolSpan(recorder, state, check.request, check.ctx.sessionId, check.tool);
  let decision: ToolDecision;
  try {
    decision = await next();
  } catch (error) {
    recorder.fail(entry.span, error);
    entry.span.end();
    state?.tools.delete(check.request.callId);
    throw error;
  }
  const askedAt = state?.asked.get(check.request.callId);
  const asked = askedAt !== undefined;
  let verdict: ToolCallDecision;
  if (decision.outcome === 'allow') verdict = asked ? 'accept' : 'auto_accept';
  else if (decision.outcome === 'deny') verdict = asked ? 'reject' : 'deny';
  else verdict = 'pause';
  entry.decision = verdict;
  entry.span.setAttributes({
    [ATTR.decision]: verdict,
    [ATTR.decidedBy]: asked && verdict !== 'pause' ? 'user' : 'policy',
    ...(asked && verdict !== 'pause' ? { [ATTR.approvalWaitMs]: Date.now() - askedAt } : {}),
  });
  return decision;
}

/**
 * Around each tool execution: runs the tool with the call's span active, so spans the tool makes (a subagent's
 * turns, an instrumented HTTP client) are its children.
 */
export async function traceToolRun(
  recorder: TelemetryRecorder,
  run: ToolRun,
  next: (run?: ToolRun) => Promise<ToolResult>,
): Promise<ToolResult> {
  const state = recorder.turn(run.ctx.sessionId);
  if (state?.inert === true) return next();
  let entry = state?.tools.get(run.request.callId);
  if (entry === undefined) {
    // A call a human approved with resolveApprovals (or a hand-over): no decision ran in this turn.
    entry = openToolSpan(recorder, state, run.request, run.ctx.sessionId, run.tool);
    if (state?.resumed === true) {
      entry.decision = 'accept';
      entry.span.setAttributes({ [ATTR.decision]: 'accept', [ATTR.decidedBy]: 'user' });
    }
  }
  const active = entry;
  const result = await recorder.api.context.with(active.context, () => next());
  if (result.tailCall !== undefined) {
    active.span.setAttribute('gemini_agent.tool.tail_call', result.tailCall.name);
  }
  return result;
}

/** The call's response: ends its span with the outcome the model was sent. */
export function onToolResponse(
  recorder: TelemetryRecorder,
  state: TurnState,
  response: ToolCallResponseInfo,
): void {
  let entry = state.tools.get(response.callId);
  if (entry === undefined) {
    const requested = state.requested.get(response.callId);
    entry = openToolSpan(
      recorder,
      state,
      {
        callId: response.callId,
        name: response.name,
        args: requested?.args ?? {},
        isClientInitiated: false,
        prompt_id: '',
      },
      state.sessionId,
      undefined,
      requested?.at,
    );
    if (state.resumed && response.errorType === 'policy_violation') {
      entry.span.setAttributes({ [ATTR.decision]: 'reject', [ATTR.decidedBy]: 'user' });
    }
  }
  const { span } = entry;
  if (response.durationMs !== undefined) span.setAttribute(ATTR.durationMs, response.durationMs);
  if (response.error !== undefined) {
    recorder.failWith(
      span,
      response.errorType ?? response.error.type ?? 'execution_failed',
      response.error.message,
    );
  }
  recorder.content(span, ATTR.toolResult, response.responseParts);
  recorder.signals?.toolCall({
    sessionId: state.sessionId,
    promptId: state.promptId,
    name: response.name,
    args: state.requested.get(response.callId)?.args ?? {},
    durationMs: response.durationMs ?? 0,
    success: response.error === undefined,
    decision: entry.decision,
    toolType: entry.mcpServer === undefined ? 'native' : 'mcp',
    mcpServer: entry.mcpServer,
    error: response.error?.message,
    errorType: response.errorType ?? response.error?.type,
  });
  span.end();
  state.tools.delete(response.callId);
  state.requested.delete(response.callId);
}

/** `approval_required`: the calls whose subagents wait (their requests name them) are held, not failed. */
export function onHeldCalls(state: TurnState, pending: readonly ApprovalRequest[]): void {
  for (const request of pending) {
    const parent = request.subagentRun?.parentCallId;
    const entry = parent === undefined ? undefined : state.tools.get(parent);
    if (entry === undefined) continue;
    entry.held = true;
    entry.span.setAttribute(ATTR.held, true);
  }
}

/** Ends the spans of calls that got no response in the turn (held for approval, or the turn failed). */
export function endOpenTools(recorder: TelemetryRecorder, state: TurnState): void {
  for (const entry of state.tools.values()) {
    if (entry.decision !== 'pause' && entry.held !== true) {
      recorder.failWith(entry.span, 'cancelled', 'The turn ended before the call was answered.');
    }
    entry.span.end();
  }
  state.tools.clear();
}
