import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionContext } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import { createRunShellCommandTool } from '../tools/builtin/run-shell-command.js';
import { createWriteFileTool } from '../tools/builtin/write-file.js';
import type { ToolCallInput } from '../tools/tool-call.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { executeTool, runToolCalls } from '../tools/tool-scheduler.js';
import { createWorkspace, type Workspace } from '../workspace/workspace.js';
import type { ApprovalResponse } from './approvals/approval-response.js';
import { PolicyEngine } from './policy-engine.js';
import { createPolicyGate, type ToolGate } from './policy-gate.js';
import { SessionRules } from './session-rules.js';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

function call(callId: string, name: string, args: Record<string, unknown>): ToolCallInput {
  return { request: { callId, name, args, isClientInitiated: false, prompt_id: 's1' } };
}

/** The real scheduler with real built-in tools in a temp workspace; only the gate is ours. */
describe('the policy gate in the tool scheduler', () => {
  let dir: string;
  let workspace: Workspace;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'policy-scheduler-'));
    workspace = createWorkspace({ cwd: dir });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function run(gate: ToolGate, calls: ToolCallInput[]) {
    const events: ServerGeminiStreamEvent[] = [];
    const registry = new ToolRegistry([createWriteFileTool(), createRunShellCommandTool()]);
    const contextFor = (signal: AbortSignal): SessionContext =>
      ({
        sessionId: 's1',
        transcript: [],
        cwd: workspace.cwd,
        timestamp: new Date(0).toISOString(),
        fs: workspace.fs,
        shell: workspace.shell,
        signal,
      }) as unknown as SessionContext;
    const result = await runToolCalls({
      calls,
      registry,
      decide: async (check) => gate.check(check),
      run: executeTool,
      contextFor,
      signal: new AbortController().signal,
      emit: (event) => events.push(event),
      stop: () => undefined,
    });
    return { result, events };
  }

  it('deny leaves the file untouched and tells the model; allow writes it', async () => {
    const answers: ApprovalResponse[] = ['deny', 'allow'];
    const gate = createPolicyGate({
      engine: new PolicyEngine(),
      sessionRules: new SessionRules(),
      onApproval: () => answers.shift() ?? 'deny',
    });
    const { result, events } = await run(gate, [
      call('c1', 'write_file', { file_path: 'denied.md', content: 'no' }),
      call('c2', 'write_file', { file_path: 'allowed.md', content: 'yes' }),
    ]);
    const [first, second] = result.outcomes;
    expect(first?.kind === 'done' && first.response.error).toEqual({
      message: 'User denied execution.',
      type: 'policy_violation',
    });
    expect(second?.kind === 'done' && second.response.error).toBeUndefined();
    expect(await exists(path.join(dir, 'denied.md'))).toBe(false);
    expect(await readFile(path.join(dir, 'allowed.md'), 'utf8')).toBe('yes');
    expect(events.filter((e) => e.type === 'tool_call_confirmation')).toHaveLength(2);
  });

  it('a hostile shell command never runs through an allow rule for ls', async () => {
    const engine = new PolicyEngine({
      rules: [{ toolName: 'run_shell_command', commandPrefix: 'ls', decision: 'allow' }],
    });
    const gate = createPolicyGate({ engine, sessionRules: new SessionRules() });
    const { result } = await run(gate, [
      call('c1', 'run_shell_command', { command: 'ls && touch pwned' }),
      call('c2', 'run_shell_command', { command: 'ls' }),
    ]);
    const [hostile, plain] = result.outcomes;
    expect(hostile?.kind === 'done' && hostile.response.error?.message).toBe(
      'Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.',
    );
    expect(plain?.kind === 'done' && plain.response.error).toBeUndefined();
    expect(await exists(path.join(dir, 'pwned'))).toBe(false);
  });

  it('allow_always asks once for two calls with the same root command', async () => {
    let asked = 0;
    const gate = createPolicyGate({
      engine: new PolicyEngine(),
      sessionRules: new SessionRules(),
      onApproval: () => (asked++, 'allow_always'),
    });
    const { result } = await run(gate, [
      call('c1', 'run_shell_command', { command: 'touch one' }),
      call('c2', 'run_shell_command', { command: 'touch two' }),
    ]);
    expect(asked).toBe(1);
    expect(result.outcomes.every((o) => o.kind === 'done' && !o.response.error)).toBe(true);
    expect(await exists(path.join(dir, 'one'))).toBe(true);
    expect(await exists(path.join(dir, 'two'))).toBe(true);
  });

  it('approvals "pause" holds the call: nothing runs', async () => {
    const gate = createPolicyGate({
      engine: new PolicyEngine(),
      sessionRules: new SessionRules(),
      approvals: 'pause',
    });
    const { result } = await run(gate, [
      call('c1', 'write_file', { file_path: 'later.md', content: 'x' }),
    ]);
    expect(result.outcomes[0]).toMatchObject({
      kind: 'paused',
      paused: { approval: { callId: 'c1' } },
    });
    expect(await exists(path.join(dir, 'later.md'))).toBe(false);
  });
});
