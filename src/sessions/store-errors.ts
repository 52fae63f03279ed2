import {
  SessionError,
  SessionLockedError,
  SessionNotFoundError,
  type GeminiAgentErrorOptions,
} from '../errors.js';

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

/**
 * A new session was started with an id that is already stored (code `SESSION_EXISTS`). The stored session is left
 * untouched: resume it with `agent.resumeSession(id)`, delete it, or pick another id.
 */
export class SessionExistsError extends SessionError {
  constructor(message: string, options: GeminiAgentErrorOptions = {}) {
    super(message, { ...options, code: 'SESSION_EXISTS' });
  }
}

/** Starting a new session with an id that is already stored. */
export function sessionExistsError(sessionId: string, where: string): SessionExistsError {
  return new SessionExistsError(
    `Session with ID ${sessionId} already exists in ${where}. Resume it with agent.resumeSession(` +
      `${JSON.stringify(sessionId)}), delete it with agent.deleteSession(${JSON.stringify(sessionId)}), or ` +
      `start a session with a new id.`,
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
