import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { killProcessTree } from '../workspace/process-tree.js';
import { parseCommandOutput } from './command-output.js';
import type { HookInput } from './hook-types.js';
import { builtinModule } from '../lazy-require.js';

/** A command hook as configured in `settings.json` (`{ "type": "command", "command": "…" }`). */
export interface CommandHookConfig {
  type: 'command';
  command: string;
  name?: string;
  description?: string;
  /** Milliseconds (default 60 000). */
  timeout?: number;
  /** Variables set on top of the inherited environment (extensions fill it). */
  env?: Record<string, string>;
}

/** gemini-cli's default hook timeout. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
/** Between SIGTERM and SIGKILL of a hook that outlived its timeout (gemini-cli: 5 s). */
export const HOOK_KILL_GRACE_MS = 5_000;
/** The most a command hook may print on stdout or on stderr; more kills it and ignores its output. */
export const MAX_HOOK_OUTPUT_BYTES = 1024 * 1024;

/** How one hook run ended. */
export interface HookRunResult {
  /** gemini-cli's `success`: exit code 0, or an in-process hook that returned (not threw, not timed out). */
  success: boolean;
  /** The answer as produced (parsed JSON, the mapped text, or a function's return value), not yet checked. */
  output: unknown;
  /** `json` or `text` for command hooks that printed something. */
  outputFormat?: 'json' | 'text';
  /** The exit code (null when a signal ended the process). */
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  durationMs: number;
  /** Why the run failed (spawn error, timeout, output too large, a throw), when it did. */
  error?: string;
}

/** What running a command hook needs besides the input. */
export interface CommandHookRun {
  /** The environment it starts from (already sanitized). */
  env: NodeJS.ProcessEnv;
  /** `GEMINI_PLANS_DIR`. */
  plansDir: string;
  /** Aborting kills it (its whole process group). */
  signal?: AbortSignal;
  /** Cap per stream (default {@link MAX_HOOK_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** Between SIGTERM and SIGKILL (default {@link HOOK_KILL_GRACE_MS}). */
  killGraceMs?: number;
}

/** POSIX shell quoting, as gemini-cli's `escapeShellArg` (shell-quote) for bash: plain words stay as they are. */
export function shellQuote(value: string): string {
  if (value === '') return '';
  if (/^[A-Za-z0-9_\-.,:/@%+=]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * gemini-cli's pre-spawn expansion of the bare `$VAR` form: `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD`,
 * `$CLAUDE_PROJECT_DIR` become the quoted cwd, `$GEMINI_PLANS_DIR` the quoted plans folder,
 * `$GEMINI_SESSION_ID` the quoted session id. `${VAR}` is left to the shell (the variables are also in the env).
 */
export function expandHookCommand(command: string, input: HookInput, plansDir: string): string {
  const cwd = shellQuote(input.cwd);
  const plans = shellQuote(plansDir);
  const session = shellQuote(input.session_id);
  return command
    .replace(/\$GEMINI_PROJECT_DIR/g, () => cwd)
    .replace(/\$GEMINI_CWD/g, () => cwd)
    .replace(/\$GEMINI_PLANS_DIR/g, () => plans)
    .replace(/\$GEMINI_SESSION_ID/g, () => session)
    .replace(/\$CLAUDE_PROJECT_DIR/g, () => cwd);
}

function shellCommand(command: string): { file: string; args: string[] } {
  if (process.platform === 'win32') {
    return {
      file: 'powershell.exe',
      args: [
        '-NoProfile',
        '-NonInteractive',
        '-Command',
        `${command}; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }`,
      ],
    };
  }
  return { file: 'bash', args: ['-c', command] };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Runs one command hook as gemini-cli does: `bash -c <command>` (PowerShell on Windows) in `input.cwd`, in its
 * own process group, with the `GEMINI_*` variables set, the input as JSON on stdin. On timeout or abort the whole
 * group gets SIGTERM, then SIGKILL after a grace period; output beyond the cap kills it too. Never rejects: every
 * failure is a result with `success: false` (fail open).
 */
export function runCommandHook(
  config: CommandHookConfig,
  input: HookInput,
  run: CommandHookRun,
): Promise<HookRunResult> {
  const started = Date.now();
  const timeoutMs = config.timeout ?? DEFAULT_HOOK_TIMEOUT_MS;
  const cap = run.maxOutputBytes ?? MAX_HOOK_OUTPUT_BYTES;
  const grace = run.killGraceMs ?? HOOK_KILL_GRACE_MS;
  return new Promise((resolve) => {
    const { file, args } = shellCommand(expandHookCommand(config.command, input, run.plansDir));
    const env: NodeJS.ProcessEnv = {
      ...run.env,
      GEMINI_PROJECT_DIR: input.cwd,
      GEMINI_PLANS_DIR: run.plansDir,
      GEMINI_CWD: input.cwd,
      GEMINI_SESSION_ID: input.session_id,
      CLAUDE_PROJECT_DIR: input.cwd,
      ...config.env,
    };
    let settled = false;
    let failure: string | undefined;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sizes = { out: 0, err: 0 };
    let child: ChildProcess;
    let killTimer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<HookRunResult, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const kill = (why: string): void => {
      if (failure !== undefined) return;
      failure = why;
      signalGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => {
        if (child.pid !== undefined) void killProcessTree(child.pid, 'SIGKILL');
      }, grace);
      killTimer.unref();
      // Fail open now: the agent goes on while the hook is being stopped.
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish({ success: false, output: undefined, error: why });
    };
    const onAbort = (): void => kill('The hook was cancelled (the turn was aborted).');
    const timer = setTimeout(() => kill(`Hook timed out after ${timeoutMs}ms`), timeoutMs);
    try {
      child = builtinModule<typeof ChildProcesses>('node:child_process').spawn(file, args, {
        cwd: input.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      finish({ success: false, output: undefined, error: `Could not start: ${String(error)}` });
      return;
    }
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (which: 'out' | 'err', chunks: Buffer[]) => (chunk: Buffer) => {
      if (failure !== undefined) return;
      sizes[which] += chunk.length;
      if (sizes[which] > cap) {
        kill(`The hook wrote more than ${cap} bytes to std${which}; its output is ignored.`);
        return;
      }
      chunks.push(chunk);
    };
    child.stdout?.on('data', collect('out', out));
    child.stderr?.on('data', collect('err', err));
    child.stdin?.on('error', () => undefined); // EPIPE: the hook did not read its input.
    child.stdin?.end(JSON.stringify(input));
    child.on('error', (error) => {
      finish({ success: false, output: undefined, error: `Could not run: ${error.message}` });
    });
    child.on('close', (code) => {
      if (killTimer !== undefined) clearTimeout(killTimer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const parsed = parseCommandOutput(stdout, stderr, code);
      finish({
        success: code === 0,
        output: parsed.output,
        ...(parsed.format ? { outputFormat: parsed.format } : {}),
        exitCode: code,
        stdout,
        stderr,
        ...(code === 0 ? {} : { error: `exited with ${code === null ? 'a signal' : code}` }),
      });
    });
  });
}
