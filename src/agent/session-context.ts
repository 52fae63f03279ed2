import type { Content } from '@google/genai';
import type { AgentFilesystem, AgentShell } from '../workspace/types.js';
import type { GeminiCliAgent } from './agent.js';
import type { GeminiCliSession } from './session.js';
import type { SessionContext } from './types.js';

/** What {@link createSessionContext} needs. */
export interface SessionContextSource {
  sessionId: string;
  /**
   * The live history. It must only grow (entries appended, never changed or removed): the context's transcript
   * is the frozen deep copy of its first `history.length` entries as of the call, taken on first access.
   */
  history: readonly Content[];
  cwd: string;
  fs: AgentFilesystem;
  shell: AgentShell;
  agent: GeminiCliAgent;
  session: GeminiCliSession;
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
  const { history } = source;
  const length = history.length;
  let transcript: readonly Content[] | undefined;
  return Object.freeze({
    sessionId: source.sessionId,
    get transcript(): readonly Content[] {
      transcript ??= Object.freeze(structuredClone(history.slice(0, length)));
      return transcript;
    },
    cwd: source.cwd,
    timestamp: new Date().toISOString(),
    fs: source.fs,
    shell: source.shell,
    agent: source.agent,
    session: source.session,
    signal,
  });
}
