import type { Conversation } from './conversation.js';
import type { MessageRecord } from './records.js';
import type { SessionSummary, StoredSession } from './session-store.js';

const FIRST_PROMPT_MAX = 200;

function userText(message: MessageRecord): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => (typeof p === 'string' ? p : typeof p['text'] === 'string' ? p['text'] : ''))
    .join('');
}

function isPrompt(text: string): boolean {
  const t = text.trim();
  return !(
    t.length === 0 ||
    t.startsWith('/') ||
    t.startsWith('?') ||
    t.startsWith('<session_context>') ||
    t.startsWith('<hook_context>')
  );
}

/** The first real user prompt of a session: text of the first user message that is not injected or a command. */
export function firstPrompt(messages: readonly MessageRecord[]): string | undefined {
  for (const m of messages) {
    if (m.type !== 'user') continue;
    const text = userText(m);
    if (!isPrompt(text)) continue;
    const trimmed = text.trim();
    return trimmed.length > FIRST_PROMPT_MAX
      ? `${trimmed.slice(0, FIRST_PROMPT_MAX - 1)}…`
      : trimmed;
  }
  return undefined;
}

/**
 * Completes a folded conversation into a {@link StoredSession}: `startTime`/`lastUpdated` fall back to the
 * first/last message timestamps, then to `fallbackTime`.
 */
export function toStoredSession(
  conversation: Conversation,
  location: string,
  fallbackTime: string,
): StoredSession {
  const { metadata, messages } = conversation;
  const startTime = metadata.startTime ?? messages[0]?.timestamp ?? fallbackTime;
  const lastUpdated = metadata.lastUpdated ?? messages.at(-1)?.timestamp ?? startTime;
  return { metadata: { ...metadata, startTime, lastUpdated }, messages, location };
}

/** The {@link SessionSummary} of a stored session. */
export function summarizeSession(session: StoredSession): SessionSummary {
  const { metadata, messages, location } = session;
  const prompt = firstPrompt(messages);
  return {
    sessionId: metadata.sessionId,
    startTime: metadata.startTime,
    lastUpdated: metadata.lastUpdated,
    ...(metadata.summary !== undefined ? { summary: metadata.summary } : {}),
    ...(prompt !== undefined ? { firstPrompt: prompt } : {}),
    messageCount: messages.length,
    kind: metadata.kind ?? 'main',
    location,
  };
}

/**
 * Orders and de-duplicates summaries as `gemini --list-sessions`: subagent sessions dropped, one entry per id
 * (the latest `lastUpdated`), oldest `startTime` first.
 */
export function orderSummaries(summaries: readonly SessionSummary[]): SessionSummary[] {
  const byId = new Map<string, SessionSummary>();
  for (const s of summaries) {
    if (s.kind === 'subagent') continue;
    const seen = byId.get(s.sessionId);
    if (seen === undefined || s.lastUpdated > seen.lastUpdated) byId.set(s.sessionId, s);
  }
  return [...byId.values()].sort(
    (a, b) => a.startTime.localeCompare(b.startTime) || a.sessionId.localeCompare(b.sessionId),
  );
}
