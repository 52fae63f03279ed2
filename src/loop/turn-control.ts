/**
 * The stop switch of one `sendStream`, shared by every interceptor of the turn (`stop()`): the loop ends at its
 * next step boundary once it is set.
 */
export class TurnControl {
  private requested = false;

  /** True once `stop()` was called. */
  get stopped(): boolean {
    return this.requested;
  }

  /** Asks the loop to end the turn at its next step boundary. */
  readonly stop = (): void => {
    this.requested = true;
  };
}
