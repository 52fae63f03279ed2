import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tool, z } from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { optionOf } from './helpers/acp-client.js';
import { rpcError, startHarness, tempCwd, type Harness } from './helpers/acp-harness.js';

let project: { cwd: string; cleanup(): Promise<void> };
const harnesses: Harness[] = [];

beforeEach(async () => {
  project = await tempCwd();
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.server.close();
  await project.cleanup();
});

async function start(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const harness = await startHarness(...args);
  harnesses.push(harness);
  return harness;
}

/** A tool that runs until its call is aborted, and says whether it was. */
function slowTool(seen: { started?: () => void; aborted?: boolean }) {
  return tool(
    { name: 'slow_tool', description: 'Waits until cancelled', inputSchema: z.object({}) },
    async (_args, ctx) => {
      seen.started?.();
      await new Promise<void>((resolve) => {
        if (ctx.signal.aborted) resolve();
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      seen.aborted = ctx.signal.aborted;
      return 'stopped';
    },
  );
}

describe('ACP server: tool calls and permissions', () => {
  it('asks before an edit with a diff, then reports the real diff once the edit ran', async () => {
    await writeFile(join(project.cwd, 'a.txt'), 'old line\n');
    const model = new ScriptedModel([
      callTurn({
        name: 'replace',
        args: { file_path: 'a.txt', instruction: 'x', old_string: 'old', new_string: 'new' },
      }),
      textTurn('edited'),
    ]);
    const h = await start({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await h.newSession();
    expect((await h.prompt(sessionId, 'edit it')).stopReason).toBe('end_turn');
    const [request] = h.client.permissionRequests;
    const file = join(project.cwd, 'a.txt');
    expect(request?.toolCall).toMatchObject({
      status: 'pending',
      kind: 'edit',
      locations: [{ path: file }],
      content: [{ type: 'diff', path: file, oldText: 'old line\n', newText: 'new line\n' }],
    });
    expect(request?.options.map((o) => o.optionId)).toEqual([
      'proceed_always',
      'proceed_once',
      'cancel',
    ]);
    const updates = h.client.of(sessionId);
    const id = request?.toolCall.toolCallId;
    expect(updates).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call', toolCallId: id, status: 'pending' }),
    );
    expect(updates).toContainEqual({
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'in_progress',
    });
    expect(updates).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'completed',
        content: [
          expect.objectContaining({ type: 'diff', oldText: 'old line\n', newText: 'new line\n' }),
        ],
      }),
    );
    expect(await readFile(file, 'utf8')).toBe('new line\n');
  });

  it('a rejected call fails, the model is told, and the file is untouched', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'b.txt', content: 'nope' } }),
      textTurn('ok, not writing'),
    ]);
    const h = await start({ cwd: project.cwd, contentGenerator: model });
    h.client.answer = (request) => ({
      outcome: { outcome: 'selected', optionId: optionOf(request, 'reject_once') },
    });
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'write');
    expect(h.client.of(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'tool_call_update', status: 'failed' }),
    );
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('User denied execution.');
    await expect(readFile(join(project.cwd, 'b.txt'), 'utf8')).rejects.toThrow();
  });

  it('"Allow for this session" stops asking for that tool; an answer naming no offered option refuses', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'c.txt', content: '1' } }),
      callTurn({ name: 'write_file', args: { file_path: 'c.txt', content: '2' } }),
      textTurn('done'),
      callTurn({ name: 'run_shell_command', args: { command: 'echo hi' } }),
      textTurn('refused'),
    ]);
    const h = await start({ cwd: project.cwd, contentGenerator: model });
    h.client.answer = (request) => ({
      outcome: { outcome: 'selected', optionId: optionOf(request, 'allow_always') },
    });
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'write twice');
    expect(h.client.permissionRequests).toHaveLength(1);
    expect(await readFile(join(project.cwd, 'c.txt'), 'utf8')).toBe('2');
    h.client.answer = () => ({
      outcome: { outcome: 'selected', optionId: 'proceed_always_and_save' },
    });
    await h.prompt(sessionId, 'shell');
    expect(h.client.permissionRequests).toHaveLength(2);
    expect(JSON.stringify(model.generateRequests.at(-1)?.contents)).toContain('not offered');
  });

  it('session/cancel aborts the running tool: stop reason cancelled, history still valid', async () => {
    const seen: { started?: () => void; aborted?: boolean } = {};
    const started = new Promise<void>((resolve) => (seen.started = resolve));
    const model = new ScriptedModel([callTurn({ name: 'slow_tool' }), textTurn('after cancel')]);
    const h = await start({ cwd: project.cwd, contentGenerator: model, tools: [slowTool(seen)] });
    const { sessionId } = await h.newSession();
    const running = h.prompt(sessionId, 'go slow');
    await started;
    const busy = await rpcError(h.prompt(sessionId, 'second prompt at once'));
    expect(busy.code).toBe(-32600);
    await h.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe('cancelled');
    expect(seen.aborted).toBe(true);
    expect((await h.prompt(sessionId, 'next')).stopReason).toBe('end_turn');
    const contents = JSON.stringify(model.generateRequests[1]?.contents);
    expect(contents).toContain('functionResponse');
    expect(contents).toContain('slow_tool');
  });

  it('a cancel during a permission request refuses the call and ends the turn cancelled', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'd.txt', content: 'x' } }),
    ]);
    const h = await start({ cwd: project.cwd, contentGenerator: model });
    let answer: (value: acp.RequestPermissionResponse) => void = () => undefined;
    h.client.answer = () => new Promise((resolve) => (answer = resolve));
    const { sessionId } = await h.newSession();
    const asked = h.client.nextPermissionRequest();
    const running = h.prompt(sessionId, 'write');
    await asked;
    await h.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    answer({ outcome: { outcome: 'cancelled' } });
    expect((await running).stopReason).toBe('cancelled');
    await expect(readFile(join(project.cwd, 'd.txt'), 'utf8')).rejects.toThrow();
    model.assertComplete();
  });

  it('a client that vanishes during a permission request leaves the call pending, resumable in a new server', async () => {
    const first = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'e.txt', content: 'late' } }),
    ]);
    const h1 = await start({ cwd: project.cwd, contentGenerator: first });
    h1.client.answer = () => new Promise(() => undefined);
    const { sessionId } = await h1.newSession();
    const asked = h1.client.nextPermissionRequest();
    void h1.prompt(sessionId, 'write late').catch(() => undefined);
    await asked;
    await h1.vanish();
    await h1.connection.closed;
    await expect(readFile(join(project.cwd, 'e.txt'), 'utf8')).rejects.toThrow();

    const second = new ScriptedModel([
      textTurn('written after all'),
      textTurn('and the new question'),
    ]);
    const h2 = await start({ cwd: project.cwd, contentGenerator: second });
    await h2.ctx.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: project.cwd,
      mcpServers: [],
    });
    expect(h2.client.of(sessionId)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        title: 'Writing to e.txt',
        status: 'pending',
      }),
    );
    expect((await h2.prompt(sessionId, 'new question')).stopReason).toBe('end_turn');
    expect(h2.client.permissionRequests).toHaveLength(1);
    expect(await readFile(join(project.cwd, 'e.txt'), 'utf8')).toBe('late');
    second.assertComplete();
  });

  it('asks about ctx.shell commands a rule makes ask', async () => {
    const runner = tool(
      { name: 'run_check', description: 'runs a check', inputSchema: z.object({}) },
      async (_args, ctx) => (await ctx.shell.exec('echo shell-ok')).output.trim(),
    );
    const model = new ScriptedModel([callTurn({ name: 'run_check' }), textTurn('checked')]);
    const h = await start({
      cwd: project.cwd,
      contentGenerator: model,
      tools: [runner],
      policy: {
        rules: [{ toolName: 'run_shell_command', commandPrefix: 'echo', decision: 'ask_user' }],
      },
    });
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'check');
    expect(h.client.permissionRequests[0]?.toolCall).toMatchObject({
      kind: 'execute',
      status: 'pending',
    });
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('shell-ok');
  });

  it('turns the built-in write_todos calls into plan updates', async () => {
    const model = new ScriptedModel([
      callTurn({
        name: 'write_todos',
        args: {
          todos: [
            { description: 'Read', status: 'completed' },
            { description: 'Fix', status: 'in_progress' },
          ],
        },
      }),
      textTurn('planned'),
    ]);
    const h = await start({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'plan');
    // The tool ran (no permission request: write_todos has nothing to confirm) and the model got its list back.
    expect(h.client.permissionRequests).toEqual([]);
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('1. [completed] Read');
    expect(h.client.of(sessionId)).toContainEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read', priority: 'medium', status: 'completed' },
        { content: 'Fix', priority: 'medium', status: 'in_progress' },
      ],
    });
    // The display is the TodoList, not text: as gemini, the finished call carries no text content; the plan shows it.
    const finished = h.client
      .of(sessionId)
      .find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(finished).toMatchObject({ content: [], rawOutput: {} });
  });

  it('replays a stored conversation on session/load: user, thoughts, text and finished tool calls', async () => {
    await writeFile(join(project.cwd, 'here.txt'), 'present');
    const model = new ScriptedModel([
      modelTurn([
        { text: '**Looking** at files', thought: true },
        { text: 'Reading two files.' },
        { functionCall: { name: 'read_file', args: { file_path: 'here.txt' } } },
        { functionCall: { name: 'read_file', args: { file_path: 'missing.txt' } } },
      ]),
      textTurn('One was missing.'),
    ]);
    const h1 = await start({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await h1.newSession();
    await h1.prompt(sessionId, 'read them');
    await h1.server.close();

    const h2 = await start({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
    const loaded = await h2.ctx.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: project.cwd,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe('default');
    const replay = h2.client
      .of(sessionId)
      .filter((u) => u.sessionUpdate !== 'available_commands_update');
    expect(replay.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_thought_chunk',
      'agent_message_chunk',
      'tool_call',
      'tool_call',
      'agent_message_chunk',
    ]);
    expect(replay[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'read them' },
    });
    expect(replay[3]).toMatchObject({ kind: 'read', status: 'completed', title: 'here.txt' });
    expect(replay[4]).toMatchObject({ kind: 'read', status: 'failed' });
  });
});

describe('ACP server: client capabilities', () => {
  it('reads and writes files inside the cwd through the editor (its buffers win)', async () => {
    await writeFile(join(project.cwd, 'buf.txt'), 'ON DISK');
    const reads: string[] = [];
    const writes: acp.WriteTextFileRequest[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'read_file', args: { file_path: 'buf.txt' } }),
      callTurn({ name: 'write_file', args: { file_path: 'sub/new.txt', content: 'via editor' } }),
      textTurn('done'),
    ]);
    const h = await start(
      { cwd: project.cwd, contentGenerator: model, policy: { mode: 'yolo' } },
      {},
      {
        capabilities: { fs: { readTextFile: true, writeTextFile: true } },
        extras: {
          readTextFile: (params) => {
            reads.push(params.path);
            return { content: 'UNSAVED BUFFER' };
          },
          writeTextFile: async (params) => {
            writes.push(params);
            await writeFile(params.path, params.content);
          },
        },
      },
    );
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'read then write');
    expect(reads).toContain(join(project.cwd, 'buf.txt'));
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('UNSAVED BUFFER');
    expect(writes).toEqual([
      { sessionId, path: join(project.cwd, 'sub', 'new.txt'), content: 'via editor' },
    ]);
  });

  it("runs run_shell_command in the editor's terminal when enabled and offered", async () => {
    const terminals = new Map<
      string,
      { output: string; exit: Promise<{ exitCode: number | null }> }
    >();
    let created: acp.CreateTerminalRequest | undefined;
    const model = new ScriptedModel([
      callTurn({ name: 'run_shell_command', args: { command: 'echo hi-from-terminal' } }),
      textTurn('ran'),
    ]);
    const h = await start(
      { cwd: project.cwd, contentGenerator: model, policy: { mode: 'yolo' } },
      { terminal: 'client' },
      {
        capabilities: { terminal: true },
        extras: {
          terminal: {
            async create(params) {
              created = params;
              const child = spawn(params.command, params.args ?? [], {
                cwd: params.cwd ?? undefined,
              });
              const entry = {
                output: '',
                exit: Promise.resolve({ exitCode: null as number | null }),
              };
              child.stdout.on('data', (d: Buffer) => (entry.output += d.toString()));
              entry.exit = new Promise((resolve) =>
                child.on('close', (code) => resolve({ exitCode: code })),
              );
              terminals.set('t1', entry);
              return { terminalId: 't1' };
            },
            async output() {
              const entry = terminals.get('t1');
              return {
                output: entry?.output ?? '',
                truncated: false,
                exitStatus: entry ? await entry.exit : null,
              };
            },
            async waitForExit() {
              return (await terminals.get('t1')?.exit) ?? { exitCode: null };
            },
            async kill() {},
            async release() {
              terminals.delete('t1');
            },
          },
        },
      },
    );
    const { sessionId } = await h.newSession();
    await h.prompt(sessionId, 'run it');
    expect(created).toMatchObject({
      sessionId,
      command: 'bash',
      args: ['-c', 'echo hi-from-terminal'],
      cwd: project.cwd,
    });
    expect(h.client.of(sessionId)).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        content: [{ type: 'terminal', terminalId: 't1' }],
      }),
    );
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('hi-from-terminal');
    expect(terminals.size).toBe(0);
  });
});
