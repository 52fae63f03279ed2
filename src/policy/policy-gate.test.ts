import { describe, expect, it } from 'vitest';
import type { SessionContext } from '../core/session-context.js';
import { AbortError, ConfigurationError } from '../errors.js';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import type { AgentTool, ToolKind } from '../core/agent-tool.js';
import type { ApprovalResponse } from './approvals/approval-response.js';
import { PolicyEngine } from './policy-engine.js';
import {
  createPolicyGate,
  type ApprovalRecord,
  type PolicyGateOptions,
  type ToolGateCheck,
} from './policy-gate.js';
import { SessionRules } from './session-rules.js';

function tool(name: string, kind: ToolKind, displayName = name): AgentTool {
  return {
    name,
    displayName,
    description: `${name} tool`,
    kind,
    parametersJsonSchema: { type: 'object' },
    validate: (args) => ({ ok: true, args }),
    describe: (args) =>
      name === 'run_shell_command'
        ? `Run shell command: ${String(args['command'])}`
        : `${displayName} call`,
    execute: async () => ({ llmContent: 'done' }),
  };
}

const shellTool = tool('run_shell_command', 'execute', 'Shell');
const writeTool = tool('write_file', 'edit', 'WriteFile');
const readTool = tool('read_file', 'read', 'ReadFile');

let callCounter = 0;
function checkFor(
  target: AgentTool,
  args: Record<string, unknown>,
  events: ServerGeminiStreamEvent[] = [],
  signal: AbortSignal = new AbortController().signal,
): ToolGateCheck {
  callCounter += 1;
  return {
    request: {
      callId: `${target.name}__${callCounter}`,
      name: target.name,
      args,
      isClientInitiated: false,
      prompt_id: 'session-1',
    },
    tool: target,
    args,
    // The gate never reads the context; the loop builds a real one.
    ctx: {} as SessionContext,
    emit: (event) => events.push(event),
    signal,
  };
}

function gate(options: Partial<PolicyGateOptions> & { engine?: PolicyEngine } = {}) {
  const sessionRules = options.sessionRules ?? new SessionRules();
  const g = createPolicyGate({
    engine: options.engine ?? new PolicyEngine(),
    sessionRules,
    ...options,
  });
  return { gate: g, sessionRules };
}

describe('createPolicyGate', () => {
  it('allows what the policy allows without asking or emitting', async () => {
    const events: ServerGeminiStreamEvent[] = [];
    const asked: ApprovalRequest[] = [];
    const { gate: g } = gate({ onApproval: (r) => (asked.push(r), 'deny') });
    expect(await g.check(checkFor(readTool, { file_path: 'a' }, events))).toEqual({
      outcome: 'allow',
    });
    expect(events).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('denies what a rule denies, with gemini-cli text and the deny message, without asking', async () => {
    const engine = new PolicyEngine({
      rules: [{ toolName: 'write_file', decision: 'deny', denyMessage: 'Read-only checkout.' }],
    });
    const asked: ApprovalRequest[] = [];
    const { gate: g } = gate({ engine, onApproval: (r) => (asked.push(r), 'allow') });
    expect(await g.check(checkFor(writeTool, { file_path: 'a', content: 'x' }))).toEqual({
      outcome: 'deny',
      message: 'Tool execution denied by policy. Read-only checkout.',
    });
    const bare = new PolicyEngine({ rules: [{ toolName: 'write_file', decision: 'deny' }] });
    expect(await gate({ engine: bare }).gate.check(checkFor(writeTool, {}))).toEqual({
      outcome: 'deny',
      message: 'Tool execution denied by policy.',
    });
    expect(asked).toEqual([]);
  });

  it('emits tool_call_confirmation, then asks, and runs on allow', async () => {
    const order: string[] = [];
    const events: ServerGeminiStreamEvent[] = [];
    const { gate: g } = gate({
      onApproval: (request) => {
        order.push(`asked:${request.toolName}`);
        return 'allow';
      },
    });
    const check = checkFor(writeTool, { file_path: 'notes.md', content: 'hi' }, events);
    const emit = check.emit;
    check.emit = (event) => {
      order.push(`event:${event.type}`);
      emit(event);
    };
    expect(await g.check(check)).toEqual({ outcome: 'allow' });
    expect(order).toEqual(['event:tool_call_confirmation', 'asked:write_file']);
    const event = events[0];
    expect(event?.type).toBe('tool_call_confirmation');
    if (event?.type !== 'tool_call_confirmation') throw new Error('unreachable');
    expect(event.value.request).toBe(check.request);
    expect(event.value.details).toMatchObject({
      callId: check.request.callId,
      toolName: 'write_file',
      args: { file_path: 'notes.md', content: 'hi' },
      description: 'WriteFile call',
      kind: 'edit',
    });
    expect(event.value.details.reason).toContain('ask_user write_file');
  });

  it('deny from the human tells the model, with the optional message', async () => {
    const answers: ApprovalResponse[] = ['deny', { decision: 'deny', message: 'Not on main.' }];
    const { gate: g } = gate({ onApproval: () => answers.shift() ?? 'deny' });
    expect(await g.check(checkFor(writeTool, {}))).toEqual({
      outcome: 'deny',
      message: 'User denied execution.',
    });
    expect(await g.check(checkFor(writeTool, {}))).toEqual({
      outcome: 'deny',
      message: 'User denied execution. Not on main.',
    });
  });

  it('allow_always asks once for two commands with the same root, and again for another', async () => {
    const asked: string[] = [];
    const records: ApprovalRecord[] = [];
    const { gate: g, sessionRules } = gate({
      onApproval: async (request) => {
        asked.push(String(request.args['command']));
        return 'allow_always' as const;
      },
      onDecision: (record) => void records.push(record),
    });
    expect(await g.check(checkFor(shellTool, { command: 'ls -la' }))).toEqual({ outcome: 'allow' });
    expect(await g.check(checkFor(shellTool, { command: 'ls src' }))).toEqual({ outcome: 'allow' });
    expect(asked).toEqual(['ls -la']);
    expect(await g.check(checkFor(shellTool, { command: 'ls && rm x' }))).toEqual({
      outcome: 'allow',
    });
    expect(asked).toEqual(['ls -la', 'ls && rm x']);
    expect(sessionRules.toJSON()).toEqual([
      {
        toolName: 'run_shell_command',
        commandPrefix: ['ls'],
        decision: 'allow',
        modes: ['default', 'auto_edit', 'yolo'],
      },
      {
        toolName: 'run_shell_command',
        commandPrefix: ['ls', 'rm'],
        decision: 'allow',
        modes: ['default', 'auto_edit', 'yolo'],
      },
    ]);
    expect(records.map((r) => [r.decision, r.addedRule?.commandPrefix])).toEqual([
      ['allow_always', ['ls']],
      ['allow_always', ['ls', 'rm']],
    ]);
  });

  it('allow_always on another tool allows that tool for the session', async () => {
    let asked = 0;
    const { gate: g } = gate({ onApproval: () => (asked++, 'allow_always') });
    await g.check(checkFor(writeTool, { file_path: 'a' }));
    await g.check(checkFor(writeTool, { file_path: 'b' }));
    expect(asked).toBe(1);
  });

  it("without a handler, ask means deny with gemini-cli's non-interactive message", async () => {
    const events: ServerGeminiStreamEvent[] = [];
    const { gate: g } = gate();
    expect(await g.check(checkFor(shellTool, { command: 'ls' }, events))).toEqual({
      outcome: 'deny',
      message:
        'Tool execution for "Shell" requires user confirmation, which is not supported in non-interactive mode.',
    });
    expect(await g.check(checkFor(writeTool, { file_path: 'a' }))).toEqual({
      outcome: 'deny',
      message:
        'Tool execution for "WriteFile" requires user confirmation, which is not supported in non-interactive mode.',
    });
  });

  it('approvals "pause" returns the request instead of asking', async () => {
    const events: ServerGeminiStreamEvent[] = [];
    let asked = 0;
    const { gate: g } = gate({ approvals: 'pause', onApproval: () => (asked++, 'allow') });
    const check = checkFor(shellTool, { command: 'rm -rf build' }, events);
    const decision = await g.check(check);
    expect(decision).toMatchObject({
      outcome: 'pause',
      request: {
        callId: check.request.callId,
        toolName: 'run_shell_command',
        args: { command: 'rm -rf build' },
      },
    });
    expect(events.map((e) => e.type)).toEqual(['tool_call_confirmation']);
    expect(asked).toBe(0);
  });

  it('waits for a slow human, and an abort cancels the wait', async () => {
    let release: (value: ApprovalResponse) => void = () => {};
    const { gate: g } = gate({
      onApproval: () => new Promise<ApprovalResponse>((r) => (release = r)),
    });
    const pending = g.check(checkFor(writeTool, {}));
    await new Promise((r) => setImmediate(r));
    release('allow');
    expect(await pending).toEqual({ outcome: 'allow' });

    const controller = new AbortController();
    const waiting = g.check(checkFor(writeTool, {}, [], controller.signal));
    await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
  });

  it('passes MCP facts to the engine', async () => {
    const engine = new PolicyEngine({
      rules: [{ toolName: 'mcp_*', toolAnnotations: { readOnlyHint: true }, decision: 'allow' }],
    });
    const { gate: g } = gate({
      engine,
      checkContext: (check) =>
        check.tool.name === 'mcp_docs_search' ? { toolAnnotations: { readOnlyHint: true } } : {},
    });
    expect(await g.check(checkFor(tool('mcp_docs_search', 'other'), {}))).toEqual({
      outcome: 'allow',
    });
    expect((await g.check(checkFor(tool('mcp_docs_delete', 'other'), {}))).outcome).toBe('deny');
  });

  it('refuses a handler answer it does not understand', async () => {
    const { gate: g } = gate({ onApproval: () => 'yes' as unknown as ApprovalResponse });
    await expect(g.check(checkFor(writeTool, {}))).rejects.toBeInstanceOf(ConfigurationError);
  });

  it('follows the current mode and adds request details', async () => {
    let mode: 'default' | 'auto_edit' = 'default';
    const seen: ApprovalRequest[] = [];
    const { gate: g } = gate({
      mode: () => mode,
      onApproval: (r) => (seen.push(r), 'deny'),
      enrichRequest: (check) =>
        check.tool.name === 'activate_skill'
          ? {
              skill: {
                name: 'pdf',
                description: 'PDF tools',
                location: '/s/pdf/SKILL.md',
                folderTree: 'pdf/\n  SKILL.md',
              },
            }
          : undefined,
    });
    expect((await g.check(checkFor(writeTool, {}))).outcome).toBe('deny');
    mode = 'auto_edit';
    expect((await g.check(checkFor(writeTool, {}))).outcome).toBe('allow');
    await g.check(checkFor(tool('activate_skill', 'other'), { name: 'pdf' }));
    expect(seen[1]?.skill?.folderTree).toBe('pdf/\n  SKILL.md');
  });
});
