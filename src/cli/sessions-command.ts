import type { CliIo } from './cli-io.js';
import { formatSessionLine, listProjectSessions, sessionTitle } from './session-list.js';
import { formatRelativeTime } from './relative-time.js';
import type { GeminiCliAgent } from './sdk.js';

/** `--list-sessions`: prints this project's sessions on stdout, gemini-cli style. */
export async function listSessionsCommand(agent: GeminiCliAgent, io: CliIo): Promise<void> {
  const sessions = await listProjectSessions(agent);
  if (sessions.length === 0) {
    io.stdout('No previous sessions found for this project.\n');
    return;
  }
  const now = new Date();
  const lines = sessions.map((session, index) => formatSessionLine(session, index, now));
  io.stdout(`\nAvailable sessions for this project (${sessions.length}):\n\n${lines.join('\n')}\n`);
}

/**
 * `--delete-session <N|id>`: deletes one session and says which, as gemini-cli 0.61 does: an exact session id,
 * else a 1-based index from `--list-sessions`. When there is nothing to delete (no sessions, or a value that names
 * none) it prints gemini's line on stderr and the run still succeeds (exit 0), as gemini's does.
 */
export async function deleteSessionCommand(
  agent: GeminiCliAgent,
  io: CliIo,
  ref: string,
): Promise<void> {
  const sessions = await listProjectSessions(agent);
  if (sessions.length === 0) {
    io.stderr('No sessions found for this project.\n');
    return;
  }
  const byId = sessions.find((s) => s.sessionId === ref);
  const index =
    byId !== undefined ? sessions.indexOf(byId) + 1 : /^\d+$/.test(ref) ? Number(ref) : 0;
  const session = sessions[index - 1];
  if (index < 1 || session === undefined) {
    io.stderr(
      `Invalid session identifier "${ref}". Use --list-sessions to see available sessions.\n`,
    );
    return;
  }
  await agent.deleteSession(session.sessionId);
  io.stdout(
    `Deleted session ${index}: ${sessionTitle(session)} (${formatRelativeTime(session.lastUpdated)})\n`,
  );
}
