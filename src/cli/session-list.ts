import { CliUsageError, GeminiWordedError } from './cli-errors.js';
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
 * Resolves the session value of `gemini-agent view`: `latest` (the most recent), an exact session id, or
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

/**
 * Resolves `-r/--resume` as gemini-cli 0.61 does: `latest` (the most recent; undefined when there is none, and
 * the caller starts a new session with gemini's warning), an exact session id, or a 1-based index written without
 * leading zeros. The value is trimmed.
 *
 * @param chatsDir where the sessions were looked for, named in the error as gemini names it.
 * @throws GeminiWordedError (exit 42) with gemini's `Error resuming session: …` text when nothing matches.
 */
export async function findResumeSession(
  sessions: readonly SessionSummary[],
  ref: string,
  chatsDir: () => Promise<string>,
): Promise<SessionSummary | undefined> {
  const wanted = ref.trim();
  if (sessions.length === 0) {
    if (wanted === 'latest') return undefined;
    throw new GeminiWordedError(`Error resuming session: ${NO_SESSIONS}`);
  }
  if (wanted === 'latest') return sessions[sessions.length - 1];
  const byId = sessions.find((s) => s.sessionId === wanted);
  if (byId !== undefined) return byId;
  const index = Number.parseInt(wanted, 10);
  if (String(index) === wanted && index >= 1 && index <= sessions.length)
    return sessions[index - 1];
  throw new GeminiWordedError(
    `Error resuming session: Invalid session identifier "${wanted}".\n  Searched for sessions in ${await chatsDir()}.\n` +
      '  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.',
  );
}

/** gemini-cli's text for a project without sessions (a warning for `-r latest`, else the error). */
export const NO_SESSIONS = 'No previous sessions found for this project.';
