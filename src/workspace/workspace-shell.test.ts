import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, LimitExceededError, PolicyDeniedError } from '../errors.js';
import { WorkspaceAccessError } from './workspace-access-error.js';
import { createWorkspace, type Workspace } from './workspace.js';
import type { CommandCheck } from './workspace-shell.js';

let base: string;
let ws: string;
let workspace: Workspace;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (or gives up after `limitMs`); returns whether it held. */
async function eventually(check: () => boolean, limitMs = 10_000): Promise<boolean> {
  for (let waited = 0; waited < limitMs; waited += 50) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-shell-'));
  ws = path.join(base, 'ws');
  await import('node:fs/promises').then((fs) =>
    fs.mkdir(path.join(ws, 'sub'), { recursive: true }),
  );
  await writeFile(path.join(ws, 'hello.txt'), 'hello file\n');
  workspace = createWorkspace({ cwd: ws });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('exec', () => {
  it('keeps stdout and stderr separate, interleaves output, reports the exit code', async () => {
    const result = await workspace.shell.exec(
      'echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; exit 3',
    );
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('out1\nout2\n');
    expect(result.stderr).toBe('err1\n');
    expect(result.output).toBe('out1\nerr1\nout2\n');
    expect(result.error).toBeUndefined();
    expect(result.signal).toBeNull();
    expect(result.pid).toBeGreaterThan(0);
  });

  it('runs in the workspace cwd (or a subdirectory), with extra env', async () => {
    const result = await workspace.shell.exec('pwd; cat hello.txt; echo "$FOO"', {
      env: { FOO: 'bar' },
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${workspace.cwd}\nhello file\nbar\n`);
    const sub = await workspace.shell.exec('pwd', { cwd: 'sub' });
    expect(sub.stdout.trim()).toBe(path.join(workspace.cwd, 'sub'));
    const pager = await workspace.shell.exec('echo "$PAGER $GIT_TERMINAL_PROMPT"');
    expect(pager.stdout).toBe('cat 0\n');
  });

  it('refuses a cwd outside the workspace without running anything', async () => {
    const marker = path.join(base, 'cwd-marker');
    const result = await workspace.shell.exec(`touch ${marker}`, { cwd: base });
    expect(result.exitCode).toBe(1);
    expect(result.error).toBeInstanceOf(WorkspaceAccessError);
    expect(existsSync(marker)).toBe(false);
  });

  it('asks the command check first; a refusal returns error and exit code 1 without running', async () => {
    const seen: Array<[string, string]> = [];
    const check: CommandCheck = async (command, ctx) => {
      seen.push([command, ctx.cwd]);
      return command.includes('touch')
        ? { decision: 'deny', reason: 'touch is not allowed here' }
        : { decision: 'allow' };
    };
    const guarded = createWorkspace({ cwd: ws, commandCheck: check });
    const marker = path.join(ws, 'denied-marker');
    const denied = await guarded.shell.exec(`touch ${marker}`);
    expect(denied.exitCode).toBe(1);
    expect(denied.error).toBeInstanceOf(PolicyDeniedError);
    expect(denied.error?.message).toBe('touch is not allowed here');
    expect(existsSync(marker)).toBe(false);
    const allowed = await guarded.shell.exec('echo ok');
    expect(allowed.stdout).toBe('ok\n');
    expect(seen).toEqual([
      [`touch ${marker}`, guarded.cwd],
      ['echo ok', guarded.cwd],
    ]);
    // The unchecked path (run_shell_command, already approved by the scheduler) skips the check.
    const unchecked = await guarded.execUnchecked(`touch ${marker}`);
    expect(unchecked.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    await expect(guarded.shell.start('touch x')).rejects.toBeInstanceOf(PolicyDeniedError);
  });

  it('a background grandchild that is left alone does write its marker (control)', async () => {
    const marker = path.join(ws, 'control-marker');
    const result = await workspace.shell.exec(`(sleep 0.3; touch ${marker}) & echo started`);
    expect(result.stdout).toBe('started\n');
    expect(await eventually(() => existsSync(marker))).toBe(true);
  });

  it('a timeout kills the whole process group, background grandchild included', async () => {
    const marker = path.join(ws, 'timeout-marker');
    const result = await workspace.shell.exec(
      `(sleep 1; touch ${marker}) & echo started; sleep 30`,
      {
        timeoutSeconds: 0.3,
      },
    );
    expect(result.stdout).toBe('started\n');
    expect(result.error).toBeInstanceOf(LimitExceededError);
    expect((result.error as LimitExceededError).code).toBe('SHELL_TIMEOUT');
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGTERM');
    // Well past the moment the grandchild would have written its marker.
    await sleep(2500);
    expect(existsSync(marker)).toBe(false);
  });

  it('abort kills the process group', async () => {
    const marker = path.join(ws, 'abort-marker');
    const controller = new AbortController();
    const running = workspace.shell.exec(`(sleep 1; touch ${marker}) & sleep 30`, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const result = await running;
    expect(result.error).toBeInstanceOf(AbortError);
    expect(result.exitCode).toBeNull();
    await sleep(2000);
    expect(existsSync(marker)).toBe(false);
    const early = await workspace.shell.exec('echo never', { signal: AbortSignal.abort() });
    expect(early.error).toBeInstanceOf(AbortError);
    expect(early.stdout).toBe('');
  });

  it('an inactivity timeout fires when the command goes quiet', async () => {
    const result = await workspace.shell.exec('echo hi; sleep 30', {
      inactivityTimeoutSeconds: 0.4,
    });
    expect(result.stdout).toBe('hi\n');
    expect((result.error as LimitExceededError).code).toBe('SHELL_INACTIVITY_TIMEOUT');
  });

  it('caps output, keeping the newest bytes behind a truncation note', async () => {
    const result = await workspace.shell.exec('head -c 5000 /dev/zero | tr "\\0" a; echo -n END', {
      maxOutputBytes: 1000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.startsWith('[Output truncated: the first 4003 bytes were dropped;')).toBe(
      true,
    );
    expect(result.stdout.endsWith('aaaEND')).toBe(true);
    const body = result.stdout.slice(result.stdout.indexOf('\n') + 1);
    expect(body.length).toBe(1000);
  });
});

describe('start', () => {
  it('streams stdout and takes stdin', async () => {
    const proc = await workspace.shell.start(
      'while read line; do echo "got:$line"; echo "err:$line" >&2; done',
    );
    const out = proc.stdout[Symbol.asyncIterator]();
    await proc.write('one\n');
    const first = await out.next();
    expect(first.value).toBe('got:one\n');
    await proc.write('two\n');
    const second = await out.next();
    expect(second.value).toBe('got:two\n');
    proc.end();
    const exit = await proc.exited;
    expect(exit).toEqual({ exitCode: 0, signal: null });
    const errors: string[] = [];
    for await (const chunk of proc.stderr) errors.push(chunk);
    expect(errors.join('')).toBe('err:one\nerr:two\n');
    expect((await out.next()).done).toBe(true);
  });

  it('kill() ends the whole group and exited reports it', async () => {
    const marker = path.join(ws, 'kill-marker');
    const proc = await workspace.shell.start(`(sleep 1; touch ${marker}) & echo ready; sleep 30`);
    const out = proc.stdout[Symbol.asyncIterator]();
    expect((await out.next()).value).toBe('ready\n');
    proc.kill();
    const exit = await proc.exited;
    expect(exit.signal).toBe('SIGTERM');
    expect(exit.error).toBeInstanceOf(AbortError);
    await sleep(2000);
    expect(existsSync(marker)).toBe(false);
  });

  it('times out like exec and refuses a cwd outside the workspace', async () => {
    const proc = await workspace.shell.start('sleep 30', { timeoutSeconds: 0.3 });
    const exit = await proc.exited;
    expect((exit.error as LimitExceededError).code).toBe('SHELL_TIMEOUT');
    await expect(workspace.shell.start('true', { cwd: '..' })).rejects.toBeInstanceOf(
      WorkspaceAccessError,
    );
  });
});
