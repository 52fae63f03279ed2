/**
 * Shell commands through the public API: a hostile compound command never rides on an allow rule for `ls` (a
 * marker file proves nothing ran), plain `ls` does run, and `ctx.shell` commands of custom tools obey the same
 * policy (deny rules, asking, headless denial).
 */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  PolicyDeniedError,
  tool,
  z,
  type AgentShellResult,
  type ApprovalRequest,
  type GeminiCliAgentOptions,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import {
  drain,
  needsConfirmation,
  readOrNull,
  responsesSentToModel,
  tempWorkspace,
} from './policy-helpers.js';

const HOSTILE = [
  'ls && rm x',
  'ls; rm x',
  'ls | rm x',
  'ls || rm x; rm x',
  'ls & rm x',
  'ls\nrm x',
  '(rm x)',
  '{ rm x; }',
  'bash -c "rm x"',
  'env rm x',
  'ls > x',
  'find . -name x -delete',
  'ls `rm x`',
];

const allowLs: GeminiCliAgentOptions['policy'] = {
  rules: [{ toolName: 'run_shell_command', commandPrefix: 'ls', decision: 'allow' }],
};

describe('run_shell_command under an allow rule for ls', () => {
  it.each(HOSTILE)(
    '%j never runs (headless: denied with the confirmation message)',
    async (command) => {
      const cwd = await tempWorkspace('hostile');
      await writeFile(path.join(cwd, 'x'), 'marker');
      const model = new ScriptedModel([
        callTurn({ name: 'run_shell_command', args: { command } }),
        textTurn('ok'),
      ]);
      const session = new GeminiCliAgent({
        contentGenerator: model,
        retry: false,
        cwd,
        skillDiscovery: false,
        policy: allowLs,
      }).session();
      await drain(session.sendStream('run it'));
      expect(await readOrNull(path.join(cwd, 'x'))).toBe('marker');
      expect(responsesSentToModel(model, 1)).toEqual([
        { name: 'run_shell_command', response: { error: needsConfirmation('Shell') } },
      ]);
    },
  );

  it('plain ls runs without asking; `ls && rm x` goes to the human, who denies it', async () => {
    const cwd = await tempWorkspace('ls');
    await writeFile(path.join(cwd, 'x'), 'marker');
    const asked: string[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'run_shell_command', args: { command: 'ls' } }),
      callTurn({ name: 'run_shell_command', args: { command: 'ls && rm x' } }),
      textTurn('ok'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: allowLs,
      onApproval: (request) => {
        asked.push(String(request.args['command']));
        return 'deny';
      },
    }).session();
    await drain(session.sendStream('list'));
    expect(asked).toEqual(['ls && rm x']);
    expect(String(responsesSentToModel(model, 1)[0]?.response['output'])).toContain('x');
    expect(responsesSentToModel(model, 2)).toEqual([
      { name: 'run_shell_command', response: { error: 'User denied execution.' } },
    ]);
    expect(await readOrNull(path.join(cwd, 'x'))).toBe('marker');
    const why = await session.policy.explain({
      name: 'run_shell_command',
      args: { command: 'ls && rm x' },
    });
    expect(why.decision).toBe('ask_user');
    expect(why.steps.map((s) => [s.command, s.decision])).toEqual([
      ['ls', 'allow'],
      ['rm x', 'ask_user'],
    ]);
  });
});

describe('ctx.shell from a custom tool', () => {
  function shellTool(commands: string[], results: AgentShellResult[]) {
    return tool(
      { name: 'run_script', description: 'r', inputSchema: z.object({}) },
      async (_args, ctx) => {
        for (const command of commands) results.push(await ctx.shell.exec(command));
        return 'done';
      },
    );
  }

  it('obeys a deny rule, also inside wrappers, even in yolo mode', async () => {
    const cwd = await tempWorkspace('ctx-deny');
    await writeFile(path.join(cwd, 'x'), 'marker');
    const results: AgentShellResult[] = [];
    const model = new ScriptedModel([callTurn({ name: 'run_script' }), textTurn('ok')]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      tools: [shellTool(['rm x', 'bash -c "rm x"', 'echo fine'], results)],
      policy: {
        mode: 'yolo',
        rules: [
          {
            toolName: 'run_shell_command',
            commandPrefix: 'rm',
            decision: 'deny',
            denyMessage: 'No rm.',
          },
        ],
      },
    }).session();
    await drain(session.sendStream('go'));
    expect(await readOrNull(path.join(cwd, 'x'))).toBe('marker');
    expect(results.map((r) => r.exitCode)).toEqual([1, 1, 0]);
    expect(results[0]?.error).toBeInstanceOf(PolicyDeniedError);
    expect(results[0]?.error?.message).toBe('Tool execution denied by policy. No rm.');
    expect(results[1]?.error?.message).toBe('Tool execution denied by policy. No rm.');
    expect(results[2]?.stdout).toBe('fine\n');
    const shellEntries = session.approvalLog.filter((e) => e.via === 'shell');
    expect(shellEntries.map((e) => [e.command, e.decision, e.by])).toEqual([
      ['rm x', 'deny', 'rule'],
      ['bash -c "rm x"', 'deny', 'rule'],
      ['echo fine', 'allow', 'rule'],
    ]);
  });

  it('developer code: what the defaults would ask about runs, with nobody to ask', async () => {
    const cwd = await tempWorkspace('ctx-dev');
    const results: AgentShellResult[] = [];
    const session = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([callTurn({ name: 'run_script' }), textTurn('ok')]),
      retry: false,
      cwd,
      skillDiscovery: false,
      tools: [shellTool(['touch made', 'echo "Hello from SDK Shell" > greeting'], results)],
    }).session();
    await drain(session.sendStream('go'));
    expect(results.map((r) => [r.exitCode, r.error])).toEqual([
      [0, undefined],
      [0, undefined],
    ]);
    expect((await readdir(cwd)).sort()).toEqual(['greeting', 'made']);
    // The model's own run_shell_command still meets the full policy (it asks, so headless it is refused).
    expect(
      (await session.policy.explain({ name: 'run_shell_command', args: { command: 'touch x' } }))
        .decision,
    ).toBe('ask_user');
  });

  it('an ask_user rule someone wrote asks onApproval (with a tool_call_confirmation event), denied headless', async () => {
    const cwd = await tempWorkspace('ctx-ask');
    const asked: ApprovalRequest[] = [];
    const results: AgentShellResult[] = [];
    const model = new ScriptedModel([callTurn({ name: 'run_script' }), textTurn('ok')]);
    const agentOptions: GeminiCliAgentOptions = {
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: {
        rules: [{ toolName: 'run_shell_command', commandPrefix: 'touch', decision: 'ask_user' }],
      },
      tools: [shellTool(['touch made'], results)],
    };
    const session = new GeminiCliAgent({
      ...agentOptions,
      onApproval: (request) => {
        asked.push(request);
        return 'allow';
      },
    }).session();
    const events = await drain(session.sendStream('go'));
    expect(asked).toMatchObject([
      { toolName: 'run_shell_command', args: { command: 'touch made', dir_path: cwd } },
    ]);
    expect(events.find((e) => e.type === 'tool_call_confirmation')?.value).toMatchObject({
      details: { callId: asked[0]?.callId, toolName: 'run_shell_command' },
    });
    expect(results[0]?.exitCode).toBe(0);
    expect(await readdir(cwd)).toContain('made');

    const headlessResults: AgentShellResult[] = [];
    const headlessCwd = await tempWorkspace('ctx-headless');
    const headlessModel = new ScriptedModel([callTurn({ name: 'run_script' }), textTurn('ok')]);
    await drain(
      new GeminiCliAgent({
        ...agentOptions,
        contentGenerator: headlessModel,
        cwd: headlessCwd,
        tools: [shellTool(['touch made'], headlessResults)],
      })
        .session()
        .sendStream('go'),
    );
    expect(headlessResults[0]?.exitCode).toBe(1);
    expect(headlessResults[0]?.error?.message).toBe(needsConfirmation('Shell'));
    expect(await readdir(headlessCwd)).toEqual([]);
  });
});
