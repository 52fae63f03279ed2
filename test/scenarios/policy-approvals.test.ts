/**
 * Approvals through the public API: `onApproval` decides calls the policy asks about (deny, allow, allow_always),
 * headless runs deny them with gemini-cli's message, `tool_call_confirmation` is emitted, decisions are logged,
 * custom tools keep running by default, and skill consent follows where the skill came from.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  skillDir,
  tool,
  z,
  type ApprovalRequest,
  type ApprovalResponse,
  type GeminiCliAgentOptions,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, readOrNull, responsesSentToModel, tempWorkspace } from './policy-helpers.js';

function agentWith(model: ScriptedModel, cwd: string, options: GeminiCliAgentOptions = {}) {
  return new GeminiCliAgent({
    contentGenerator: model,
    retry: false,
    cwd,
    skillDiscovery: false,
    ...options,
  });
}

describe('onApproval through the loop', () => {
  it('deny: the file is untouched and the model is told, with the handler message', async () => {
    const cwd = await tempWorkspace('deny');
    await writeFile(path.join(cwd, 'a.txt'), 'original');
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'a.txt', content: 'overwritten' } }),
      textTurn('ok'),
    ]);
    const agent = agentWith(model, cwd, {
      onApproval: (request) => {
        asked.push(request);
        return { decision: 'deny', message: 'Not today.' };
      },
    });
    const session = agent.session();
    const events = await drain(session.sendStream('overwrite a.txt'));

    expect(await readOrNull(path.join(cwd, 'a.txt'))).toBe('original');
    expect(responsesSentToModel(model, 1)).toEqual([
      { name: 'write_file', response: { error: 'User denied execution. Not today.' } },
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      toolName: 'write_file',
      kind: 'edit',
      args: { file_path: 'a.txt', content: 'overwritten' },
      description: 'Writing to a.txt',
    });
    const confirmation = events.find((e) => e.type === 'tool_call_confirmation');
    expect(confirmation?.value).toMatchObject({
      request: { name: 'write_file', callId: asked[0]?.callId },
      details: { toolName: 'write_file', callId: asked[0]?.callId },
    });
    expect(session.approvalLog).toMatchObject([
      { callId: asked[0]?.callId, toolName: 'write_file', decision: 'deny', by: 'user' },
    ]);
    model.assertComplete();
  });

  it('allow: the call runs', async () => {
    const cwd = await tempWorkspace('allow');
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'b.txt', content: 'hello' } }),
      textTurn('done'),
    ]);
    const agent = agentWith(model, cwd, { onApproval: () => 'allow' });
    const session = agent.session();
    await drain(session.sendStream('write b.txt'));
    expect(await readOrNull(path.join(cwd, 'b.txt'))).toBe('hello');
    const [response] = responsesSentToModel(model, 1);
    expect(String(response?.response['output'])).toMatch(/^Successfully created and wrote/);
    expect(session.approvalLog.map((e) => [e.toolName, e.decision, e.by])).toEqual([
      ['write_file', 'allow', 'user'],
    ]);
  });

  it('allow_always: asked once for two calls, then a session rule decides', async () => {
    const cwd = await tempWorkspace('always');
    const answers: ApprovalResponse[] = ['allow_always'];
    let asked = 0;
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'one.txt', content: '1' } }),
      callTurn({ name: 'write_file', args: { file_path: 'two.txt', content: '2' } }),
      textTurn('done'),
    ]);
    const agent = agentWith(model, cwd, {
      onApproval: () => {
        asked++;
        return answers.shift() ?? 'deny';
      },
    });
    const session = agent.session();
    await drain(session.sendStream('write two files'));
    expect(asked).toBe(1);
    expect(await readOrNull(path.join(cwd, 'one.txt'))).toBe('1');
    expect(await readOrNull(path.join(cwd, 'two.txt'))).toBe('2');
    expect(session.policy.rules.toJSON()).toEqual([
      { toolName: 'write_file', decision: 'allow', modes: ['default', 'auto_edit', 'yolo'] },
    ]);
    const log = session.approvalLog;
    expect(log.map((e) => [e.decision, e.by])).toEqual([
      ['allow_always', 'user'],
      ['allow', 'rule'],
    ]);
    expect(log[1]?.rule).toContain('Session (always allow)');
    // Another session of the same agent starts without the rule.
    expect((await agent.session().policy.explain({ name: 'write_file' })).decision).toBe(
      'ask_user',
    );
  });

  it('an invalid answer from onApproval fails the stream with a ConfigurationError', async () => {
    const cwd = await tempWorkspace('invalid');
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'c.txt', content: 'x' } }),
    ]);
    const agent = agentWith(model, cwd, {
      onApproval: () => 'yes please' as unknown as ApprovalResponse,
    });
    await expect(drain(agent.session().sendStream('go'))).rejects.toThrow(ConfigurationError);
    expect(await readOrNull(path.join(cwd, 'c.txt'))).toBeNull();
  });
});

describe('headless (no onApproval)', () => {
  it('write_file, replace and run_shell_command are not offered (as gemini-cli 0.61); calling them anyway finds no tool; read_file runs', async () => {
    const cwd = await tempWorkspace('headless');
    await writeFile(path.join(cwd, 'notes.txt'), 'keep me');
    const model = new ScriptedModel([
      callTurn(
        { name: 'read_file', args: { file_path: 'notes.txt' } },
        { name: 'write_file', args: { file_path: 'notes.txt', content: 'gone' } },
        {
          name: 'replace',
          args: {
            file_path: 'notes.txt',
            instruction: 'Lose it.',
            old_string: 'keep',
            new_string: 'lose',
          },
        },
        { name: 'run_shell_command', args: { command: 'rm notes.txt' } },
      ),
      textTurn('ok'),
    ]);
    const session = agentWith(model, cwd).session();
    const events = await drain(session.sendStream('try everything'));

    expect(await readOrNull(path.join(cwd, 'notes.txt'))).toBe('keep me');
    const offered = (model.generateRequests[0]?.config?.tools ?? []).flatMap(
      (t) => (t as { functionDeclarations?: Array<{ name?: string }> }).functionDeclarations ?? [],
    );
    expect(offered.map((d) => d.name)).not.toEqual(
      expect.arrayContaining(['write_file', 'replace', 'run_shell_command']),
    );
    expect(offered.map((d) => d.name)).toContain('read_file');
    const notFound = (name: string) =>
      expect.stringMatching(new RegExp(`^Tool "${name}" not found\\.`));
    expect(responsesSentToModel(model, 1)).toEqual([
      { name: 'read_file', response: { output: 'keep me' } },
      { name: 'write_file', response: { error: notFound('write_file') } },
      { name: 'replace', response: { error: notFound('replace') } },
      { name: 'run_shell_command', response: { error: notFound('run_shell_command') } },
    ]);
    // Nothing to confirm: the hidden tools never reach the policy gate.
    expect(events.some((e) => e.type === 'tool_call_confirmation')).toBe(false);
    expect(session.approvalLog.map((e) => [e.toolName, e.decision, e.by])).toEqual([
      ['read_file', 'allow', 'rule'],
    ]);
  });

  it('approvals "pause" ends the stream with approval_required and runs nothing', async () => {
    const cwd = await tempWorkspace('pause');
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'p.txt', content: 'later' } }),
    ]);
    const session = agentWith(model, cwd, { approvals: 'pause' }).session();
    const events = await drain(session.sendStream('write p.txt'));
    const last = events[events.length - 1];
    expect(last?.type).toBe('approval_required');
    expect(last?.type === 'approval_required' && last.value.pending).toMatchObject([
      { toolName: 'write_file', args: { file_path: 'p.txt', content: 'later' } },
    ]);
    expect(await readOrNull(path.join(cwd, 'p.txt'))).toBeNull();
    expect(session.approvalLog.map((e) => e.decision)).toEqual(['pending']);
  });
});

describe('custom tools', () => {
  it('run by default, as in the reference SDK, even when their kind is edit', async () => {
    let runs = 0;
    const bump = tool(
      { name: 'bump', description: 'b', inputSchema: z.object({}), kind: 'edit' },
      () => String(++runs),
    );
    const cwd = await tempWorkspace('custom');
    const model = new ScriptedModel([callTurn({ name: 'bump' }), textTurn('done')]);
    const session = agentWith(model, cwd, { tools: [bump] }).session();
    await drain(session.sendStream('bump'));
    expect(runs).toBe(1);
    const why = await session.policy.explain({ name: 'bump' });
    expect(why.decision).toBe('allow');
    expect(why.decidedBy).toContain('SDK default');
  });

  it('a user rule can make one ask (and, headless, it is not offered at all)', async () => {
    let runs = 0;
    const deploy = tool({ name: 'deploy', description: 'd', inputSchema: z.object({}) }, () =>
      String(++runs),
    );
    const cwd = await tempWorkspace('custom-ask');
    const model = new ScriptedModel([callTurn({ name: 'deploy' }), textTurn('done')]);
    const session = agentWith(model, cwd, {
      tools: [deploy],
      policy: { rules: [{ toolName: 'deploy', decision: 'ask_user' }] },
    }).session();
    await drain(session.sendStream('deploy'));
    expect(runs).toBe(0);
    expect(responsesSentToModel(model, 1)).toEqual([
      { name: 'deploy', response: { error: expect.stringMatching(/^Tool "deploy" not found\./) } },
    ]);
  });
});

describe('skill consent', () => {
  async function skillFolder(root: string, name: string): Promise<string> {
    const folder = path.join(root, name);
    await mkdir(path.join(folder, 'scripts'), { recursive: true });
    await writeFile(
      path.join(folder, 'SKILL.md'),
      `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name} things.\n`,
    );
    await writeFile(path.join(folder, 'scripts', 'run.sh'), 'echo hi\n');
    return folder;
  }

  it('a discovered workspace skill asks, with the skill and its folder tree in the request', async () => {
    const cwd = await tempWorkspace('skill-ws');
    await skillFolder(path.join(cwd, '.gemini', 'skills'), 'found-skill');
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'activate_skill', args: { name: 'found-skill' } }),
      textTurn('ok'),
    ]);
    const agent = agentWith(model, cwd, {
      skillDiscovery: { user: false, workspace: true },
      trustWorkspace: true,
      onApproval: (request) => {
        asked.push(request);
        return 'deny';
      },
    });
    const session = agent.session();
    await drain(session.sendStream('use it'));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.skill).toMatchObject({
      name: 'found-skill',
      description: 'The found-skill skill.',
      location: path.join(cwd, '.gemini', 'skills', 'found-skill', 'SKILL.md'),
    });
    expect(asked[0]?.skill?.folderTree).toContain('run.sh');
    expect(responsesSentToModel(model, 1)).toEqual([
      { name: 'activate_skill', response: { error: 'User denied execution.' } },
    ]);
    expect(session.skills.list().find((s) => s.name === 'found-skill')?.active).toBe(false);
  });

  it('a skill passed in the skills option is activated without asking', async () => {
    const cwd = await tempWorkspace('skill-opt');
    const folder = await skillFolder(path.join(cwd, 'my-skills'), 'given-skill');
    const model = new ScriptedModel([
      callTurn({ name: 'activate_skill', args: { name: 'given-skill' } }),
      textTurn('ok'),
    ]);
    const agent = agentWith(model, cwd, {
      skills: [skillDir(folder)],
      onApproval: () => {
        throw new Error('must not be asked');
      },
    });
    const session = agent.session();
    await drain(session.sendStream('use it'));
    const [response] = responsesSentToModel(model, 1);
    expect(String(response?.response['output'])).toContain('<activated_skill name="given-skill">');
    const why = await session.policy.explain({
      name: 'activate_skill',
      args: { name: 'given-skill' },
    });
    expect(why.decidedBy).toContain('skills option');
  });
});
