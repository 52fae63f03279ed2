import type { Content } from '@google/genai';
import type {
  PausedTurnData,
  SessionLog,
  SessionLogEntry,
  SessionNote,
} from '../core/session-log.js';
import { InternalError, SessionError } from '../errors.js';
import type { WarningInfo } from '../events.js';
import { recordsFromEntry, recordsFromNote, type RecordWriterState } from './records-from-entry.js';
import type { MessageRecord, SessionRecord } from './records.js';
import type { AppendOutcome, SessionLease, SessionStore } from './session-store.js';

/**
 * Metadata key of a paused turn (durable approvals), written as `{"$set":{"pausedTurn":{modelMessageId, turn}}}`
 * and cleared with `{"$set":{"pausedTurn":null}}` in the same write as the turn's results. gemini-cli keeps unknown
 * metadata keys.
 */
export const PAUSED_TURN_KEY = 'pausedTurn';

/** Metadata key of the session's budget (limits, spent, a pause), `{"$set":{"budget":…}}`. */
export const SESSION_BUDGET_KEY = 'budget';

/** Metadata key of the session's policy state ("always allow" rules granted in it), `{"$set":{"sessionPolicy":…}}`. */
export const SESSION_POLICY_KEY = 'sessionPolicy';

/** What a {@link StoreSessionLog} starts from. */
export interface StoreSessionLogInit {
  sessionId: string;
  /** The session file, when the store keeps one per session. */
  file: string | undefined;
  history: Content[];
  pausedTurn: PausedTurnData | undefined;
  /** The stored policy state, as found in the metadata (validated by the agent). */
  policyState: unknown;
  /** The stored budget state, as found in the metadata (validated by the agent). */
  budgetState?: unknown;
  store: SessionStore;
  lease: SessionLease;
  state: RecordWriterState;
  newId: () => string;
  now: () => Date;
  /** True while the stored metadata holds a paused turn that the next results must clear. */
  pauseStored: boolean;
}

/**
 * The agent's {@link SessionLog} over a store lease: each entry is one store append (one write), durable when it
 * resolves. The lease is busy during a turn and idle between turns (`startTurn` / `finishTurn`), so another session
 * object, agent or process can take the session over whenever this one is idle; this one then refuses to write
 * (`SessionLockedError`) instead of writing alongside it. Repairs the store reports go to `onWarning`.
 */
export class StoreSessionLog implements SessionLog {
  readonly sessionId: string;
  readonly file: string | undefined;
  readonly history: Content[];
  readonly pausedTurn: PausedTurnData | undefined;
  readonly policyState: unknown;
  readonly budgetState: unknown;
  onWarning: ((warning: WarningInfo) => void) | undefined;
  private readonly init: StoreSessionLogInit;
  private pauseStored: boolean;
  private closed = false;
  private busy = true;
  /** The last write asked for: every write waits for the one before it (notes arrive from outside the loop). */
  private tail: Promise<void> = Promise.resolve();

  constructor(init: StoreSessionLogInit) {
    this.init = init;
    this.sessionId = init.sessionId;
    this.file = init.file;
    this.history = init.history;
    this.pausedTurn = init.pausedTurn;
    this.policyState = init.policyState;
    this.budgetState = init.budgetState;
    this.pauseStored = init.pauseStored;
  }

  async startTurn(): Promise<void> {
    this.checkOpen();
    if (this.busy) return;
    await this.init.lease.setIdle?.(false);
    this.busy = true;
  }

  async finishTurn(): Promise<void> {
    await this.tail;
    if (this.closed || !this.busy) return;
    this.busy = false;
    await this.init.lease.setIdle?.(true);
  }

  async append(entry: SessionLogEntry): Promise<void> {
    this.checkOpen();
    const records = recordsFromEntry(entry, this.init.state, this.init.newId);
    const clears = this.pauseStored && entry.kind === 'tool_results';
    if (clears) records.push({ $set: { [PAUSED_TURN_KEY]: null } });
    await this.write(records);
    if (clears) this.pauseStored = false;
  }

  /** Stores a display line (a retry, a compression) after the writes asked for before it. */
  async appendNote(note: SessionNote): Promise<void> {
    this.checkOpen();
    await this.write(recordsFromNote(note, this.init.newId));
  }

  /**
   * Writes the turns as one `{"$set":{"messages":[…]}}` checkpoint (what gemini-cli writes when its history is
   * replaced): every reader folds it into exactly these messages.
   */
  async replaceHistory(entries: readonly SessionLogEntry[]): Promise<void> {
    this.checkOpen();
    const state: RecordWriterState = { lastModelMessage: undefined };
    const messages = new Map<string, MessageRecord>();
    for (const entry of entries) {
      for (const record of recordsFromEntry(entry, state, this.init.newId)) {
        if ('id' in record && typeof record.id === 'string')
          messages.set(record.id, record as MessageRecord);
      }
    }
    await this.write([
      { $set: { messages: [...messages.values()], lastUpdated: this.init.now().toISOString() } },
    ]);
    this.init.state.lastModelMessage = state.lastModelMessage;
  }

  async savePausedTurn(turn: PausedTurnData): Promise<void> {
    this.checkOpen();
    const model = this.init.state.lastModelMessage;
    if (model === undefined) {
      throw new InternalError(
        'A paused turn can only be stored after the model turn it belongs to.',
      );
    }
    await this.write([
      {
        $set: {
          [PAUSED_TURN_KEY]: { modelMessageId: model.id, turn },
          lastUpdated: this.init.now().toISOString(),
        },
      },
    ]);
    this.pauseStored = true;
  }

  /** Stores the session's budget state, durably when it resolves. */
  async saveBudgetState(state: Record<string, unknown>): Promise<void> {
    this.checkOpen();
    await this.write([{ $set: { [SESSION_BUDGET_KEY]: state } }]);
  }

  /** Stores the session's policy state (replacing the earlier one), durably when it resolves. */
  async savePolicyState(state: Record<string, unknown>): Promise<void> {
    this.checkOpen();
    await this.write([{ $set: { [SESSION_POLICY_KEY]: state } }]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.tail;
    if (this.closed) return;
    this.closed = true;
    await this.init.lease.release();
  }

  /**
   * One store append inside a turn (one is started when none runs), after the write asked for before it; repairs go
   * to `onWarning`.
   */
  private write(records: SessionRecord[]): Promise<void> {
    const run = this.tail.then(() => this.writeNow(records));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async writeNow(records: SessionRecord[]): Promise<void> {
    await this.startTurn();
    const outcome = (await this.init.store.append(this.init.lease, records)) as
      AppendOutcome | undefined;
    for (const warning of outcome?.warnings ?? []) this.onWarning?.(warning);
  }

  private checkOpen(): void {
    if (this.closed) {
      throw new SessionError(
        `Session ${this.sessionId} is closed; resume it with agent.resumeSession(${JSON.stringify(this.sessionId)}).`,
        { code: 'SESSION_CLOSED' },
      );
    }
  }
}
