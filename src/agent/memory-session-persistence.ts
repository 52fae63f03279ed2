import type { Content } from '@google/genai';
import { SessionNotFoundError } from '../errors.js';
import type { SessionLogEntry } from '../loop/session-log-entry.js';
import type { SessionLog, SessionOpenOptions, SessionPersistence } from './session-persistence.js';

/**
 * Keeps sessions in memory (per instance): `resumeSession(id)` restores the exact history of a session opened
 * earlier through the same instance. Opening a new session with an id that exists starts it afresh.
 */
export class MemorySessionPersistence implements SessionPersistence {
  private readonly sessions = new Map<string, SessionLogEntry[]>();

  async open(sessionId: string, options: SessionOpenOptions): Promise<SessionLog> {
    let entries = this.sessions.get(sessionId);
    if (options.resume) {
      if (!entries) throw new SessionNotFoundError(`Session with ID ${sessionId} not found`);
    } else {
      entries = [];
      this.sessions.set(sessionId, entries);
    }
    const log = entries;
    const history: Content[] = structuredClone(log.map((e) => e.content));
    return {
      history,
      append: async (entry) => {
        log.push(structuredClone(entry));
      },
      close: async () => undefined,
    };
  }

  /** The entries stored for a session (a copy), or undefined. */
  entries(sessionId: string): SessionLogEntry[] | undefined {
    const entries = this.sessions.get(sessionId);
    return entries ? structuredClone(entries) : undefined;
  }
}
