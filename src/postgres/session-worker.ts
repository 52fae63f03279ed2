import type { Content } from '@google/genai';
import type { GeminiCliAgent } from '../agent/agent.js';
import type { GeminiCliSession } from '../agent/session.js';
import { SessionNotFoundError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { PostgresLease } from './postgres-lease.js';
import type { PostgresSessionStore } from './postgres-session-store.js';
import { PostgresSessionQueue, type SessionInput } from './session-queue.js';
import { WorkerSessionStore } from './worker-store.js';

/** Metadata key holding the ids of the last queued inputs delivered to a session. */
export const DELIVERED_INPUTS_KEY = 'workerInputs';
const DELIVERED_KEPT = 64;

/** What a worker reports as it goes (for logs and figures). */
export type WorkerEvent =
  | { type: 'claimed'; sessionId: string }
  | { type: 'delivered'; sessionId: string; input: SessionInput }
  | { type: 'skipped'; sessionId: string; input: SessionInput; reason: string }
  | { type: 'recovered'; sessionId: string }
  | { type: 'released'; sessionId: string }
  | { type: 'failed'; sessionId: string; error: unknown };

/** Options of {@link PostgresSessionWorker}. */
export interface PostgresSessionWorkerOptions {
  /** The store (and schema) holding the sessions and the queue. */
  store: PostgresSessionStore;
  /** Builds this worker's agent on the given store (pass it as `sessionStore`). Called once. */
  agent: (sessionStore: SessionStore) => GeminiCliAgent;
  /** Sessions run at once. Default 8. */
  concurrency?: number;
  /** Pause between claims when the queue is empty, in ms. Default 250. */
  pollMs?: number;
  /** Sent to a session whose last turn was cut off by a dead worker, so the model continues it. */
  recoveryPrompt?: string;
  /** Events (claimed, delivered, recovered…), e.g. for logs. */
  onEvent?: (event: WorkerEvent) => void;
  logger?: Logger;
}

/** Default {@link PostgresSessionWorkerOptions.recoveryPrompt}. */
export const DEFAULT_RECOVERY_PROMPT =
  'The previous turn was interrupted (the worker running it stopped). Continue where it left off.';

/** True when the conversation stopped mid-turn: it ends with a user turn, or with calls that nobody answered. */
function cutOff(history: readonly Content[], paused: boolean): boolean {
  const last = history.at(-1);
  if (last === undefined || paused) return false;
  if (last.role !== 'model') return true;
  return (last.parts ?? []).some((p) => p.functionCall !== undefined);
}

/**
 * A worker of the Postgres work queue: claims sessions with queued inputs (their write lease is the claim), runs
 * each input through its agent — prompts with `sendStream`, approval decisions with `resolveApprovals` — and
 * releases the session when nothing is left for it. Each input is delivered exactly once: the id of the input is
 * stored in the session in the same append as the first record it produced. A session whose turn was cut off by a
 * dead worker gets {@link PostgresSessionWorkerOptions.recoveryPrompt} first. `stop()` finishes the current
 * inputs and releases every lease (wire it to SIGTERM).
 */
export class PostgresSessionWorker {
  /** The queue this worker claims from. */
  readonly queue: PostgresSessionQueue;
  private readonly sessions: WorkerSessionStore;
  private readonly agent: GeminiCliAgent;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly logger: Logger;
  private readonly active = new Map<string, Promise<void>>();
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: PostgresSessionWorkerOptions) {
    this.queue = new PostgresSessionQueue(options.store);
    this.sessions = new WorkerSessionStore(options.store);
    this.agent = options.agent(this.sessions);
    this.concurrency = options.concurrency ?? 8;
    this.pollMs = options.pollMs ?? 250;
    this.logger = options.logger ?? silentLogger;
  }

  /** Starts claiming. Idempotent. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Stops claiming, lets the running inputs finish, releases the sessions. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    await Promise.all(this.active.values());
  }

  private emit(event: WorkerEvent): void {
    this.options.onEvent?.(event);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.active.size;
      let claimed: PostgresLease[] = [];
      if (free > 0) {
        claimed = await this.queue.claim(free).catch((err: unknown) => {
          this.logger.warn('worker: claim failed', { error: String(err) });
          return [];
        });
      }
      for (const lease of claimed) {
        const run = this.run(lease).finally(() => {
          this.active.delete(lease.sessionId);
          this.wake?.();
        });
        this.active.set(lease.sessionId, run);
      }
      if (claimed.length === 0 || this.active.size >= this.concurrency) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
  }

  private async run(lease: PostgresLease): Promise<void> {
    const id = lease.sessionId;
    this.emit({ type: 'claimed', sessionId: id });
    let session: GeminiCliSession | undefined;
    try {
      this.sessions.handOver(lease);
      const metadata = await this.options.store.loadMetadata(id).catch((err: unknown) => {
        if (err instanceof SessionNotFoundError) return undefined;
        throw err;
      });
      session =
        metadata === undefined
          ? this.agent.session({ sessionId: id })
          : await this.agent.resumeSession(id);
      const stored = metadata?.[DELIVERED_INPUTS_KEY];
      const delivered = new Set<number>(
        Array.isArray(stored) ? stored.filter((n) => typeof n === 'number') : [],
      );
      await this.work(session, delivered);
    } catch (err) {
      this.emit({ type: 'failed', sessionId: id, error: err });
      this.logger.warn('worker: session failed', { sessionId: id, error: String(err) });
    } finally {
      this.sessions.clearTag(id);
      await session?.close().catch(() => undefined);
      await this.sessions.takeBack(id)?.release();
      this.emit({ type: 'released', sessionId: id });
    }
  }

  private async work(session: GeminiCliSession, delivered: Set<number>): Promise<void> {
    const id = session.id;
    while (!this.stopping) {
      const paused = session.pendingApprovals.length > 0;
      if (cutOff(session.getHistory(), paused)) {
        await drain(session.sendStream(this.options.recoveryPrompt ?? DEFAULT_RECOVERY_PROMPT));
        this.emit({ type: 'recovered', sessionId: id });
        continue;
      }
      const inputs = await this.queue.pending(id);
      await this.queue.markDone(inputs.filter((i) => delivered.has(i.id)).map((i) => i.id));
      const open = inputs.filter((i) => !delivered.has(i.id));
      const next = paused ? open.find((i) => i.kind === 'approval') : open[0];
      if (next === undefined) return;
      const tag = { [DELIVERED_INPUTS_KEY]: [...delivered, next.id].slice(-DELIVERED_KEPT) };
      if (next.kind === 'approval') {
        const held = new Set(session.pendingApprovals.map((p) => p.callId));
        const decisions = next.decisions.filter((d) => held.has(d.callId));
        if (decisions.length === 0) {
          // Nothing it decides waits any more (decided already, or the pause was abandoned).
          this.emit({
            type: 'skipped',
            sessionId: id,
            input: next,
            reason: 'no such call waits for approval',
          });
          await this.queue.markDone([next.id]);
          delivered.add(next.id);
          continue;
        }
        this.sessions.tagNextAppend(id, tag);
        await drain(session.resolveApprovals(decisions));
      } else {
        this.sessions.tagNextAppend(id, tag);
        await drain(session.sendStream(next.prompt));
      }
      this.sessions.clearTag(id);
      delivered.add(next.id);
      this.emit({ type: 'delivered', sessionId: id, input: next });
      await this.queue.markDone([next.id]);
    }
  }
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}
