import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionContext } from '../../core/session-context.js';
import { createTestSessionContext } from '../../testing/test-session-context.js';
import { createWorkspace } from '../../workspace/workspace.js';
import type { ToolResult } from '../../core/agent-tool.js';
import { createRunShellCommandTool } from './run-shell-command.js';
import { hasCommandSubstitution } from './shell-syntax.js';

let base: string;
let ctx: SessionContext;
let cwd: string;
const shellTool = createRunShellCommandTool({ inactivityTimeoutSeconds: 60 });
const run = (
  args: Record<string, unknown>,
  signal = new AbortController().signal,
): Promise<ToolResult> => shellTool.execute(args, ctx, { callId: 'c', signal });

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-shell-tool-'));
  await mkdir(path.join(base, 'ws', 'sub'), { recursive: true });
  const denyAll = async () => ({
    decision: 'deny' as const,
    reason: 'no commands through ctx.shell',
  });
  const workspace = createWorkspace({ cwd: path.join(base, 'ws'), commandCheck: denyAll });
  cwd = workspace.cwd;
  ctx = createTestSessionContext(workspace);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function pgidOf(result: ToolResult): string {
  return /Process Group PGID: (\d+)/.exec(String(result.llmContent))?.[1] ?? 'missing';
}

describe('run_shell_command', () => {
  it("is an execute tool whose output follows gemini-cli's layout", async () => {
    expect(shellTool.kind).toBe('execute');
    const result = await run({ command: 'echo hello; echo oops >&2' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `<untrusted_context>\nOutput: hello\noops\nProcess Group PGID: ${pgidOf(result)}\n</untrusted_context>`,
    );
    expect(result.returnDisplay).toBe('hello\noops');
  });

  it('reports empty output and non-zero exit codes (not as tool errors)', async () => {
    const result = await run({ command: 'exit 7' });
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `<untrusted_context>\nOutput: (empty)\nExit Code: 7\nProcess Group PGID: ${pgidOf(result)}\n</untrusted_context>`,
    );
    expect(result.returnDisplay).toBe('Command exited with code: 7');
  });

  it('runs in dir_path inside the workspace and refuses one outside', async () => {
    const inside = await run({ command: 'pwd', dir_path: 'sub' });
    expect(String(inside.llmContent)).toContain(`Output: ${path.join(cwd, 'sub')}`);
    const outside = await run({ command: 'touch escaped', dir_path: '..' });
    expect(outside.error?.type).toBe('path_not_in_workspace');
    expect(existsSync(path.join(base, 'escaped'))).toBe(false);
  });

  it('bypasses the ctx.shell command check (the scheduler already approved the call)', async () => {
    expect((await ctx.shell.exec('echo hi')).exitCode).toBe(1);
    expect(String((await run({ command: 'echo hi' })).llmContent)).toContain('Output: hi');
  });

  it('blocks command substitution outside single quotes', async () => {
    const marker = path.join(cwd, 'subst-marker');
    const result = await run({ command: `echo $(touch ${marker})` });
    expect(String(result.llmContent)).toMatch(/^Command injection detected: command substitution/);
    expect(existsSync(marker)).toBe(false);
    expect(hasCommandSubstitution("echo '$(not run)'")).toBe(false);
    expect(hasCommandSubstitution('echo "`x`"')).toBe(true);
    expect(hasCommandSubstitution('diff <(ls) x')).toBe(true);
    expect(hasCommandSubstitution('echo \\$(x)')).toBe(false);
    const allowing = createRunShellCommandTool({ allowCommandSubstitution: true });
    const ok = await allowing.execute({ command: 'echo $(echo inner)' }, ctx, {
      callId: 'c',
      signal: new AbortController().signal,
    });
    expect(String(ok.llmContent)).toContain('Output: inner');
  });

  it("cancels on abort with gemini-cli's message and output so far", async () => {
    const controller = new AbortController();
    const pending = run({ command: 'echo partial; sleep 30' }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const result = await pending;
    expect(result.llmContent).toBe(
      '<untrusted_context>\nCommand was cancelled by user before it could complete. Below is the output before it was cancelled:\npartial\n</untrusted_context>',
    );
    const before = await run({ command: 'echo x' }, AbortSignal.abort());
    expect(before.llmContent).toBe('Command was cancelled by user before it could start.');
  });

  it('cancels a command that stays silent past the inactivity timeout', async () => {
    const quiet = createRunShellCommandTool({ inactivityTimeoutSeconds: 0.3 });
    const result = await quiet.execute({ command: 'sleep 30' }, ctx, {
      callId: 'c',
      signal: new AbortController().signal,
    });
    expect(result.llmContent).toBe(
      '<untrusted_context>\nCommand was automatically cancelled because it exceeded the timeout of 0.0 minutes without output. There was no output before it was cancelled.\n</untrusted_context>',
    );
  });

  it('starts background commands and reports their pid and initial output', async () => {
    const marker = path.join(cwd, 'bg-marker');
    const result = await run({
      command: `echo booting; sleep 0.5; touch ${marker}`,
      is_background: true,
    });
    const content = String(result.llmContent);
    expect(content).toMatch(/Command is running in background\. PID: \d+\./);
    expect(content).toContain('Initial output: booting');
    expect(existsSync(marker)).toBe(false);
    for (let i = 0; i < 100 && !existsSync(marker); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(marker)).toBe(true);
    const log = /written to (\S+)\./.exec(content)?.[1];
    expect(log && existsSync(log)).toBe(true);
    await rm(log ?? '', { force: true });
  });

  it('validates the command and describes the call', () => {
    expect(shellTool.validate({ command: '  ' })).toEqual({
      ok: false,
      error: 'Command cannot be empty.',
    });
    expect(shellTool.describe({ command: 'ls', dir_path: 'src', description: 'list\nfiles' })).toBe(
      'ls [in src] (list files)',
    );
  });
});
