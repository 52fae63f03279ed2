import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer, callTurn, textTurn } from '../../src/testing/index.js';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { optionOf } from './helpers/acp-client.js';
import {
  alive,
  assertOnlyProtocol,
  eventually,
  spawnAcpChild,
  type AcpChild,
} from './helpers/acp-child.js';
import { tempCwd } from './helpers/acp-harness.js';

let project: { cwd: string; cleanup(): Promise<void> };
let home: string;
let gemini: FakeGeminiServer;
const children: AcpChild[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);
beforeEach(async () => {
  project = await tempCwd();
  home = join(project.cwd, '..', 'home');
  await mkdir(home);
});
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null) c.child.kill('SIGKILL');
  }
  await gemini?.close();
  await project.cleanup();
});

function start(raw = false): AcpChild {
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: gemini.baseUrl,
  };
  const child = spawnAcpChild([], project.cwd, env, raw);
  children.push(child);
  return child;
}

const init = (c: AcpChild) =>
  c.ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
  });

describe('gemini-agent --acp as a child process', () => {
  it('new → tool call → permission → diff → cancel mid-tool → load in a fresh process → history replayed', async () => {
    await writeFile(join(project.cwd, 'a.txt'), 'before\n');
    const pidFile = join(project.cwd, 'shell.pid');
    gemini = new FakeGeminiServer({
      turns: [
        callTurn({
          name: 'write_file',
          args: { file_path: 'a.txt', content: 'after\n' },
          id: 'w1',
        }),
        callTurn({
          name: 'run_shell_command',
          args: { command: `echo $$ > ${pidFile} && exec sleep 60` },
          id: 's1',
        }),
        textTurn('Picked up where we left off.'),
      ],
    });
    await gemini.start();

    const a = start();
    await init(a);
    a.client.answer = (request) => ({
      outcome: { outcome: 'selected', optionId: optionOf(request, 'allow_once') },
    });
    const { sessionId } = await a.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [],
    });
    const turn = a.ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Rewrite a.txt, then run the slow command' }],
    });
    const diff = await a.client.waitForUpdate(
      (u) =>
        u.sessionUpdate === 'tool_call_update' &&
        u.status === 'completed' &&
        u.content?.[0]?.type === 'diff',
    );
    expect(diff.update).toMatchObject({
      content: [
        { type: 'diff', path: join(project.cwd, 'a.txt'), oldText: 'before\n', newText: 'after\n' },
      ],
    });
    expect(await readFile(join(project.cwd, 'a.txt'), 'utf8')).toBe('after\n');
    await eventually(() => existsSync(pidFile), 'the shell command to start');
    const shellPid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(alive(shellPid)).toBe(true);
    await a.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe('cancelled');
    await eventually(() => !alive(shellPid), 'the cancelled command to be killed');
    expect(a.client.permissionRequests.map((r) => r.toolCall.kind)).toEqual(['edit', 'execute']);
    a.closeStdin();
    expect((await a.exited).code).toBe(0);
    assertOnlyProtocol(a.stdout());

    const b = start();
    await init(b);
    await b.ctx.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: project.cwd,
      mcpServers: [],
    });
    const replay = b.client
      .of(sessionId)
      .filter((u) => u.sessionUpdate !== 'available_commands_update');
    expect(replay[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'Rewrite a.txt, then run the slow command' },
    });
    expect(replay).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'write_file__w1',
        status: 'completed',
        kind: 'edit',
      }),
    );
    expect(replay).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: 'run_shell_command__s1',
        kind: 'execute',
      }),
    );
    const next = await b.ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'Continue' }],
    });
    expect(next.stopReason).toBe('end_turn');
    b.closeStdin();
    expect((await b.exited).code).toBe(0);
    assertOnlyProtocol(b.stdout());
    gemini.assertComplete();
  });

  it('answers hostile input with JSON-RPC errors and keeps serving', async () => {
    gemini = new FakeGeminiServer({ turns: [] });
    await gemini.start();
    const c = start(true);
    const stdin = c.child.stdin!;
    const lines: string[] = [];
    c.child.stdout!.on('data', (chunk: Buffer) =>
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
    );
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}\n'); // truncated
    stdin.write('this is not json\n');
    stdin.write('[{"jsonrpc":"2.0","id":2,"method":"initialize"}]\n');
    stdin.write('{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/tmp"}}\n');
    stdin.write('{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}\n');
    // A client waits for the initialize answer before anything else (requests sent earlier get -32600).
    await eventually(() => lines.some((l) => l.includes('"id":4')), 'the initialize answer');
    stdin.write('{"jsonrpc":"2.0","id":5,"method":"no/such_method","params":{}}\n');
    stdin.write('{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":42}}\n');
    stdin.write(
      '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"nope","prompt":[]}}\n',
    );
    stdin.write('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}\n');
    stdin.write(
      '{"jsonrpc":"2.0","id":9,"method":"session/close","params":{"sessionId":"nope"}}\n',
    );
    stdin.write('{"jsonrpc":"2.0","id":8,"method":"session/list","params":{}}\n');
    await eventually(
      () => ['"id":8', '"id":9'].every((id) => lines.some((l) => l.includes(id))),
      'the answers to requests 8 and 9',
    );
    const byId = new Map<unknown, { error?: { code: number } }>();
    const nullIds: Array<{ error?: { code: number } }> = [];
    for (const line of lines) {
      const message = JSON.parse(line) as { id?: unknown; error?: { code: number } };
      if (message.id === null) nullIds.push(message);
      else byId.set(message.id, message);
    }
    expect(nullIds.map((m) => m.error?.code).sort()).toEqual([-32600, -32700, -32700]);
    expect(byId.get(3)?.error?.code).toBe(-32600);
    expect(byId.get(4)?.error).toBeUndefined();
    expect(byId.get(5)?.error?.code).toBe(-32601);
    expect(byId.get(6)?.error?.code).toBe(-32602);
    expect(byId.get(7)?.error?.code).toBe(-32002);
    expect(byId.get(9)?.error?.code).toBe(-32002);
    expect(byId.get(8)?.error).toBeUndefined();
    expect(c.child.exitCode).toBeNull();
    stdin.end();
    expect((await c.exited).code).toBe(0);
  });

  it('exits cleanly, with no child left, when the editor vanishes mid-turn', async () => {
    const pidFile = join(project.cwd, 'vanish.pid');
    gemini = new FakeGeminiServer({
      turns: [
        callTurn({
          name: 'run_shell_command',
          args: { command: `echo $$ > ${pidFile} && exec sleep 60` },
        }),
      ],
    });
    await gemini.start();
    const c = start();
    await init(c);
    const { sessionId } = await c.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [],
    });
    await c.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' });
    void c.ctx
      .request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'run' }],
      })
      .catch(() => undefined);
    await eventually(() => existsSync(pidFile), 'the shell command to start');
    const shellPid = Number((await readFile(pidFile, 'utf8')).trim());
    c.closeStdin();
    expect((await c.exited).code).toBe(0);
    await eventually(() => !alive(shellPid), 'the command to be killed');
    assertOnlyProtocol(c.stdout());
  });
});
