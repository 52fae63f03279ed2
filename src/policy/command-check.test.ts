import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PolicyDeniedError } from '../errors.js';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import { createWorkspace } from '../workspace/workspace.js';
import { createCommandCheck, type CommandCheckOptions } from './command-check.js';
import { PolicyEngine } from './policy-engine.js';
import { SessionRules } from './session-rules.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

const engine = new PolicyEngine({
  rules: [
    { toolName: 'run_shell_command', commandPrefix: ['ls', 'echo'], decision: 'allow' },
    { toolName: 'run_shell_command', commandPrefix: 'rm', decision: 'deny', denyMessage: 'No rm.' },
  ],
});

describe('createCommandCheck (ctx.shell)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'command-check-'));
    await writeFile(path.join(dir, 'keep.txt'), 'keep');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const workspaceWith = (options: Partial<CommandCheckOptions> = {}) =>
    createWorkspace({
      cwd: dir,
      commandCheck: createCommandCheck(engine, { sessionRules: new SessionRules(), ...options }),
    });

  it('runs what the policy allows', async () => {
    const result = await workspaceWith().shell.exec('ls');
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('keep.txt');
  });

  it('refuses a denied command before it runs, with the rule message', async () => {
    const result = await workspaceWith().shell.exec('ls; rm -f keep.txt');
    expect(result.error).toBeInstanceOf(PolicyDeniedError);
    expect(result.error?.message).toBe('Tool execution denied by policy. No rm.');
    expect(await exists(path.join(dir, 'keep.txt'))).toBe(true);
  });

  it.each(['ls && touch pwned', 'echo $(touch pwned)', 'bash -c "touch pwned"', 'ls > pwned'])(
    'without a handler, %j is refused with the non-interactive reason and never runs',
    async (command) => {
      const result = await workspaceWith().shell.exec(command);
      expect(result.error?.message).toBe(
        'Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.',
      );
      expect(await exists(path.join(dir, 'pwned'))).toBe(false);
    },
  );

  it('asks the handler, emits a confirmation, and remembers allow_always by root command', async () => {
    const asked: ApprovalRequest[] = [];
    const events: ServerGeminiStreamEvent[] = [];
    const ws = workspaceWith({
      onApproval: (request) => (asked.push(request), 'allow_always'),
      emit: (event) => events.push(event),
      newCallId: () => `shell-${asked.length + 1}`,
    });
    expect((await ws.shell.exec('touch made-1')).exitCode).toBe(0);
    expect((await ws.shell.exec('touch made-2')).exitCode).toBe(0);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      callId: 'shell-1',
      toolName: 'run_shell_command',
      args: { command: 'touch made-1', dir_path: dir },
      description: 'Run shell command: touch made-1',
      kind: 'execute',
    });
    expect(events.map((e) => e.type)).toEqual(['tool_call_confirmation']);
    expect(await exists(path.join(dir, 'made-2'))).toBe(true);
  });

  it('an abort of the current stream cancels a pending question', async () => {
    const controller = new AbortController();
    const ws = workspaceWith({
      onApproval: () => new Promise(() => {}),
      signal: () => controller.signal,
    });
    const pending = ws.shell.exec('touch never');
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await pending;
    expect(result.error?.name).toBe('AbortError');
    expect(await exists(path.join(dir, 'never'))).toBe(false);
  });

  it('a human deny refuses the command with the message', async () => {
    const ws = workspaceWith({ onApproval: () => ({ decision: 'deny', message: 'Not today.' }) });
    const result = await ws.shell.exec('touch nope');
    expect(result.error?.message).toBe('User denied execution. Not today.');
    expect(await exists(path.join(dir, 'nope'))).toBe(false);
  });
});
