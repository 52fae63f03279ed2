import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { eventually, faultServer, processAlive } from '../mcp/helpers/mcp-servers.js';
import { startHarness, tempCwd, type Harness } from './helpers/acp-harness.js';

let project: { cwd: string; cleanup(): Promise<void> };
const harnesses: Harness[] = [];

beforeEach(async () => {
  project = await tempCwd();
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.server.close();
  await project.cleanup();
});

/** The fault server as an ACP client describes a stdio server (`env` as name/value pairs). */
function clientStdioServer(name: string, pidFile: string): acp.McpServer {
  const config = faultServer('default', { pidFile });
  return {
    name,
    command: config.command as string,
    args: config.args ?? [],
    env: Object.entries(config.env ?? {}).map(([key, value]) => ({ name: key, value })),
  };
}

describe('ACP server: the client’s MCP servers', () => {
  it('runs a tool of a server the client passed, asks for it, and stops the server with the session', async () => {
    const pidFile = join(project.cwd, '..', 'server.pid');
    const model = new ScriptedModel([
      callTurn({ name: 'mcp_editor_echo', args: { text: 'from the editor' } }),
      textTurn('echoed'),
    ]);
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      trustWorkspace: true,
      settings: false,
    });
    harnesses.push(h);
    const { sessionId } = await h.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [clientStdioServer('editor', pidFile)],
    });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(processAlive(pid)).toBe(true);

    expect((await h.prompt(sessionId, 'echo it')).stopReason).toBe('end_turn');
    // Offered to the model under gemini-cli's name, and asked before it ran (MCP tools default to ask).
    const declared = (model.generateRequests[0]?.config?.tools ?? []).flatMap((t) =>
      'functionDeclarations' in t ? (t.functionDeclarations ?? []).map((d) => d.name) : [],
    );
    expect(declared).toContain('mcp_editor_echo');
    const [request] = h.client.permissionRequests;
    expect(request?.toolCall.title).toContain('echo (editor MCP Server)');
    const response = model.generateRequests[1]?.contents;
    expect(JSON.stringify(response)).toContain('echo: from the editor');

    await h.ctx.request(acp.methods.agent.session.close, { sessionId });
    expect(await eventually(() => !processAlive(pid))).toBe(true);
  });

  it('offers "Allow all server tools for this session", which stops asking for that server', async () => {
    const pidFile = join(project.cwd, '..', 'server.pid');
    const model = new ScriptedModel([
      callTurn({ name: 'mcp_editor_echo', args: { text: 'one' } }),
      callTurn({ name: 'mcp_editor_progress', args: {} }),
      textTurn('done'),
    ]);
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      trustWorkspace: true,
      settings: false,
    });
    harnesses.push(h);
    h.client.answer = () => ({
      outcome: { outcome: 'selected', optionId: 'proceed_always_server' },
    });
    const { sessionId } = await h.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [clientStdioServer('editor', pidFile)],
    });
    expect((await h.prompt(sessionId, 'go')).stopReason).toBe('end_turn');
    expect(h.client.permissionRequests).toHaveLength(1);
    expect(h.client.permissionRequests[0]?.options.map((o) => o.optionId)).toEqual([
      'proceed_always_server',
      'proceed_always_tool',
      'proceed_once',
      'cancel',
    ]);
    const results = h.client
      .of(sessionId)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    expect(results).toHaveLength(2);
  });

  it('lets a client server replace the agent’s server of the same name', async () => {
    const ownPid = join(project.cwd, '..', 'own.pid');
    const clientPid = join(project.cwd, '..', 'client.pid');
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: new ScriptedModel([]),
      trustWorkspace: true,
      settings: false,
      mcpServers: { shared: faultServer('default', { pidFile: ownPid }) },
    });
    harnesses.push(h);
    const { sessionId } = await h.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [clientStdioServer('shared', clientPid)],
    });
    const pid = Number(readFileSync(clientPid, 'utf8'));
    expect(() => readFileSync(ownPid)).toThrow();
    await h.ctx.request(acp.methods.agent.session.close, { sessionId });
    expect(await eventually(() => !processAlive(pid))).toBe(true);
  });
});
