/**
 * A deadline that can be paused (gemini-cli's `DeadlineTimer`): `signal` aborts once `ms` of un-paused time have
 * passed, or when `parent` aborts (with its reason). Pauses nest (two approvals waiting at once pause it until both
 * are answered). Following the parent here costs one listener, where `AbortSignal.any([timer, parent])` per run
 * cost a signal, its weak references and its validation (~50 µs of every subagent delegation).
 */
export class DeadlineTimer {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remaining: number;
  private startedAt = 0;
  private pauses = 0;
  private deadlinePassed = false;
  private readonly detach: (() => void) | undefined;

  constructor(ms: number, parent?: AbortSignal) {
    this.remaining = ms;
    if (parent?.aborted) {
      this.controller.abort(parent.reason);
      return;
    }
    if (parent !== undefined) {
      const onAbort = (): void => {
        this.clear();
        this.controller.abort(parent.reason);
      };
      parent.addEventListener('abort', onAbort, { once: true });
      this.detach = () => parent.removeEventListener('abort', onAbort);
    }
    this.start();
  }

  /** Aborts when the deadline passes or the parent aborts. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the deadline itself passed (not the parent's abort). */
  get expired(): boolean {
    return this.deadlinePassed;
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

  /** Stops the timer for good (the run is over) and lets go of the parent. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pauses = Number.POSITIVE_INFINITY;
    this.detach?.();
  }

  private start(): void {
    this.startedAt = Date.now();
    this.timer = setTimeout(
      () => {
        this.deadlinePassed = true;
        this.detach?.();
        this.controller.abort(new Error('Agent timed out.'));
      },
      Math.max(0, this.remaining),
    );
  }
}
