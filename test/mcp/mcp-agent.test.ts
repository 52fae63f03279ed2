import type { Part } from '@google/genai';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  hook,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';
import { eventually, everythingStdio, faultServer, processAlive } from './helpers/mcp-servers.js';

const agents: GeminiCliAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

function folder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'mcp-agent-')));
}

function agentWith(options: GeminiCliAgentOptions): GeminiCliAgent {
  const agent = new GeminiCliAgent({
    cwd: folder(),
    trustWorkspace: true,
    builtinTools: false,
    retry: false,
    settings: false,
    ...options,
  });
  agents.push(agent);
  return agent;
}

async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function responses(events: ServerGeminiStreamEvent[]) {
  return events.flatMap((e) => (e.type === 'tool_call_response' ? [e.value] : []));
}

function declaredNames(model: ScriptedModel, index: number): string[] {
  const request = model.generateRequests[index];
  return (request?.config?.tools ?? []).flatMap((t) =>
    ('functionDeclarations' in t ? (t.functionDeclarations ?? []) : []).map((d) => d.name ?? ''),
  );
}

function lastUserParts(model: ScriptedModel, index: number): Part[] {
  const contents = model.generateRequests[index]?.contents;
  const list = Array.isArray(contents) ? contents : [];
  const last = list[list.length - 1] as { parts?: Part[] } | undefined;
  return last?.parts ?? [];
}

describe('an agent with MCP servers', () => {
  it('calls an everything tool, sends its image to the model, and resumes with the call in history', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'mcp_everything_get-tiny-image', id: 'img-1' }),
      textTurn('A tiny logo.'),
    ]);
    const agent = agentWith({
      contentGenerator: model,
      mcpServers: { everything: everythingStdio({ trust: true }) },
    });
    const session = agent.session();
    const events = await drain(session.sendStream('Show me the image'));
    const [response] = responses(events);
    expect(response?.error).toBeUndefined();
    expect(declaredNames(model, 0)).toEqual(
      expect.arrayContaining([
        'mcp_everything_echo',
        'mcp_everything_get-tiny-image',
        'list_mcp_resources',
      ]),
    );
    const parts = lastUserParts(model, 1);
    expect(parts.some((p) => p.inlineData?.mimeType === 'image/png' && p.inlineData.data)).toBe(
      true,
    );
    const output = parts[0]?.functionResponse?.response?.['output'];
    expect(output).toContain(
      "[Tool 'get-tiny-image' provided the following image data with mime-type: image/png]",
    );
    expect(output).toContain('<untrusted_context>');
    await session.close();

    const again = agentWith({ cwd: agent.options.cwd, contentGenerator: new ScriptedModel([]) });
    const resumed = await again.resumeSession(session.id);
    const history = resumed.getHistory();
    const call = history.flatMap((c) => c.parts ?? []).find((p) => p.functionCall);
    expect(call?.functionCall?.name).toBe('mcp_everything_get-tiny-image');
    const answer = history.flatMap((c) => c.parts ?? []).find((p) => p.functionResponse);
    expect(answer?.functionResponse?.name).toBe('mcp_everything_get-tiny-image');
    await resumed.close();
  });

  it('asks before an MCP tool runs: not offered headless, run once a handler allows it', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'mcp_fault_echo', args: { text: 'hi' } }),
      textTurn('ok'),
      callTurn({ name: 'mcp_fault_echo', args: { text: 'again' } }),
      textTurn('ok'),
    ]);
    // Headless (nobody to ask), an MCP tool that asks is not offered, as gemini-cli 0.61 (D17); a call anyway is
    // refused, never run.
    const headless = agentWith({ contentGenerator: model, mcpServers: { fault: faultServer() } });
    const [denied] = responses(await drain(headless.session().sendStream('go')));
    expect(declaredNames(model, 0)).not.toContain('mcp_fault_echo');
    expect(denied?.error?.message).toBe('Tool "mcp_fault_echo" not found.');
    const asked: unknown[] = [];
    const interactive = agentWith({
      contentGenerator: model,
      mcpServers: { fault: faultServer() },
      onApproval: (request) => {
        asked.push(request);
        return 'allow';
      },
    });
    const [allowed] = responses(await drain(interactive.session().sendStream('go')));
    expect(allowed?.error).toBeUndefined();
    expect(allowed?.resultDisplay).toBe('echo: again');
    expect(asked[0]).toMatchObject({
      toolName: 'mcp_fault_echo',
      args: { text: 'again' },
      mcp: { serverName: 'fault', toolName: 'echo', annotations: { readOnlyHint: true } },
    });
  });

  it('allow_always covers one tool, or with scope server every tool of that server', async () => {
    const script = () =>
      new ScriptedModel([
        callTurn({ name: 'mcp_fault_echo', args: { text: 'one' } }),
        callTurn({ name: 'mcp_fault_echo', args: { text: 'two' } }),
        callTurn({ name: 'mcp_fault_progress', args: {} }),
        textTurn('done'),
      ]);
    const asked = (scope?: 'server') => {
      const names: string[] = [];
      const agent = agentWith({
        contentGenerator: script(),
        mcpServers: { fault: faultServer() },
        onApproval: (request) => {
          names.push(request.toolName);
          return scope ? { decision: 'allow_always', scope } : 'allow_always';
        },
      });
      return { agent, names };
    };
    const tool = asked();
    const toolRuns = responses(await drain(tool.agent.session().sendStream('go')));
    expect(toolRuns.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    expect(tool.names).toEqual(['mcp_fault_echo', 'mcp_fault_progress']);
    const server = asked('server');
    const serverRuns = responses(await drain(server.agent.session().sendStream('go')));
    expect(serverRuns.map((r) => r.error)).toEqual([undefined, undefined, undefined]);
    expect(server.names).toEqual(['mcp_fault_echo']);
  });

  it('BeforeTool and AfterTool hooks get the server as mcp_context, never its env', async () => {
    const seen: unknown[] = [];
    const before = hook({ event: 'BeforeTool', name: 'see-before' }, (input) => {
      seen.push({ event: 'BeforeTool', mcp: input.mcp_context });
      return {};
    });
    const after = hook({ event: 'AfterTool', name: 'see-after' }, (input) => {
      seen.push({ event: 'AfterTool', mcp: input.mcp_context });
      return {};
    });
    const server = faultServer('default', { trust: true, env: { SECRET_TOKEN: 'hunter2' } });
    const agent = agentWith({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'mcp_fault_echo', args: { text: 'x' } }),
        textTurn('ok'),
      ]),
      mcpServers: { fault: server },
      hooks: [before, after],
    });
    await drain(agent.session().sendStream('go'));
    const context = {
      server_name: 'fault',
      tool_name: 'echo',
      command: server.command,
      args: server.args,
    };
    expect(seen).toEqual([
      { event: 'BeforeTool', mcp: context },
      { event: 'AfterTool', mcp: context },
    ]);
    expect(JSON.stringify(seen)).not.toContain('hunter2');
  });

  it('policy rules match mcpName, mcp_<server>_* and annotations', async () => {
    const model = new ScriptedModel([
      callTurn(
        { name: 'mcp_fault_echo', args: { text: 'x' }, id: 'a' },
        { name: 'mcp_fault_fail', args: {}, id: 'b' },
      ),
      textTurn('done'),
    ]);
    const agent = agentWith({
      contentGenerator: model,
      mcpServers: { fault: faultServer() },
      policy: {
        rules: [
          {
            toolName: '*',
            mcpName: 'fault',
            toolAnnotations: { readOnlyHint: true },
            decision: 'allow',
            priority: 10,
          },
          { toolName: 'mcp_fault_*', decision: 'deny', denyMessage: 'no faults' },
        ],
      },
    });
    const [echo, fail] = responses(await drain(agent.session().sendStream('go')));
    expect(echo?.error).toBeUndefined();
    expect(declaredNames(model, 0)).toContain('mcp_fault_echo');
    expect(declaredNames(model, 0)).not.toContain('mcp_fault_fail');
    expect(fail?.error?.message).toMatch(/^Tool "mcp_fault_fail" not found\./);
  });

  it('reports progress, turns isError and a crash into tool errors, and restarts the server', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'mcp_fault_progress', id: 'p' }, { name: 'mcp_fault_fail', id: 'f' }),
      callTurn({ name: 'mcp_fault_crash', id: 'c' }),
      callTurn({ name: 'mcp_fault_echo', args: { text: 'back' }, id: 'e' }),
      textTurn('done'),
    ]);
    const agent = agentWith({
      contentGenerator: model,
      mcpServers: { fault: faultServer('default', { trust: true }) },
    });
    const events = await drain(agent.session().sendStream('go'));
    const progress = events.flatMap((e) => (e.type === 'tool_progress' ? [e.value] : []));
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    const [done, failed, crashed, back] = responses(events);
    expect(progress[0]).toMatchObject({
      callId: done?.callId,
      name: 'mcp_fault_progress',
      total: 3,
      message: 'step 1',
    });
    expect(done?.resultDisplay).toBe('done');
    expect(failed?.error?.type).toBe('mcp_tool_error');
    expect(failed?.error?.message).toMatch(
      /^MCP tool 'fail' reported tool error for function call: /,
    );
    expect(crashed?.error?.message).toMatch(/Connection closed/);
    expect(back?.resultDisplay).toBe('echo: back');
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.value] : []));
    expect(warnings.some((w) => w.code === 'MCP_SERVER_DISCONNECTED')).toBe(true);
  });

  it('a server that fails to start is a warning, and the agent goes on without it', async () => {
    const model = new ScriptedModel([textTurn('fine')]);
    const agent = agentWith({
      contentGenerator: model,
      mcpServers: {
        broken: { command: '/no/such/server' },
        fault: faultServer('default', { trust: true }),
      },
    });
    const events = await drain(agent.session().sendStream('hi'));
    const warning = events.find((e) => e.type === 'warning');
    expect(warning?.value).toMatchObject({ code: 'MCP_SERVER_FAILED', source: 'mcp:broken' });
    expect(events.some((e) => e.type === 'content')).toBe(true);
    expect(declaredNames(model, 0)).toContain('mcp_fault_echo');
    const status = await agent.mcp.status();
    expect(status.map((s) => [s.name, s.state])).toEqual([
      ['broken', 'failed'],
      ['fault', 'connected'],
    ]);
    expect(status[1]?.toolCount).toBeGreaterThan(5);
  });

  it('starts nothing in an untrusted folder, nor for a server mcp.excluded blocks', async () => {
    const untrusted = agentWith({
      trustWorkspace: false,
      contentGenerator: new ScriptedModel([textTurn('x')]),
      mcpServers: { fault: faultServer() },
    });
    const [status] = await untrusted.mcp.status();
    expect(status).toMatchObject({ name: 'fault', state: 'disabled', blocked: false });
    expect(status?.reason).toMatch(/not trusted/);
    const blocked = agentWith({
      settings: { sources: [], overrides: { mcp: { excluded: ['fault'] } } },
      mcpServers: { fault: faultServer() },
    });
    expect((await blocked.mcp.status())[0]).toMatchObject({
      state: 'disabled',
      blocked: true,
      reason:
        "Server 'fault' is blocked by mcp.excluded. Remove it from settings.json mcp.excluded array to enable.",
    });
  });

  it('agent.close() ends every server and the processes they started', async () => {
    const pidFile = join(folder(), 'pid');
    const model = new ScriptedModel([callTurn({ name: 'mcp_fault_spawn' }), textTurn('ok')]);
    const agent = agentWith({
      contentGenerator: model,
      mcpServers: { fault: faultServer('default', { trust: true, pidFile }) },
    });
    const events = await drain(agent.session().sendStream('go'));
    const child = Number(responses(events)[0]?.resultDisplay);
    const server = Number(readFileSync(pidFile, 'utf8'));
    expect(processAlive(server) && processAlive(child)).toBe(true);
    await agent.close();
    expect(await eventually(() => !processAlive(server) && !processAlive(child))).toBe(true);
  });

  it('offers prompts as templates and resources through agent.mcp', async () => {
    const agent = agentWith({ mcpServers: { everything: everythingStdio() } });
    const prompts = await agent.mcp.prompts();
    expect(prompts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt']),
    );
    const filled = await agent.mcp.getPrompt('everything', 'args-prompt', { city: 'Paris' });
    expect(filled.parts).toEqual([{ text: "What's weather in Paris?" }]);
    await expect(agent.mcp.getPrompt('everything', 'args-prompt', {})).rejects.toThrow(
      ConfigurationError,
    );
    const resources = await agent.mcp.resources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0];
    const read = await agent.mcp.readResource(`${first?.serverName}:${first?.uri}`);
    expect(read.contents.length).toBeGreaterThan(0);
  });

  it('rejects bad mcpServers options at construction', () => {
    expect(() => new GeminiCliAgent({ mcpServers: { x: {} } })).toThrow(
      /mcpServers\.x.*missing httpUrl/s,
    );
    expect(() => new GeminiCliAgent({ mcpServers: { x: { url: 'ftp://x' } } })).toThrow(
      /not an http/,
    );
    expect(
      () => new GeminiCliAgent({ mcpServers: { x: { command: 'a', timeout: -1 } } as never }),
    ).toThrow(/timeout/);
  });

  it('leaves out an MCP tool whose name another tool already has', async () => {
    const clash = tool(
      { name: 'mcp_fault_echo', description: 'mine', inputSchema: z.object({}) },
      () => 'mine',
    );
    const model = new ScriptedModel([textTurn('x')]);
    const agent = agentWith({
      contentGenerator: model,
      tools: [clash],
      mcpServers: { fault: faultServer() },
    });
    const events = await drain(agent.session().sendStream('hi'));
    expect(declaredNames(model, 0).filter((n) => n === 'mcp_fault_echo')).toHaveLength(1);
    expect(
      events.some(
        (e) =>
          e.type === 'warning' &&
          e.value.code === 'MCP_TOOL_SKIPPED' &&
          /another tool/.test(e.value.message),
      ),
    ).toBe(true);
  });
});
