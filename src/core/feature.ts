import type { ServerGeminiStreamEvent } from '../events.js';
import type { Logger } from '../logger.js';
import type {
  ApprovalNotice,
  CompressNotice,
  ModelInterceptor,
  ToolDecisionInterceptor,
  ToolInterceptor,
  TurnInterceptor,
} from './interceptors.js';
import type { PolicySource } from './policy-rule.js';
import type { AgentHandle, SessionContext, SessionHandle } from './session-context.js';
import type { SessionRuntime } from './session-runtime.js';
import type { AnyTool, ToolProvider } from './tool-definition.js';
import type { SandboxFilesystem, SandboxShell } from './workspace-types.js';

/**
 * Contributes one section to the system prompt (e.g. the skills block), evaluated with a fresh
 * {@link SessionContext} before every model call. Return undefined (or an empty string) for nothing.
 */
export type SystemSectionProvider = (
  ctx: SessionContext,
) => string | undefined | Promise<string | undefined>;

/** The part of a session's workspace a feature may use while it initializes. */
export interface FeatureWorkspace {
  /** The working directory (absolute real path). */
  readonly cwd: string;
  /** Every root, writable ones first (absolute real paths). */
  readonly roots: ReadonlyArray<{ readonly path: string; readonly readOnly: boolean }>;
  /** Workspace-bound file access (the session's `ctx.fs`). */
  readonly fs: SandboxFilesystem;
  /** Workspace-bound, policy-checked commands (the session's `ctx.shell`). */
  readonly shell: SandboxShell;
  /** Adds a read-only root (an existing directory or file); returns its real path. */
  addReadOnlyRoot(target: string): string;
}

/** What a feature's `initialize` gets, once per session, while the session initializes. */
export interface FeatureSession {
  readonly sessionId: string;
  /** The session (the `GeminiCliSession`). */
  readonly session: SessionHandle;
  /** The agent (the `GeminiCliAgent`). */
  readonly agent: AgentHandle;
  /** True when the session was reopened with `resumeSession` (or `fork`), false for a new one. */
  readonly resumed: boolean;
  /** The session's file when its store keeps one (gemini-cli's `transcript_path`), else undefined. */
  readonly transcriptPath: string | undefined;
  readonly workspace: FeatureWorkspace;
  /** The agent's logger. */
  readonly logger: Logger;
  /** Aborts the initialization (the first `sendStream`'s signal, or `initialize(signal)`'s). */
  readonly signal: AbortSignal | undefined;
  /**
   * Puts an event into the session's stream: the running one, or the next one when none runs (a warning about a
   * server that did not start reaches the first `sendStream`).
   */
  emit(event: ServerGeminiStreamEvent): void;
  /**
   * The session's model, chains and stores, for a feature that runs a nested conversation in the session (the
   * subagents feature): see {@link SessionRuntime}.
   */
  readonly runtime: SessionRuntime;
}

/** Undoes what `initialize` set up for one session (child processes, sockets, timers). */
export type FeatureDispose = () => void | Promise<void>;

/**
 * One capability of an agent, as a plain object of optional parts. Skills, the built-in tools and the policy are
 * features; pass your own in the agent's `features` option. Parts:
 *
 * - `tools`: a fixed list, or a provider asked before every model call;
 * - `systemSection`: a system-prompt section (text, or a function of a fresh context), before the instructions;
 * - `policy`: rules the policy engine adds when it is built (the first session), e.g. "my tools may run";
 * - `initialize(session)`: once per session, before its first model call; may return a dispose, run when the
 *   session closes (features in reverse order); `dispose()`: once, on `agent.close()`, in reverse order;
 * - interceptors `(call, next)`: `interceptTurn` around each `sendStream`, `interceptModel` around each model call,
 *   `interceptToolDecision` around each tool call's decision, `interceptTool` around each tool execution. The
 *   features' interceptors compose in the agent's feature order, the first one outermost;
 * - `approvalRequested(notice)`: before a human is asked to approve a call; `beforeCompress(notice)`: before the
 *   session's history is compressed.
 *
 * @example
 * ```ts
 * const audit: Feature = {
 *   name: 'audit',
 *   tools: [now],
 *   systemSection: 'Log every change you make.',
 *   async interceptTool(run, next) {
 *     const result = await next();
 *     log.push(`${run.tool.name} ${JSON.stringify(run.args)}`);
 *     return result;
 *   },
 *   initialize: () => () => log.push('session closed'),
 * };
 * new GeminiCliAgent({ features: [audit] });
 * ```
 */
export interface Feature {
  /** A short name for messages and logs (`skills`, `policy`, `mcp:github`, …). */
  readonly name: string;
  /** Tools to offer: `tool()` definitions or `AgentTool`s, or a provider evaluated before every model call. */
  readonly tools?: readonly AnyTool[] | ToolProvider;
  /** A section of the system prompt: fixed text, or a function of a fresh context (undefined for none). */
  readonly systemSection?: string | SystemSectionProvider;
  /**
   * Policy rules with their origin (tier and source label), added when the agent's policy engine is built. A
   * function is called then, once (it may load what the rules depend on).
   */
  readonly policy?:
    | readonly PolicySource[]
    | ((signal?: AbortSignal) => readonly PolicySource[] | Promise<readonly PolicySource[]>);
  /** Runs once per session as it initializes, in feature order; a returned function runs on `session.close()`. */
  initialize?(session: FeatureSession): void | FeatureDispose | Promise<void | FeatureDispose>;
  /** Agent-level teardown, on `agent.close()` (after every open session closed), in reverse feature order. */
  dispose?(): void | Promise<void>;
  /** Around each `sendStream` / `resolveApprovals`. */
  readonly interceptTurn?: TurnInterceptor;
  /** Around each model call. */
  readonly interceptModel?: ModelInterceptor;
  /** Around each tool call's decision (before the turn's calls run). */
  readonly interceptToolDecision?: ToolDecisionInterceptor;
  /** Around each tool execution. */
  readonly interceptTool?: ToolInterceptor;
  /**
   * Called (and awaited, in feature order) before a human is asked to approve a call — before `onApproval` is
   * called, or before the run pauses with `approval_required`. For notifications (gemini-cli's Notification
   * hook), audit logs, telemetry; it cannot change the request. A throw is logged and ignored.
   */
  approvalRequested?(notice: ApprovalNotice): void | Promise<void>;
  /**
   * Called (and awaited, in feature order) before the session compresses its history, by the feature that
   * compresses it (gemini-cli's PreCompress hook). Advisory: it cannot stop the compression.
   */
  beforeCompress?(notice: CompressNotice): void | Promise<void>;
}
