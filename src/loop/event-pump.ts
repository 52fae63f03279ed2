import type { ServerGeminiStreamEvent } from '../events.js';

/**
 * Lets work that runs while the loop awaits it (tool gates asking for confirmation, retries) push events into
 * the stream: `emit` queues an event, `pump` yields queued events until the work settles, then returns its
 * value (or throws its error) after yielding whatever is left.
 */
export class EventPump {
  private queue: ServerGeminiStreamEvent[] = [];
  private wake: (() => void) | undefined;

  /** Queues an event for the stream. */
  readonly emit = (event: ServerGeminiStreamEvent): void => {
    this.queue.push(event);
    this.wake?.();
  };

  /** Yields queued events (without waiting for any work). */
  *drain(): Generator<ServerGeminiStreamEvent> {
    while (this.queue.length > 0) yield this.queue.shift() as ServerGeminiStreamEvent;
  }

  /** Yields events emitted while `work` runs, then returns its result. */
  async *pump<T>(work: Promise<T>): AsyncGenerator<ServerGeminiStreamEvent, T> {
    let settled = false;
    const done = work.then(
      () => {
        settled = true;
        this.wake?.();
      },
      () => {
        settled = true;
        this.wake?.();
      },
    );
    while (!settled) {
      yield* this.drain();
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (settled || this.queue.length > 0) resolve();
      });
      this.wake = undefined;
    }
    await done;
    yield* this.drain();
    return await work;
  }
}
