import { SessionError, SessionLockedError, SessionNotFoundError } from '../errors.js';

/**
 * The reference SDK's resume errors: `No sessions found in <where>` when the store holds no session at all,
 * `Session with ID <id> not found` otherwise.
 */
export function sessionNotFoundError(
  sessionId: string,
  where: string,
  storeIsEmpty: boolean,
): SessionNotFoundError {
  return new SessionNotFoundError(
    storeIsEmpty ? `No sessions found in ${where}` : `Session with ID ${sessionId} not found`,
  );
}

/** Starting a new session with an id that is already stored. */
export function sessionExistsError(sessionId: string, where: string): SessionError {
  return new SessionError(
    `Session with ID ${sessionId} already exists in ${where}. Resume it with agent.resumeSession(` +
      `${JSON.stringify(sessionId)}), delete it with agent.deleteSession(...), or start a session with a new id.`,
    { code: 'SESSION_EXISTS' },
  );
}

/** A write with a lease that is released or comes from another store. */
export function leaseInvalidError(sessionId: string, why: string): SessionError {
  return new SessionError(
    `Cannot write session ${sessionId}: ${why}. Open the session again (agent.resumeSession) to get a new lease.`,
    { code: 'SESSION_LEASE_INVALID' },
  );
}

/** Another live writer holds the session. */
export function sessionLockedError(sessionId: string, holder: string): SessionLockedError {
  return new SessionLockedError(
    `Session ${sessionId} is already open for writing by ${holder}. Close that session first ` +
      `(session.close()), or fork this one (session.fork()) to continue it under a new id.`,
  );
}
