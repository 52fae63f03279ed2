import type { ChatCompressedInfo } from '../events.js';
import type { CompressionRun } from './session-compression.js';
import { sessionContext, type OwnSession } from './session-environment.js';
import type { SessionState } from './session-state.js';
import type { SessionTurns } from './session-turn.js';

/**
 * `session.compress()`: a forced compression outside a turn, holding the session's lease busy while it writes (and
 * idle again after).
 */
export async function compressNow(
  run: Omit<CompressionRun, 'ctx' | 'emit' | 'state'> & { state: SessionState },
  session: OwnSession,
  turns: Pick<SessionTurns, 'end'>,
  emit: CompressionRun['emit'],
): Promise<ChatCompressedInfo> {
  const { state } = run;
  await state.log.startTurn?.();
  try {
    const ctx = sessionContext(session, state, run.signal ?? new AbortController().signal);
    return await state.compressor.run({ ...run, ctx, emit }, true);
  } finally {
    await turns.end(state.log);
  }
}
