import { z } from 'zod';
import type { SessionLog } from '../core/session-log.js';
import type { ServerGeminiStreamEvent, WarningInfo } from '../events.js';
import type { EventPump } from '../loop/event-pump.js';
import type { Logger } from '../logger.js';
import type { PolicyRule } from '../core/policy-rule.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { BudgetTracker } from '../context/budget.js';

/** The stored form of a session's policy state: the "always allow" rules granted in it. */
const StoredPolicyState = z.object({
  version: z.literal(1),
  rules: z.array(z.record(z.string(), z.unknown())),
});

/**
 * What one session does around its turns on its log: restores and stores the "always allow" rules granted in it (so
 * a resumed session — in this process or another — keeps them), and ends each turn by making the log's lease idle,
 * so another session can take the session over between turns.
 */
export class SessionTurns {
  /** The session's budget: stored at the end of each turn in which it changed (when a limit is set). */
  budget: BudgetTracker | undefined;
  private storedVersion = 0;
  private storedBudget = '';
  private attached: SessionLog | undefined;

  constructor(
    private readonly policy: SessionPolicy,
    private readonly logger: Logger,
  ) {}

  /**
   * Binds the session's log: its repair warnings go to `emit` (the running stream), and the grants stored with the
   * session are restored (a rule that no longer validates is skipped, with a warning). Binding the same log again
   * does nothing.
   */
  attach(log: SessionLog, emit: (warning: WarningInfo) => void): void {
    if (this.attached === log) return;
    this.attached = log;
    log.onWarning = (warning) => {
      this.logger.warn(warning.message, { code: warning.code });
      emit(warning);
    };
    const parsed = StoredPolicyState.safeParse(log.policyState);
    if (!parsed.success && log.policyState !== undefined) {
      this.logger.warn(
        'the stored policy state of the session is not valid; no grant is restored',
        {
          issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
        },
      );
    }
    if (parsed.success) {
      for (const rule of parsed.data.rules) {
        try {
          this.policy.restore({ rules: [rule as PolicyRule] });
        } catch (error) {
          this.logger.warn('a stored "always allow" rule no longer validates; it is not restored', {
            rule,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    this.storedVersion = this.policy.rules.version;
  }

  /** Stores the grants if any was added since they were last stored. */
  async saveGrants(log: SessionLog): Promise<void> {
    const version = this.policy.rules.version;
    if (version === this.storedVersion || log.savePolicyState === undefined) return;
    await log.savePolicyState({ version: 1, rules: this.policy.rules.toJSON() });
    this.storedVersion = version;
  }

  /**
   * Runs one turn's events on the log: the lease is busy for the turn (a stale session that lost it fails here with
   * `SessionLockedError`, before anything runs), events emitted late (repair warnings of the last write) are
   * yielded, then the grants are stored and the lease goes idle again.
   */
  async *during(
    log: SessionLog,
    pump: EventPump,
    events: AsyncIterable<ServerGeminiStreamEvent>,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    await log.startTurn?.();
    try {
      yield* pump.drain();
      yield* events;
      yield* pump.drain();
    } finally {
      await this.end(log);
    }
  }

  /** Stores the budget if a limit is set and it changed since it was last stored. */
  async saveBudget(log: SessionLog): Promise<void> {
    const budget = this.budget;
    if (budget === undefined || log.saveBudgetState === undefined) return;
    if (!budget.active && budget.paused === undefined) return;
    const state = budget.toState();
    const json = JSON.stringify(state);
    if (json === this.storedBudget) return;
    await log.saveBudgetState(state);
    this.storedBudget = json;
  }

  /** Ends a turn: stores new grants, then lets the lease go idle. Never throws (failures are logged). */
  async end(log: SessionLog): Promise<void> {
    try {
      await this.saveGrants(log);
      await this.saveBudget(log);
      await log.finishTurn?.();
    } catch (error) {
      this.logger.warn('could not finish the turn on the session log', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
