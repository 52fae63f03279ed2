import type {
  RequestPermissionRequest,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallStatus,
} from '@agentclientprotocol/sdk';
import type { Part } from '@google/genai';
import type { GeminiCliSession } from '../agent/session.js';
import type { SessionApprovalDecision } from '../policy/approvals/approval-resolution.js';
import type {
  ApprovalRequest,
  FinishedInfo,
  ServerGeminiStreamEvent,
  SubagentActivityInfo,
  ToolCallResponseInfo,
} from '../events.js';
import { InvalidStreamError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import {
  diffContent,
  isEditCall,
  planEntries,
  snapshotEdit,
  type EditSnapshot,
} from './edit-diff.js';
import { permissionChoice, permissionOptions } from './permissions.js';
import {
  cancelledMessage,
  INVALID_STREAM_REFUSALS,
  permissionContent,
  REFUSALS,
  subagentMeta,
} from './turn-parts.js';
import { contextWindowOf } from './session-config.js';
import type { ToolCallDisplay, ToolCatalog } from './tool-display.js';

/** What a prompt turn needs from its ACP session. */
export interface TurnHost {
  readonly sessionId: string;
  readonly session: GeminiCliSession;
  readonly cwd: string;
  readonly catalog: ToolCatalog;
  /** The session's `ctx.fs` (through the editor when it serves files), for diffs. */
  readonly fs: SandboxFilesystem;
  /** Offer "Allow for this session". */
  readonly alwaysAllow: boolean;
  readonly logger: Logger;
  /** Sends one `session/update` (never throws). */
  send(update: SessionUpdate): Promise<void>;
  /**
   * Asks the client. Rejects with {@link ClientGoneError} when the connection is gone, with any other error when
   * the request failed or was cancelled.
   */
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<unknown>;
}

/** The client vanished while the turn waited for it: the turn stops, a paused approval stays stored. */
export class ClientGoneError extends Error {
  constructor() {
    super('The ACP client disconnected.');
    this.name = 'ClientGoneError';
  }
}

interface TrackedCall {
  name: string;
  args: Record<string, unknown>;
  display: ToolCallDisplay;
  status: ToolCallStatus;
  edit?: EditSnapshot;
  /** `_meta` of a subagent's call: who makes it. */
  meta?: Record<string, unknown>;
}

/**
 * One `session/prompt`: streams the session's events to the client as `session/update`s, turns the calls that
 * need approval (the agent runs with `approvals: 'pause'`) into `session/request_permission` and continues with
 * the decisions, and works out the stop reason.
 */
export class PromptTurn {
  private readonly calls = new Map<string, TrackedCall>();
  private finishReason: string | undefined;
  private limited = false;

  constructor(
    private readonly host: TurnHost,
    private readonly controller: AbortController,
  ) {}

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Runs the prompt. Approvals still waiting from an earlier process (`session/load` of a paused session) are
   * asked first and their turn finished, then `parts` is sent.
   *
   * @throws ClientGoneError when the client vanished; the SDK's typed errors when the turn failed.
   */
  async run(parts: Part[] | undefined, askPendingFirst: boolean): Promise<StopReason> {
    const { session } = this.host;
    if (askPendingFirst && session.pendingApprovals.length > 0) {
      await this.drive(undefined, session.pendingApprovals);
      if (this.signal.aborted) return 'cancelled';
    }
    if (parts !== undefined) {
      try {
        await this.drive(session.sendStream(parts, this.signal), undefined);
      } catch (error) {
        // An unusable response after its retries ends the turn gracefully, as in gemini-cli's ACP mode; a
        // blocked one is a refusal, an empty one cut by the token limit is max_tokens.
        if (!(error instanceof InvalidStreamError)) throw error;
        if (INVALID_STREAM_REFUSALS.has(error.type)) return 'refusal';
        return error.type === 'MAX_TOKENS_EXCEEDED' ? 'max_tokens' : 'end_turn';
      }
    }
    return this.stopReason();
  }

  private stopReason(): StopReason {
    if (this.signal.aborted) return 'cancelled';
    if (this.limited) return 'max_turn_requests';
    if (this.finishReason === 'MAX_TOKENS') return 'max_tokens';
    if (this.finishReason !== undefined && REFUSALS.has(this.finishReason)) return 'refusal';
    return 'end_turn';
  }

  private async drive(
    first: AsyncIterable<ServerGeminiStreamEvent> | undefined,
    waiting: ApprovalRequest[] | undefined,
  ): Promise<void> {
    let stream = first;
    let pending = waiting;
    for (;;) {
      if (stream !== undefined) {
        pending = undefined;
        for await (const event of stream) {
          if (event.type === 'approval_required') pending = event.value.pending;
          else await this.onEvent(event);
        }
      }
      if (pending === undefined || pending.length === 0) return;
      const decisions = await this.ask(pending);
      stream = this.host.session.resolveApprovals(decisions, this.signal);
    }
  }

  private async onEvent(event: ServerGeminiStreamEvent): Promise<void> {
    switch (event.type) {
      case 'content':
        await this.host.send({
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: event.value },
        });
        return;
      case 'thought': {
        const { subject, description } = event.value;
        const text = subject ? `**${subject}**\n${description}` : description;
        if (text !== '') {
          await this.host.send({
            sessionUpdate: 'agent_thought_chunk',
            content: { type: 'text', text },
          });
        }
        return;
      }
      case 'tool_call_request': {
        const { callId, name, args } = event.value;
        const call = await this.track(callId, name, args);
        await this.host.send({
          sessionUpdate: 'tool_call',
          toolCallId: callId,
          title: call.display.title,
          kind: call.display.kind,
          status: 'pending',
          locations: call.display.locations,
          rawInput: args,
        });
        return;
      }
      case 'tool_call_response':
        await this.onResponse(event.value);
        return;
      case 'subagent_activity':
        await this.onSubagent(event.value);
        return;
      case 'finished':
        await this.onFinished(event.value);
        return;
      case 'max_session_turns':
      case 'loop_detected':
        this.limited = true;
        return;
      default:
        return;
    }
  }

  /** A subagent's tool calls as calls of the turn, with `_meta.subagent`; its text and thoughts stay inside it. */
  private async onSubagent(activity: SubagentActivityInfo): Promise<void> {
    const inner = activity.event;
    if (inner.type === 'tool_call_request') {
      const { callId, name, args } = inner.value;
      const call = await this.track(callId, name, args, activity);
      await this.host.send({
        sessionUpdate: 'tool_call',
        toolCallId: callId,
        title: call.display.title,
        kind: call.display.kind,
        status: 'in_progress',
        locations: call.display.locations,
        rawInput: args,
        ...(call.meta === undefined ? {} : { _meta: call.meta }),
      });
      call.status = 'in_progress';
    } else if (inner.type === 'tool_call_response') {
      await this.onResponse(inner.value, activity);
    }
  }

  private async track(
    callId: string,
    name: string,
    args: Record<string, unknown>,
    subagent?: SubagentActivityInfo,
  ): Promise<TrackedCall> {
    const existing = this.calls.get(callId);
    if (existing) return existing;
    const call: TrackedCall = {
      name,
      args,
      display: this.host.catalog.display(name, args, this.host.cwd),
      status: 'pending',
      ...(subagent === undefined ? {} : { meta: subagentMeta(subagent) }),
    };
    // The loop waits while this is read (its stream is pulled only afterwards), so the old text is from before
    // the edit runs.
    if (isEditCall(name, args)) call.edit = await snapshotEdit(args, this.host.fs, this.host.cwd);
    this.calls.set(callId, call);
    return call;
  }

  /** The model turn is complete: its calls now run unless they need approval (the policy says which). */
  private async onFinished(info: FinishedInfo): Promise<void> {
    this.finishReason = info.reason ?? undefined;
    const usage = info.usageMetadata;
    if (usage) {
      const used =
        usage.totalTokenCount ?? (usage.promptTokenCount ?? 0) + (usage.candidatesTokenCount ?? 0);
      await this.host.send({
        sessionUpdate: 'usage_update',
        used,
        size: contextWindowOf(this.host.session.model),
      });
    }
    for (const [callId, call] of this.calls) {
      if (call.status !== 'pending') continue;
      let decision: string;
      try {
        decision = (await this.host.session.policy.explain({ name: call.name, args: call.args }))
          .decision;
      } catch {
        continue;
      }
      if (decision === 'allow') await this.setStatus(callId, call, 'in_progress');
    }
  }

  private async setStatus(
    callId: string,
    call: TrackedCall,
    status: ToolCallStatus,
  ): Promise<void> {
    call.status = status;
    await this.host.send({ sessionUpdate: 'tool_call_update', toolCallId: callId, status });
  }

  private async onResponse(
    response: ToolCallResponseInfo,
    subagent?: SubagentActivityInfo,
  ): Promise<void> {
    const known = this.calls.get(response.callId);
    const call = known ?? (await this.track(response.callId, response.name, {}, subagent));
    const meta = call.meta === undefined ? {} : { _meta: call.meta };
    const failed = response.error !== undefined;
    call.status = failed ? 'failed' : 'completed';
    const content: ToolCallContent[] = [];
    if (!failed && call.edit) {
      const after = await this.host.fs.readFile(call.edit.path).catch(() => null);
      if (after !== null) content.push(diffContent(call.edit, after));
    }
    const display = response.resultDisplay; // text, or write_todos' TodoList: no content (as gemini), a plan
    const text = failed || typeof display !== 'string' ? response.error?.message : display;
    if (content.length === 0 && text)
      content.push({ type: 'content', content: { type: 'text', text } });
    const rawOutput = {
      ...(text === undefined ? {} : { output: text }),
      ...(failed ? { error: response.error } : {}),
    };
    if (known) {
      await this.host.send({
        sessionUpdate: 'tool_call_update',
        toolCallId: response.callId,
        status: call.status,
        content,
        rawOutput,
        ...meta,
      });
    } else {
      // A call answered here that was announced earlier (e.g. closed as interrupted after a restart).
      await this.host.send({
        sessionUpdate: 'tool_call',
        toolCallId: response.callId,
        title: call.display.title,
        kind: call.display.kind,
        status: call.status,
        locations: call.display.locations,
        content,
        rawOutput,
        ...meta,
      });
    }
    if (!failed && typeof display === 'object') {
      await this.host.send({ sessionUpdate: 'plan', entries: planEntries(display) });
    }
  }

  /** Asks the client about each held call, in order; a cancelled turn refuses the rest. */
  private async ask(pending: readonly ApprovalRequest[]): Promise<SessionApprovalDecision[]> {
    const decisions: SessionApprovalDecision[] = [];
    for (const request of pending) {
      const call = await this.track(request.callId, request.toolName, request.args);
      if (this.signal.aborted) {
        decisions.push({
          callId: request.callId,
          decision: { decision: 'deny', message: cancelledMessage(request) },
        });
        continue;
      }
      const options = permissionOptions(request, this.host.alwaysAllow);
      let answer: unknown;
      try {
        answer = await this.host.requestPermission(
          {
            sessionId: this.host.sessionId,
            toolCall: {
              toolCallId: request.callId,
              status: 'pending',
              title: request.description || call.display.title,
              kind: call.display.kind,
              locations: call.display.locations,
              content: permissionContent(request, call),
              rawInput: request.args,
              ...(call.meta === undefined ? {} : { _meta: call.meta }),
            },
            options,
          },
          this.signal,
        );
      } catch (error) {
        if (error instanceof ClientGoneError) throw error;
        if (!this.signal.aborted) {
          this.host.logger.warn('ACP permission request failed; the call is refused', {
            callId: request.callId,
            error: error instanceof Error ? error.message : String(error),
          });
        }
        answer = undefined;
        if (this.signal.aborted) answer = { outcome: { outcome: 'cancelled' } };
      }
      const choice = permissionChoice(answer, options);
      if (choice.kind === 'cancelled') {
        // The client cancels the turn (it answers `cancelled` after sending session/cancel).
        this.controller.abort();
        decisions.push({
          callId: request.callId,
          decision: { decision: 'deny', message: cancelledMessage(request) },
        });
        continue;
      }
      decisions.push({
        callId: request.callId,
        decision:
          choice.message === undefined && choice.scope === undefined
            ? choice.decision
            : {
                decision: choice.decision,
                ...(choice.message === undefined ? {} : { message: choice.message }),
                ...(choice.scope === undefined ? {} : { scope: choice.scope }),
              },
      });
      if (choice.decision !== 'deny') await this.setStatus(request.callId, call, 'in_progress');
    }
    return decisions;
  }
}
