import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { AbortError, LimitExceededError, PolicyDeniedError } from '../errors.js';
import type { Logger } from '../logger.js';
import { OutputBuffer } from './output-buffer.js';
import type { PathGuard } from './path-guard.js';
import { killProcessTree } from './process-tree.js';
import { ShellProcessHandle } from './shell-process.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import type {
  SandboxShell,
  AgentShellOptions,
  AgentShellResult,
  ShellProcess,
} from '../core/workspace-types.js';
import { builtinModule } from '../lazy-require.js';

/** Decision of a {@link CommandCheck}. */
export type CommandDecision = { decision: 'allow' } | { decision: 'deny'; reason: string };

/**
 * The policy seam for `ctx.shell`: asked before every command a tool runs through `exec` / `start`.
 * The default allows everything (the workspace boundary on `cwd` still applies).
 */
export type CommandCheck = (command: string, ctx: { cwd: string }) => Promise<CommandDecision>;

/** Allows every command. */
export const allowAllCommands: CommandCheck = async () => ({ decision: 'allow' });

/** Default cap on the bytes kept per output buffer. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** How long to wait for the pipes to close after the shell exits (a background child may hold them). */
const PIPE_DRAIN_MS = 250;

/** Options shared by every command of a {@link WorkspaceShell}. */
export interface WorkspaceShellConfig {
  guard: PathGuard;
  logger: Logger;
  commandCheck: CommandCheck;
  /** Environment base (default `process.env`). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Default per-buffer output cap (default {@link DEFAULT_MAX_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
}

/**
 * Variables gemini-cli sets for every command: mark the environment, disable pagers and interactive
 * credential prompts (a headless agent cannot answer them).
 */
const FORCED_ENV: Record<string, string> = {
  GEMINI_CLI: '1',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GH_PROMPT_DISABLED: '1',
  GCM_INTERACTIVE: 'never',
};

/** Bash options gemini-cli turns off before the command (predictable globbing and prompts). */
const BASH_PRELUDE = 'shopt -u promptvars nullglob extglob nocaseglob dotglob;';

/** A prepared command: where and how it will run. */
interface Prepared {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The workspace-bound {@link SandboxShell}: `bash -c` in its own process group, policy-checked. */
export class WorkspaceShell implements SandboxShell {
  constructor(private readonly config: WorkspaceShellConfig) {}

  private async prepare(options: AgentShellOptions): Promise<Prepared> {
    const cwd = await this.config.guard.check(options.cwd ?? this.config.guard.cwd, 'write');
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new WorkspaceAccessError(`Directory does not exist: ${cwd}`, {
        path: options.cwd ?? cwd,
        resolvedPath: cwd,
        reason: 'INVALID_PATH',
      });
    }
    const env: NodeJS.ProcessEnv = {
      ...(this.config.baseEnv ?? process.env),
      ...FORCED_ENV,
      ...(options.env ?? {}),
    };
    return { cwd, env };
  }

  private async checkCommand(command: string, cwd: string): Promise<void> {
    const verdict = await this.config.commandCheck(command, { cwd });
    if (verdict.decision === 'deny') {
      this.config.logger.debug('workspace: command refused', { command, reason: verdict.reason });
      throw new PolicyDeniedError(verdict.reason);
    }
  }

  /** Policy-checked `exec` (what `ctx.shell.exec` does). */
  async exec(command: string, options: AgentShellOptions = {}): Promise<AgentShellResult> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(options);
      await this.checkCommand(command, prepared.cwd);
    } catch (error) {
      return refused(error);
    }
    return this.run(command, options, prepared);
  }

  /**
   * Runs a command WITHOUT asking the command check (the workspace boundary on `cwd` still applies). For
   * `run_shell_command`, whose call the scheduler's policy has already approved.
   */
  async execUnchecked(command: string, options: AgentShellOptions = {}): Promise<AgentShellResult> {
    let prepared: Prepared;
    try {
      prepared = await this.prepare(options);
    } catch (error) {
      return refused(error);
    }
    return this.run(command, options, prepared);
  }

  /** Policy-checked streaming start (what `ctx.shell.start` does). */
  async start(command: string, options: AgentShellOptions = {}): Promise<ShellProcess> {
    const prepared = await this.prepare(options);
    await this.checkCommand(command, prepared.cwd);
    return this.startUnchecked(command, options, prepared);
  }

  private outputCap(options: AgentShellOptions): number {
    const value = options.maxOutputBytes ?? this.config.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    return Number.isFinite(value) && value >= 1 ? Math.floor(value) : DEFAULT_MAX_OUTPUT_BYTES;
  }

  private spawnBash(command: string, prepared: Prepared, stdin: 'ignore' | 'pipe'): ChildProcess {
    return builtinModule<typeof ChildProcesses>('node:child_process').spawn(
      'bash',
      ['-c', `${BASH_PRELUDE}\n${command}`],
      {
        cwd: prepared.cwd,
        env: prepared.env,
        detached: process.platform !== 'win32',
        stdio: [stdin, 'pipe', 'pipe'],
        windowsHide: true,
      },
    );
  }

  private startUnchecked(
    command: string,
    options: AgentShellOptions,
    prepared: Prepared,
  ): ShellProcess {
    if (options.signal?.aborted) throw new AbortError('Command was cancelled before it started.');
    const child = this.spawnBash(command, prepared, 'pipe');
    return new ShellProcessHandle(child, options, this.config.logger, this.outputCap(options));
  }

  private run(
    command: string,
    options: AgentShellOptions,
    prepared: Prepared,
  ): Promise<AgentShellResult> {
    if (options.signal?.aborted) {
      return Promise.resolve({
        exitCode: null,
        output: '',
        stdout: '',
        stderr: '',
        error: new AbortError('Command was cancelled before it started.'),
      });
    }
    const max = this.outputCap(options);
    const all = new OutputBuffer(max);
    const out = new OutputBuffer(max);
    const err = new OutputBuffer(max);
    const child = this.spawnBash(command, prepared, 'ignore');
    const logger = this.config.logger;

    return new Promise((resolve) => {
      let error: Error | undefined;
      let settled = false;
      let killing: Promise<void> | undefined;
      let exit: { code: number | null; signal: string | null } | undefined;
      const timers: NodeJS.Timeout[] = [];
      let inactivity: NodeJS.Timeout | undefined;

      const kill = (reason: Error): void => {
        error ??= reason;
        if (killing || child.pid === undefined) return;
        logger.debug('workspace: killing command', { pid: child.pid, reason: reason.message });
        killing = killProcessTree(child.pid);
      };
      const armInactivity = (): void => {
        const seconds = options.inactivityTimeoutSeconds;
        if (seconds === undefined || seconds <= 0) return;
        if (inactivity) clearTimeout(inactivity);
        inactivity = setTimeout(
          () =>
            kill(
              new LimitExceededError(
                `Command was automatically cancelled because it exceeded the timeout of ${seconds} ` +
                  'seconds without output.',
                { code: 'SHELL_INACTIVITY_TIMEOUT' },
              ),
            ),
          seconds * 1000,
        );
      };
      const onAbort = (): void =>
        kill(new AbortError('Command was cancelled before it could complete.'));

      const finish = async (): Promise<void> => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        if (inactivity) clearTimeout(inactivity);
        options.signal?.removeEventListener('abort', onAbort);
        if (killing) await killing;
        resolve({
          exitCode: exit?.code ?? null,
          output: all.text(),
          stdout: out.text(),
          stderr: err.text(),
          signal: exit?.signal ?? null,
          ...(child.pid === undefined ? {} : { pid: child.pid }),
          ...(error ? { error } : {}),
        });
      };

      child.stdout?.on('data', (chunk: Buffer) => {
        all.push('stdout', chunk);
        out.push('stdout', chunk);
        armInactivity();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        all.push('stderr', chunk);
        err.push('stderr', chunk);
        armInactivity();
      });
      child.on('error', (spawnError) => {
        error ??= spawnError;
        void finish();
      });
      child.on('exit', (code, signal) => {
        exit = { code, signal };
        // A background child may keep the pipes open; stop waiting for it after a short drain.
        timers.push(
          setTimeout(() => {
            child.stdout?.destroy();
            child.stderr?.destroy();
            void finish();
          }, PIPE_DRAIN_MS),
        );
      });
      child.on('close', (code, signal) => {
        exit ??= { code, signal };
        void finish();
      });

      if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) {
        const seconds = options.timeoutSeconds;
        timers.push(
          setTimeout(
            () =>
              kill(
                new LimitExceededError(`Command timed out after ${seconds} seconds.`, {
                  code: 'SHELL_TIMEOUT',
                }),
              ),
            seconds * 1000,
          ),
        );
      }
      armInactivity();
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function refused(error: unknown): AgentShellResult {
  const reason = error instanceof Error ? error : new PolicyDeniedError(String(error));
  return { exitCode: 1, output: '', stdout: '', stderr: '', error: reason };
}
