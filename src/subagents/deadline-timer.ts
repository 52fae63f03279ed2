/**
 * A deadline that can be paused (gemini-cli's `DeadlineTimer`): `signal` aborts once `ms` of un-paused time have
 * passed. Pauses nest (two approvals waiting at once pause it until both are answered).
 */
export class DeadlineTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remaining: number;
  private startedAt = 0;
  private pauses = 0;

  constructor(ms: number) {
    this.remaining = ms;
    this.start();
  }

  /** Fires when the deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the clock until the matching {@link DeadlineTimer.resume}. */
  pause(): void {
    if (this.pauses++ > 0 || this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.remaining -= Date.now() - this.startedAt;
  }

  /** Restarts the clock when the last pause ends. */
  resume(): void {
    if (this.pauses === 0 || --this.pauses > 0 || this.controller.signal.aborted) return;
    this.start();
  }

  /** Stops the timer for good (the run is over). */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pauses = Number.POSITIVE_INFINITY;
  }

  private start(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(
      () => this.controller.abort(new Error('Agent timed out.')),
      Math.max(0, this.remaining),
    );
  }
}
