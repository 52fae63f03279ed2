import type { Content, Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { ContextWindowUsage, TokenUsage } from './usage.js';
import type { SandboxFilesystem, SandboxShell } from './workspace-types.js';

/**
 * What a tool, a dynamic instruction or a feature may use of the agent that owns a session: the reference SDK's
 * agent surface. `GeminiCliAgent` implements it, so `ctx.agent` is the agent itself.
 */
export interface AgentHandle {
  /** Creates a new, empty session of this agent. */
  session(options?: { sessionId?: string }): SessionHandle;
  /** Reopens a stored session of this agent (see `GeminiCliAgent.resumeSession`). */
  resumeSession(sessionId: string): Promise<SessionHandle>;
}

/**
 * What a tool, a dynamic instruction or a feature may use of a session: the reference SDK's session surface plus
 * read-only state. `GeminiCliSession` implements it, so `ctx.session` is the session itself.
 */
export interface SessionHandle {
  /** The session id. */
  readonly id: string;
  /** True while a `sendStream` (or `resolveApprovals`) of this session runs. */
  readonly streaming: boolean;
  /** Cumulative token usage of this session object's model calls. */
  readonly usage: TokenUsage;
  /** The history against the model's context window (undefined before the session initialized). */
  readonly contextWindow?: ContextWindowUsage | undefined;
  /** Prepares the session (done lazily by the first `sendStream`). */
  initialize(signal?: AbortSignal): Promise<void>;
  /** Sends a prompt and streams the agent's events (see `GeminiCliSession.sendStream`). */
  sendStream(
    prompt: string | Part[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void>;
  /** A copy of the conversation so far. */
  getHistory(): Content[];
}

/**
 * What tools and dynamic instructions receive: a fresh snapshot of the session for each model call or tool call.
 */
export interface SessionContext {
  /** The session's id. */
  readonly sessionId: string;
  /** The conversation so far (read-only copy). */
  readonly transcript: readonly Content[];
  /** The session's working directory (absolute). */
  readonly cwd: string;
  /** ISO time at which this context was built. */
  readonly timestamp: string;
  /** Workspace-bound, policy-aware file access. */
  readonly fs: SandboxFilesystem;
  /** Workspace-bound, policy-aware command execution. */
  readonly shell: SandboxShell;
  /** The agent that owns the session (the `GeminiCliAgent`). */
  readonly agent: AgentHandle;
  /** The session itself (the `GeminiCliSession`). */
  readonly session: SessionHandle;
  /** Fires when the current `sendStream` is aborted (or a tool's timeout expires). */
  readonly signal: AbortSignal;
}

/** What {@link createSessionContext} needs. */
export interface SessionContextSource {
  sessionId: string;
  /**
   * The live history. It must only grow (entries appended, never changed or removed): the context's transcript
   * is the frozen deep copy of its first `history.length` entries as of the call, taken on first access.
   */
  history: readonly Content[];
  cwd: string;
  fs: SandboxFilesystem;
  shell: SandboxShell;
  agent: AgentHandle;
  session: SessionHandle;
}

let secondStart = -1;
let secondPrefix = '';

/** `new Date(now).toISOString()`, with the part up to the second formatted once per second (it is on every context). */
export function isoTimestamp(now: number = Date.now()): string {
  const ms = now % 1000;
  const second = now - ms;
  if (second !== secondStart) {
    secondStart = second;
    secondPrefix = new Date(second).toISOString().slice(0, 19);
  }
  return `${secondPrefix}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/**
 * A fresh context: plain fields, and `transcript` as an accessor on the prototype (an object literal with a getter
 * allocates the accessor for every context, and the loop makes several per tool round).
 */
class FreshSessionContext implements SessionContext {
  readonly sessionId: string;
  readonly cwd: string;
  readonly timestamp: string;
  readonly fs: SandboxFilesystem;
  readonly shell: SandboxShell;
  readonly agent: AgentHandle;
  readonly session: SessionHandle;
  readonly signal: AbortSignal;
  readonly #history: readonly Content[];
  readonly #length: number;
  /** The transcript once read (private fields stay writable on a frozen object). */
  #copy: readonly Content[] | undefined;

  constructor(source: SessionContextSource, signal: AbortSignal) {
    this.sessionId = source.sessionId;
    this.cwd = source.cwd;
    this.timestamp = isoTimestamp();
    this.fs = source.fs;
    this.shell = source.shell;
    this.agent = source.agent;
    this.session = source.session;
    this.signal = signal;
    this.#history = source.history;
    this.#length = source.history.length;
    Object.freeze(this);
  }

  get transcript(): readonly Content[] {
    this.#copy ??= Object.freeze(structuredClone(this.#history.slice(0, this.#length)));
    return this.#copy;
  }
}

/**
 * Builds a fresh, frozen {@link SessionContext}: timestamp now, the given signal, and a `transcript` of the
 * history as it is now. The transcript is copied lazily (on first access, then cached), because most contexts
 * (policy checks, tool runs, model calls) never read it; the copy is deep and frozen, so nothing done to it
 * reaches the live history.
 */
export function createSessionContext(
  source: SessionContextSource,
  signal: AbortSignal,
): SessionContext {
  return new FreshSessionContext(source, signal);
}
