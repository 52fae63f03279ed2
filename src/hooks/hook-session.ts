import type { Content, Part } from '@google/genai';
import type { FeatureSession } from '../core/feature.js';
import { createSessionContext, type SessionContext } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { HookScope } from './hook-system.js';

/** What the hooks feature keeps per session (from `initialize` until `close()`). */
export interface HookSessionState {
  /** The session as `initialize` saw it (workspace, agent, transcript path). */
  readonly session: FeatureSession;
  /** gemini-cli's `transcript_path`: the session file, or `''`. */
  readonly transcriptPath: string;
  /** SessionStart's `additionalContext` (sanitized), put before the next prompt once. */
  startContext: string | undefined;
  /** Calls whose arguments a BeforeTool hook rewrote (their result gets gemini-cli's note). */
  readonly rewrittenCalls: Set<string>;
  /** Set when a tool hook stopped the agent during the running turn (AfterAgent then does not fire). */
  toolStopped: boolean;
}

/** A fresh context for hooks that fire outside a model or tool call (turn and session events). */
export function sessionContextOf(state: HookSessionState, signal: AbortSignal): SessionContext {
  const { session } = state;
  return createSessionContext(
    {
      sessionId: session.sessionId,
      history: session.session.getHistory(),
      cwd: session.workspace.cwd,
      fs: session.workspace.fs,
      shell: session.workspace.shell,
      agent: session.agent,
      session: session.session,
    },
    signal,
  );
}

/** The scope of a hook firing with this context and emitter. */
export function scopeOf(
  state: HookSessionState | undefined,
  ctx: SessionContext,
  emit: (event: ServerGeminiStreamEvent) => void,
  reported?: Set<string>,
): HookScope {
  return { ctx, emit, transcriptPath: state?.transcriptPath ?? '', reported };
}

/** gemini-cli's `partToString` of a prompt: its text parts, joined. */
export function promptText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/** The last prompt a user sent (a text part of a user turn), for turns that continue after approvals. */
export function lastUserPrompt(history: readonly Content[]): string {
  for (let i = history.length - 1; i >= 0; i--) {
    const content = history[i];
    if (content?.role !== 'user') continue;
    const text = promptText(content.parts);
    if (text !== '') return text;
  }
  return '';
}
