import type { ChildProcess } from 'node:child_process';
import { AbortError, InternalError, LimitExceededError } from '../errors.js';
import type { Logger } from '../logger.js';
import { ChunkQueue } from './chunk-queue.js';
import { killProcessTree } from './process-tree.js';
import type { AgentShellOptions, ShellExit, ShellProcess } from '../core/workspace-types.js';

/** A streaming command started by `SandboxShell.start`: piped stdin, streamed stdout / stderr. */
export class ShellProcessHandle implements ShellProcess {
  readonly pid: number;
  readonly stdout: AsyncIterable<string>;
  readonly stderr: AsyncIterable<string>;
  readonly exited: Promise<ShellExit>;
  private error: Error | undefined;
  private killing: Promise<void> | undefined;
  private done = false;

  constructor(
    private readonly child: ChildProcess,
    options: AgentShellOptions,
    private readonly logger: Logger,
    maxQueuedBytes: number,
  ) {
    if (child.pid === undefined) {
      throw new InternalError('bash did not start (no pid). Is bash installed and on PATH?');
    }
    this.pid = child.pid;
    this.stdout = new ChunkQueue(child.stdout, maxQueuedBytes);
    this.stderr = new ChunkQueue(child.stderr, maxQueuedBytes);
    // Writes to a process that already exited fail with EPIPE; that is reported through `write()`.
    child.stdin?.on('error', (error) => this.logger.debug('workspace: stdin error', { error }));

    const timers: NodeJS.Timeout[] = [];
    let inactivity: NodeJS.Timeout | undefined;
    const armInactivity = (): void => {
      const seconds = options.inactivityTimeoutSeconds;
      if (seconds === undefined || seconds <= 0 || this.done) return;
      if (inactivity) clearTimeout(inactivity);
      inactivity = setTimeout(
        () =>
          this.terminate(
            new LimitExceededError(
              `Command was automatically cancelled because it exceeded the timeout of ${seconds} ` +
                'seconds without output.',
              { code: 'SHELL_INACTIVITY_TIMEOUT' },
            ),
          ),
        seconds * 1000,
      );
    };
    child.stdout?.on('data', armInactivity);
    child.stderr?.on('data', armInactivity);
    armInactivity();
    if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) {
      const seconds = options.timeoutSeconds;
      timers.push(
        setTimeout(
          () =>
            this.terminate(
              new LimitExceededError(`Command timed out after ${seconds} seconds.`, {
                code: 'SHELL_TIMEOUT',
              }),
            ),
          seconds * 1000,
        ),
      );
    }
    const onAbort = (): void =>
      this.terminate(new AbortError('Command was cancelled before it could complete.'));
    options.signal?.addEventListener('abort', onAbort, { once: true });

    this.exited = new Promise<ShellExit>((resolve) => {
      const finish = async (code: number | null, signal: string | null): Promise<void> => {
        if (this.done) return;
        this.done = true;
        for (const timer of timers) clearTimeout(timer);
        if (inactivity) clearTimeout(inactivity);
        options.signal?.removeEventListener('abort', onAbort);
        if (this.killing) await this.killing;
        resolve({ exitCode: code, signal, ...(this.error ? { error: this.error } : {}) });
      };
      child.on('error', (error) => {
        this.error ??= error;
        void finish(null, null);
      });
      child.on('close', (code, signal) => void finish(code, signal));
    });
  }

  private terminate(reason: Error, signal: NodeJS.Signals = 'SIGTERM'): void {
    this.error ??= reason;
    if (this.killing || this.done) return;
    this.logger.debug('workspace: killing streamed command', {
      pid: this.pid,
      reason: reason.message,
    });
    this.killing = killProcessTree(this.pid, signal);
  }

  write(data: string | Uint8Array): Promise<void> {
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) {
      return Promise.reject(new InternalError('stdin is closed.'));
    }
    return new Promise((resolve, reject) => {
      stdin.write(data, (error) => (error ? reject(error) : resolve()));
    });
  }

  end(): void {
    this.child.stdin?.end();
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.terminate(new AbortError('Command was killed.'), signal);
  }
}
