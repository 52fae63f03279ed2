import { CliUsageError } from './cli-errors.js';
import { formatRelativeTime } from './relative-time.js';
import type { GeminiCliAgent, SessionSummary } from './sdk.js';

const TITLE_MAX = 100;

/** This project's sessions as `--list-sessions` numbers them: oldest start first, numbered from 1. */
export async function listProjectSessions(agent: GeminiCliAgent): Promise<SessionSummary[]> {
  const sessions = await agent.listSessions();
  return [...sessions].sort(
    (a, b) => a.startTime.localeCompare(b.startTime) || a.sessionId.localeCompare(b.sessionId),
  );
}

/** The title of a session in lists: its summary, else its first prompt, else a placeholder. */
export function sessionTitle(session: SessionSummary): string {
  const raw = (session.summary ?? session.firstPrompt ?? '(no prompt)').replace(/\s+/g, ' ').trim();
  return raw.length > TITLE_MAX ? `${raw.slice(0, TITLE_MAX - 3)}...` : raw;
}

/** One `--list-sessions` line, in gemini-cli's format: `  N. <title> (<relative time>) [<id>]`. */
export function formatSessionLine(session: SessionSummary, index: number, now?: Date): string {
  const time = formatRelativeTime(session.lastUpdated, now);
  return `  ${index + 1}. ${sessionTitle(session)} (${time}) [${session.sessionId}]`;
}

/**
 * Resolves `-r/--resume` and `--delete-session` values: `latest` (the most recent), an exact session id, or
 * a 1-based index from `--list-sessions`.
 *
 * @throws CliUsageError (exit 42) when nothing matches, naming `--list-sessions`.
 */
export function findSession(sessions: readonly SessionSummary[], ref: string): SessionSummary {
  if (sessions.length === 0) {
    throw new CliUsageError(
      'No previous sessions found for this project. Run a prompt first, or check GEMINI_CLI_HOME and the directory you run in.',
    );
  }
  if (ref === 'latest') return sessions[sessions.length - 1] as SessionSummary;
  const byId = sessions.find((s) => s.sessionId === ref);
  if (byId !== undefined) return byId;
  if (/^\d+$/.test(ref)) {
    const index = Number(ref);
    const byIndex = sessions[index - 1];
    if (index >= 1 && byIndex !== undefined) return byIndex;
    throw new CliUsageError(
      `Invalid session index ${ref}: this project has ${sessions.length} session(s). Use --list-sessions to see them.`,
    );
  }
  throw new CliUsageError(
    `Invalid session identifier "${ref}". Use --list-sessions to see available sessions.`,
  );
}
