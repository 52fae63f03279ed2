import {
  validateBudget,
  type Budget,
  type BudgetSpent,
  type BudgetTracker,
} from '../context/budget.js';
import { ConfigurationError } from '../errors.js';
import type { BudgetExceededInfo } from '../events.js';
import type { LoopStart } from '../loop/loop-types.js';
import type { SessionState } from './session-state.js';
import type { SessionTurns } from './session-turn.js';

/** `session.budget`: the limits, what the session spent, and the pause a turn waits on (if any). */
export interface SessionBudget {
  limits: Budget;
  spent: BudgetSpent;
  /** Set while a turn is paused on the budget (`budget_exceeded`); `resumeTurn()` continues it. */
  paused: BudgetExceededInfo | undefined;
}

/** A copy of a tracker's figures. */
export function budgetView(tracker: BudgetTracker): SessionBudget {
  return {
    limits: { ...tracker.limits },
    spent: { ...tracker.spent },
    paused: tracker.paused && structuredClone(tracker.paused),
  };
}

/**
 * `session.extendBudget(more)`: raises the limits and stores them (at once when no turn runs; at the end of the
 * running turn otherwise).
 *
 * @throws ConfigurationError for a bad amount.
 */
export async function extendSessionBudget(
  state: SessionState,
  turns: Pick<SessionTurns, 'saveBudget' | 'end'>,
  more: unknown,
  running: boolean,
): Promise<void> {
  state.budget.extend(validateBudget(more, 'extendBudget'));
  if (running) return;
  await state.log.startTurn?.();
  await turns.end(state.log);
}

/**
 * The start of `session.resumeTurn()`: the loop continues from the stored history (which ends with the prompt or
 * the tool results the model had not seen yet).
 *
 * @throws ConfigurationError when no turn is paused on the budget.
 */
export function continueStart(state: SessionState, sessionId: string): LoopStart {
  if (state.budget.paused === undefined) {
    throw new ConfigurationError(
      `Session ${sessionId} has no turn paused on its budget: resumeTurn() continues a turn that ended with budget_exceeded.`,
    );
  }
  state.budget.paused = undefined;
  return { kind: 'continue' };
}
