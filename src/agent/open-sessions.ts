import { SessionLockedError } from '../errors.js';

/** What the agent needs to know about one of its sessions that holds a session's lease. */
export interface LeaseHolder {
  readonly id: string;
  /** True while a `sendStream` / `resolveApprovals` of it runs. */
  readonly streaming: boolean;
  /** Releases the lease; the session object cannot be used afterwards. */
  close(): Promise<void>;
}

/**
 * The sessions of one agent that hold a lease, by id. `agent.resumeSession(id)` takes the lease over from an idle
 * session of the same agent (the reference SDK's `session()` then `resumeSession(sameId)` pattern keeps working,
 * still with one writer); any other holder — a streaming session, another agent, another process — makes it fail
 * with `SessionLockedError`.
 */
export class OpenSessions {
  /** Weak: a session the program dropped without closing it can still be garbage-collected (its lease with it). */
  private readonly byId = new Map<string, WeakRef<LeaseHolder>>();

  /** Records that `session` now holds its id's lease. */
  add(session: LeaseHolder): void {
    this.byId.set(session.id, new WeakRef(session));
  }

  /** Records that `session` released its lease. */
  remove(session: LeaseHolder): void {
    if (this.byId.get(session.id)?.deref() === session) this.byId.delete(session.id);
  }

  /** The sessions holding a lease now, in the order they took it. */
  all(): LeaseHolder[] {
    return [...this.byId.values()].flatMap((ref) => ref.deref() ?? []);
  }

  /**
   * Closes this agent's idle session holding `sessionId`, if any, so its lease can be taken.
   *
   * @throws SessionLockedError when that session is streaming.
   */
  async handOver(sessionId: string): Promise<void> {
    const holder = this.byId.get(sessionId)?.deref();
    if (holder === undefined) return;
    if (holder.streaming) {
      throw new SessionLockedError(
        `Session ${sessionId} is streaming a response in this agent. Wait for that sendStream to finish (or ` +
          'abort it) before resuming the session again, or fork it (session.fork()) to continue under a new id.',
      );
    }
    await holder.close();
  }
}
