import type { CliIo } from './cli-io.js';
import {
  findSession,
  formatSessionLine,
  listProjectSessions,
  sessionTitle,
} from './session-list.js';
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

/** `--delete-session <N|id>`: deletes one session and says which. */
export async function deleteSessionCommand(
  agent: GeminiCliAgent,
  io: CliIo,
  ref: string,
): Promise<void> {
  const sessions = await listProjectSessions(agent);
  const session = findSession(sessions, ref);
  const index = sessions.indexOf(session) + 1;
  await agent.deleteSession(session.sessionId);
  io.stdout(
    `Deleted session ${index}: ${sessionTitle(session)} (${formatRelativeTime(session.lastUpdated)})\n`,
  );
}
