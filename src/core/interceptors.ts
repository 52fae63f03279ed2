import type { GenerateContentParameters, GenerateContentResponse, Part } from '@google/genai';
import type { ApprovalRequest, ServerGeminiStreamEvent, ToolCallRequestInfo } from '../events.js';
import type { AgentTool, ToolResult } from './agent-tool.js';
import type { SessionContext, SessionHandle } from './session-context.js';
import type { SubagentCallInfo } from './subagent-call.js';

/**
 * An interceptor: gets the call and `next`, and may act before and after `await next()`, call `next` with a
 * changed call (a copy: `next({ ...call, request })`), or not call it at all and answer itself (short-circuit).
 * Interceptors of the agent's features run in registration order: the first registered is the outermost.
 */
export type Interceptor<C, R> = (call: C, next: (call?: C) => R) => R;

/**
 * Composes interceptors around `terminal` (the work itself), the first one outermost. With no interceptors the
 * result is `terminal` itself, so an agent without them pays nothing.
 */
export function composeInterceptors<C, R>(
  interceptors: ReadonlyArray<Interceptor<C, R>>,
  terminal: (call: C) => R,
): (call: C) => R {
  let chain = terminal;
  for (let i = interceptors.length - 1; i >= 0; i--) {
    const interceptor = interceptors[i] as Interceptor<C, R>;
    const inner = chain;
    chain = (call) => interceptor(call, (changed) => inner(changed ?? call));
  }
  return chain;
}

/** What every interceptor may do besides calling `next`. */
export interface InterceptorControls {
  /** Puts an event into the running stream (a warning, progress, a feature's own event). */
  emit(event: ServerGeminiStreamEvent): void;
  /**
   * Ends the running `sendStream` at the loop's next step boundary: after the current model turn (its unanswered
   * calls are answered as cancelled) or after the current tool results are stored, before another model call. The
   * stream then ends without an error; emit an event first to say why.
   */
  stop(): void;
}

/** One model call, as model interceptors see it. */
export interface ModelCall extends InterceptorControls {
  /** The request: `model`, `contents` and `config` (system instruction, tools, generation settings). */
  readonly request: GenerateContentParameters;
  /** A fresh context for this call; `ctx.signal` fires when the stream is aborted. */
  readonly ctx: SessionContext;
  /** 1 for the first model call of this `sendStream`, then 2, 3, … */
  readonly turn: number;
  /**
   * 1 for the first attempt of this model call; 2, 3, … when the loop re-sends the request after the response
   * failed mid-stream or was unusable (a `retry` event with `phase: 'stream'` comes first).
   */
  readonly attempt: number;
}

/**
 * One streamed chunk of a model response as plain data: `@google/genai`'s `GenerateContentResponse` without its
 * getters (`text`, `functionCalls`, …), so an interceptor can build one as an object literal.
 */
export type ModelChunk = Pick<
  GenerateContentResponse,
  | 'candidates'
  | 'usageMetadata'
  | 'promptFeedback'
  | 'modelVersion'
  | 'responseId'
  | 'createTime'
  | 'modelStatus'
  | 'automaticFunctionCallingHistory'
  | 'sdkHttpResponse'
>;

/** The streamed response of a model call. */
export type ModelResponseStream = AsyncIterable<ModelChunk>;

/**
 * Around each model call: rewrite the request (`next({ ...call, request })`), observe or replace the streamed
 * chunks (wrap the stream `next` returns), or answer without calling the model (return your own stream).
 */
export type ModelInterceptor = Interceptor<ModelCall, Promise<ModelResponseStream>>;

/** One validated tool call, as decision interceptors see it (before anything of the turn runs). */
export interface ToolCheck extends InterceptorControls {
  /** The call as the model sent it. */
  readonly request: ToolCallRequestInfo;
  /** The tool that would run. */
  readonly tool: AgentTool;
  /**
   * The validated arguments the tool would receive. An interceptor that passes other arguments down
   * (`next({ ...check, args })`) passes them validated (`check.tool.validate(args)`); the policy, which decides
   * last, sees what will run.
   */
  readonly args: Record<string, unknown>;
  /** A fresh context for this check. */
  readonly ctx: SessionContext;
  /** Fires when the stream is aborted. */
  readonly signal: AbortSignal;
  /**
   * Set by a decision interceptor (`next({ ...check, requireApproval: { reason } })`) to have a human approve the
   * call even where the policy would allow it, in every approval mode. A policy deny still wins; where no human
   * can be asked (no `onApproval`, headless) the call is denied as any other ask is. `reason` is shown with the
   * approval request.
   */
  readonly requireApproval?: { readonly reason?: string };
  /** Set when a subagent makes the call (its name, run id and the parent's `invoke_agent` call). */
  readonly subagent?: SubagentCallInfo;
}

/**
 * The verdict on one call: `allow` runs it (with `args`, default the call's validated arguments); `deny` answers the
 * model with `{ error: message }` (error type `type`, default `policy_violation`); `pause` holds it: the stream
 * ends with `approval_required` and the call runs with `request.args` once `resolveApprovals` allows it.
 */
export type ToolDecision =
  | { outcome: 'allow'; args?: Record<string, unknown> }
  | { outcome: 'deny'; message: string; type?: string }
  | { outcome: 'pause'; request: ApprovalRequest };

/**
 * Around each tool call's decision, in call order, before any call of the turn runs. The innermost decision
 * (after every interceptor called `next`) is `allow` with the arguments that reached it; the policy decides last.
 * Returning `allow` without calling `next` skips the deciders after this one, the policy included.
 */
export type ToolDecisionInterceptor = Interceptor<ToolCheck, Promise<ToolDecision>>;

/** One allowed tool call about to run, as tool interceptors see it. */
export interface ToolRun extends InterceptorControls {
  /** The call as the model sent it. */
  readonly request: ToolCallRequestInfo;
  readonly tool: AgentTool;
  /** The arguments the tool runs with. */
  readonly args: Record<string, unknown>;
  /** The context the tool gets; `ctx.signal` fires on abort and when the call's time limit expires. */
  readonly ctx: SessionContext;
  /** Set when a subagent makes the call. */
  readonly subagent?: SubagentCallInfo;
}

/**
 * An approval about to be asked (`onApproval`) or held (`approvals: 'pause'`), as {@link Feature.approvalRequested}
 * sees it.
 */
export interface ApprovalNotice extends Pick<InterceptorControls, 'emit'> {
  /** What the human will be asked. */
  readonly request: ApprovalRequest;
  /** The call as the model sent it. */
  readonly call: ToolCallRequestInfo;
  /** A fresh context for the call; `ctx.signal` fires when the stream is aborted. */
  readonly ctx: SessionContext;
}

/** A context compression about to run, as {@link Feature.beforeCompress} sees it. */
export interface CompressNotice extends Pick<InterceptorControls, 'emit'> {
  /** `manual` (asked for) or `auto` (the history outgrew its budget). */
  readonly trigger: 'manual' | 'auto';
  /** A fresh context; `ctx.transcript` is the history about to be compressed. */
  readonly ctx: SessionContext;
}

/**
 * Around each tool execution (calls of a turn run in parallel): observe or replace the {@link ToolResult}, run
 * with other arguments, or answer without running the tool. A throw fails like a throw from the tool itself.
 */
export type ToolInterceptor = Interceptor<ToolRun, Promise<ToolResult>>;

/** One `sendStream` (or `resolveApprovals`) as turn interceptors see it. */
export interface Turn extends Pick<InterceptorControls, 'stop'> {
  readonly session: SessionHandle;
  /**
   * The prompt of a `sendStream` (rewrite it with `next({ ...turn, prompt })`); undefined when the turn continues
   * after `resolveApprovals`. Calling `next` again after it finished runs another loop with `prompt` as a new
   * prompt (a retry).
   */
  readonly prompt: Part[] | undefined;
  /** The stream's signal, if any. */
  readonly signal: AbortSignal | undefined;
}

/** The events of one turn. */
export type TurnEvents = AsyncIterable<ServerGeminiStreamEvent>;

/**
 * Around a whole turn: observe, add or hold back events, rewrite the prompt, run the loop again (a retry), or end
 * the turn without running the loop (short-circuit: nothing is stored).
 */
export type TurnInterceptor = Interceptor<Turn, TurnEvents>;
