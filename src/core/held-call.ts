import type { ApprovalRequest } from '../events.js';
import type { AgentTool, ToolCallInfo, ToolResult } from './agent-tool.js';
import type { SessionContext } from './session-context.js';

/**
 * What a tool call waits for when its work is held for approvals inside it (a subagent's call with
 * `approvals: 'pause'`): the requests the human sees (their call ids are the inner calls', not the tool's) and
 * what the tool needs to continue, as JSON stored with the session's paused turn.
 */
export interface ToolHold {
  readonly approvals: readonly ApprovalRequest[];
  readonly state: Readonly<Record<string, unknown>>;
}

/**
 * Thrown by a tool whose work is held for approvals (see {@link ToolHold}): its call is not answered; the turn
 * pauses with `approval_required` for the inner requests, and `resolveApprovals` continues the call through the
 * tool's {@link ResumableTool.resumeHeld}.
 */
export class ToolCallHeld extends Error {
  constructor(readonly hold: ToolHold) {
    super('The tool call is held for approvals.');
    this.name = 'ToolCallHeld';
  }
}

/** A tool that can continue a call it held ({@link ToolCallHeld}) once the human decided. */
export interface ResumableTool extends AgentTool {
  /**
   * Continues the held call with the human's decisions for its inner requests (`{ callId, decision }`, as
   * `session.resolveApprovals` takes them); may hold it again.
   */
  resumeHeld(
    hold: { state: Readonly<Record<string, unknown>>; decisions: readonly unknown[] },
    args: Record<string, unknown>,
    ctx: SessionContext,
    call: ToolCallInfo,
  ): Promise<ToolResult>;
}

/** True for a tool that continues held calls. */
export function isResumableTool(tool: AgentTool | undefined): tool is ResumableTool {
  return typeof (tool as Partial<ResumableTool> | undefined)?.resumeHeld === 'function';
}
