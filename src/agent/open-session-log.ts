import { SessionExistsError } from '../sessions/store-errors.js';
import type { AgentServices } from './agent-services.js';
import type { SessionLog } from '../core/session-log.js';

/**
 * Opens the log of a session created with `agent.session()`. A generated id starts a new stored session. An id the
 * caller chose (`agent.session({ sessionId })`) continues the stored session of that id when there is one — as
 * resuming it would, history and paused approvals included — and starts it otherwise; nothing stored is ever
 * replaced. An idle session of the same agent holding that id hands its lease over first, as for `resumeSession`.
 * `resumed` says whether a stored session was continued.
 */
export async function openSessionLog(
  services: Pick<AgentServices, 'persistence' | 'openSessions'>,
  sessionId: string,
  options: { chosenId: boolean; cwd: string },
): Promise<{ log: SessionLog; resumed: boolean }> {
  const { persistence } = services;
  const create = async () => ({
    log: await persistence.open(sessionId, { resume: false, cwd: options.cwd }),
    resumed: false,
  });
  if (!options.chosenId) return create();
  await services.openSessions.handOver(sessionId);
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof SessionExistsError)) throw error;
    return {
      log: await persistence.open(sessionId, { resume: true, cwd: options.cwd }),
      resumed: true,
    };
  }
}
