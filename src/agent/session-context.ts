import type { Content } from '@google/genai';
import type { AgentFilesystem, AgentShell } from '../workspace/types.js';
import type { GeminiCliAgent } from './agent.js';
import type { GeminiCliSession } from './session.js';
import type { SessionContext } from './types.js';

/** What {@link createSessionContext} needs. */
export interface SessionContextSource {
  sessionId: string;
  /** The live history; the context gets a frozen deep copy. */
  history: readonly Content[];
  cwd: string;
  fs: AgentFilesystem;
  shell: AgentShell;
  agent: GeminiCliAgent;
  session: GeminiCliSession;
}

/** Builds a fresh, frozen {@link SessionContext}: transcript copied now, timestamp now, the given signal. */
export function createSessionContext(
  source: SessionContextSource,
  signal: AbortSignal,
): SessionContext {
  const transcript = Object.freeze(structuredClone([...source.history]));
  return Object.freeze({
    sessionId: source.sessionId,
    transcript,
    cwd: source.cwd,
    timestamp: new Date().toISOString(),
    fs: source.fs,
    shell: source.shell,
    agent: source.agent,
    session: source.session,
    signal,
  });
}
