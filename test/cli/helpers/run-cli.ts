import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_MAIN } from './built-cli.js';

/** What a finished CLI process left behind. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A temporary project: a working directory and a GEMINI_CLI_HOME, both removed by `cleanup`. */
export interface TempProject {
  cwd: string;
  home: string;
  cleanup(): Promise<void>;
}

/** Creates a temp project directory and a temp GEMINI_CLI_HOME. */
export async function tempProject(): Promise<TempProject> {
  const base = await mkdtemp(join(tmpdir(), 'gemini-agent-cli-'));
  const cwd = join(base, 'my-project');
  const home = join(base, 'home');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(cwd, { recursive: true });
  await mkdir(home, { recursive: true });
  return { cwd, home, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/**
 * A clean environment: PATH, plus HOME and GEMINI_CLI_HOME in the temp project — no credentials from the
 * machine running the tests.
 */
export function cleanEnv(
  project: TempProject,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: project.home,
    GEMINI_CLI_HOME: project.home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(project.home, 'etc', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(project.home, 'etc', 'system-defaults.json'),
    ...extra,
  };
}

/** Options of {@link spawnCli}. */
export interface SpawnCliOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Text written to stdin, which is then closed (default: stdin is /dev/null). */
  input?: string;
  /** Leave stdin a pipe the test writes to and ends itself (instead of `input` or /dev/null). */
  openStdin?: boolean;
}

/** Starts `node dist/cli/main.js …args`. */
export function spawnCli(args: readonly string[], options: SpawnCliOptions): ChildProcess {
  const child = spawn(process.execPath, [CLI_MAIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: [
      options.input === undefined && options.openStdin !== true ? 'ignore' : 'pipe',
      'pipe',
      'pipe',
    ],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return child;
}

/** Collects a child's output and waits for it to exit. */
export function finished(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs the CLI to completion. */
export function runCli(args: readonly string[], options: SpawnCliOptions): Promise<CliResult> {
  return finished(spawnCli(args, options));
}
