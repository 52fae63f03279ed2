import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseSessionText } from '../sessions/conversation.js';
import { sanitizeFilenamePart } from '../sessions/session-paths.js';
import type { SessionStore, SessionSummary } from '../sessions/session-store.js';
import { buildTimeline, type SessionRecords } from './build-timeline.js';
import type { TimelineView } from './timeline-types.js';

/** One line of the viewer's session list. */
export interface ViewerSessionSummary {
  sessionId: string;
  startTime: string;
  lastUpdated: string;
  summary: string | undefined;
  firstPrompt: string | undefined;
  messageCount: number;
}

/** The sessions of the store, newest first. */
export async function listViewerSessions(store: SessionStore): Promise<ViewerSessionSummary[]> {
  const list: SessionSummary[] = await store.list();
  return list
    .map((s) => ({
      sessionId: s.sessionId,
      startTime: s.startTime,
      lastUpdated: s.lastUpdated,
      summary: s.summary,
      firstPrompt: s.firstPrompt,
      messageCount: s.messageCount,
    }))
    .sort((a, b) => b.lastUpdated.localeCompare(a.lastUpdated));
}

/**
 * A subagent's session beside its parent's file (gemini-cli's `chats/<parent id>/<agent id>.jsonl`), when the
 * parent lives in a file.
 */
function subagentLoader(location: string, parentId: string) {
  return async (agentId: string): Promise<SessionRecords | undefined> => {
    const file = join(
      dirname(location),
      sanitizeFilenamePart(parentId),
      `${sanitizeFilenamePart(agentId)}.jsonl`,
    );
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    return parseSessionText(text).conversation;
  };
}

/** A session's timeline, or undefined when the store has no such session. */
export async function loadViewerTimeline(
  store: SessionStore,
  sessionId: string,
): Promise<TimelineView | undefined> {
  let stored;
  try {
    stored = await store.load(sessionId);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SESSION_NOT_FOUND') return undefined;
    throw error;
  }
  const loader = subagentLoader(stored.location, stored.metadata.sessionId);
  return buildTimeline(stored, loader);
}

/** A cheap fingerprint of a session's file (size and time), or undefined when it is not a file. */
export async function locationStamp(location: string): Promise<string | undefined> {
  const info = await stat(location).catch(() => undefined);
  return info?.isFile() === true ? `${info.size}:${info.mtimeMs}` : undefined;
}
