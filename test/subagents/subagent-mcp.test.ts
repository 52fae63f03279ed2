import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  subagent,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';
import { eventually, faultServer, processAlive } from '../mcp/helpers/mcp-servers.js';
import {
  activities,
  completeTurn,
  declaredTools,
  drain,
  invokeTurn,
  lastResponses,
} from './helpers.js';

const agents: GeminiCliAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

function folder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), 'subagent-mcp-')));
}

function agentWith(options: GeminiCliAgentOptions): GeminiCliAgent {
  const agent = new GeminiCliAgent({
    cwd: folder(),
    trustWorkspace: true,
    builtinTools: false,
    retry: false,
    settings: false,
    persist: false,
    systemPrompt: 'none',
    sessionContext: false,
    // Allow the test servers' tools (the trust tests below take this rule away).
    policy: { rules: [{ toolName: 'mcp_fault_*', decision: 'allow' }] },
    ...options,
  });
  agents.push(agent);
  return agent;
}

function finishedText(request: Parameters<typeof lastResponses>[0]): string {
  const [response] = lastResponses(request) as Array<{ output?: string }>;
  return response?.output ?? '';
}

/** A subagent `worker` with no tools but its own servers. */
function worker(
  mcpServers: Record<string, Record<string, unknown>>,
  extra: { timeoutMs?: number } = {},
) {
  return subagent({
    name: 'worker',
    description: 'd',
    instructions: 'Work.',
    tools: [],
    mcpServers,
    ...extra,
  });
}

function pidOf(file: string): number {
  return Number(readFileSync(file, 'utf8'));
}

/** The subagent's inner warnings. */
function innerWarnings(events: ServerGeminiStreamEvent[]) {
  return activities(events).flatMap((a) => (a.event.type === 'warning' ? [a.event.value] : []));
}

/** A script: the parent delegates, the subagent echoes through its server's tool and finishes. */
function echoScript(pidFile: string): ScriptedModel {
  return new ScriptedModel([
    invokeTurn('worker', 'echo hi'),
    (request) => {
      // The subagent's own request declares its server's tools; the server runs while the subagent does.
      expect(declaredTools(request)).toContain('mcp_fault_echo');
      expect(processAlive(pidOf(pidFile))).toBe(true);
      return callTurn({ name: 'mcp_fault_echo', args: { text: 'hi' } });
    },
    (request) => {
      expect(JSON.stringify(lastResponses(request))).toContain('echo: hi');
      return completeTurn({ result: 'echoed' });
    },
    (request) => {
      expect(finishedText(request)).toBe(
        "Subagent 'worker' finished.\nTermination Reason: GOAL\nResult:\nechoed",
      );
      return textTurn('done');
    },
  ]);
}

describe("a subagent's own MCP servers (mcpServers / mcp_servers)", () => {
  it('subagent({ mcpServers }): tools for the subagent only, the call runs, the server ends with the run', async () => {
    const pidFile = join(folder(), 'pid');
    const definition = worker({ fault: faultServer('default', { pidFile }) });
    const model = echoScript(pidFile);
    const agent = agentWith({ contentGenerator: model, subagents: [definition] });
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    // The parent's requests never declare the subagent's server tools.
    for (const index of [0, 3]) {
      const names = declaredTools(model.generateRequests[index]!);
      expect(names).toContain('invoke_agent');
      expect(names.some((n) => n.startsWith('mcp_'))).toBe(false);
    }
    const call = activities(events).find(
      (a) => a.event.type === 'tool_call_response' && a.event.value.callId !== undefined,
    );
    expect(call?.event.type === 'tool_call_response' && call.event.value.error).toBeUndefined();
    // GOAL: the server process is gone once the run ended, while the agent stays open.
    expect(await eventually(() => !processAlive(pidOf(pidFile)))).toBe(true);
    expect(await agent.mcp.status()).toEqual([]);
  });

  it('a markdown agent with mcp_servers (snake_case keys) gets the same', async () => {
    const cwd = folder();
    const home = folder();
    const pidFile = join(cwd, 'pid');
    const server = faultServer('default', { pidFile });
    const dir = join(cwd, '.gemini', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'worker.md'),
      [
        '---',
        'name: worker',
        'description: Echoes things',
        'tools: []',
        'mcp_servers:',
        '  fault:',
        `    command: ${JSON.stringify(server.command)}`,
        `    args: ${JSON.stringify(server.args)}`,
        `    env: ${JSON.stringify(server.env)}`,
        '    include_tools: [echo]',
        '---',
        'Work.',
      ].join('\n'),
    );
    const previous = process.env['GEMINI_CLI_HOME'];
    process.env['GEMINI_CLI_HOME'] = home;
    try {
      const model = echoScript(pidFile);
      const agent = agentWith({ cwd, contentGenerator: model });
      await drain(agent.session().sendStream('go'));
      model.assertComplete();
      // include_tools applies: the subagent sees echo alone of the server's tools.
      expect(declaredTools(model.generateRequests[1]!)).toEqual([
        'mcp_fault_echo',
        'complete_task',
      ]);
      expect(await eventually(() => !processAlive(pidOf(pidFile)))).toBe(true);
    } finally {
      if (previous === undefined) delete process.env['GEMINI_CLI_HOME'];
      else process.env['GEMINI_CLI_HOME'] = previous;
    }
  });

  it('an abort of the parent stops the server', async () => {
    const pidFile = join(folder(), 'pid');
    const definition = worker({ fault: faultServer('default', { pidFile }) });
    const model = new ScriptedModel([
      invokeTurn('worker', 'hang'),
      callTurn({ name: 'mcp_fault_hang' }),
    ]);
    const agent = agentWith({ contentGenerator: model, subagents: [definition] });
    const controller = new AbortController();
    const events: ServerGeminiStreamEvent[] = [];
    for await (const event of agent.session().sendStream('go', controller.signal)) {
      events.push(event);
      if (
        event.type === 'subagent_activity' &&
        event.value.event.type === 'tool_call_request' &&
        event.value.event.value.name === 'mcp_fault_hang'
      ) {
        expect(processAlive(pidOf(pidFile))).toBe(true);
        setTimeout(() => controller.abort(), 50);
      }
    }
    expect(events.at(-1)?.type).toBe('user_cancelled');
    expect(await eventually(() => !processAlive(pidOf(pidFile)))).toBe(true);
  });

  it('the time limit stops the server; the grace turn still answers', async () => {
    const pidFile = join(folder(), 'pid');
    const definition = worker({ fault: faultServer('default', { pidFile }) }, { timeoutMs: 1500 });
    const model = new ScriptedModel([
      invokeTurn('worker', 'hang'),
      callTurn({ name: 'mcp_fault_hang' }),
      (request) => {
        const contents = request.contents as Array<{ parts: Array<{ text?: string }> }>;
        expect(contents.at(-1)?.parts[0]?.text).toMatch(/^You have exceeded the time limit\./);
        return completeTurn({ result: 'gave up' });
      },
      (request) => {
        expect(finishedText(request)).toContain('Termination Reason: GOAL');
        return textTurn('ok');
      },
    ]);
    const agent = agentWith({ contentGenerator: model, subagents: [definition] });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(await eventually(() => !processAlive(pidOf(pidFile)))).toBe(true);
  });

  it('a server that fails to start is a warning; the run goes on without its tools', async () => {
    const definition = worker({ broken: faultServer('exit') });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      (request) => {
        expect(declaredTools(request)).toEqual(['complete_task']);
        return completeTurn({ result: 'fine' });
      },
      (request) => {
        expect(finishedText(request)).toContain('Termination Reason: GOAL');
        return textTurn('ok');
      },
    ]);
    const agent = agentWith({ contentGenerator: model, subagents: [definition] });
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(innerWarnings(events)).toEqual([
      expect.objectContaining({ code: 'MCP_SERVER_FAILED', source: 'mcp:broken' }),
    ]);
  });

  it('an untrusted folder starts nothing: MCP_SERVER_DISABLED, and the run goes on', async () => {
    const pidFile = join(folder(), 'pid');
    const definition = worker({ fault: faultServer('default', { pidFile }) });
    const model = new ScriptedModel([
      invokeTurn('worker', 'task'),
      (request) => {
        expect(declaredTools(request)).toEqual(['complete_task']);
        return completeTurn({ result: 'fine' });
      },
      textTurn('ok'),
    ]);
    const agent = agentWith({
      trustWorkspace: false,
      contentGenerator: model,
      subagents: [definition],
    });
    const events = await drain(agent.session().sendStream('go'));
    model.assertComplete();
    const [warning, ...others] = innerWarnings(events);
    expect(others).toEqual([]);
    expect(warning).toMatchObject({ code: 'MCP_SERVER_DISABLED', source: 'mcp:fault' });
    expect(warning?.message).toMatch(/not trusted/);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('a configuration that is not an MCP server is refused with what to give', async () => {
    expect(() =>
      subagent({
        name: 'worker',
        description: 'd',
        instructions: 'Work.',
        mcpServers: { fault: 'node server.js' as unknown as Record<string, unknown> },
      }),
    ).toThrow(/mcpServers must be an object of MCP servers by name/);
    const definition = worker({ fault: { args: ['x'] } });
    const agent = agentWith({ contentGenerator: new ScriptedModel([]), subagents: [definition] });
    await expect(definition.run('task', { parent: agent.session() })).rejects.toThrow(
      ConfigurationError,
    );
  });
});

/** A script: the subagent calls its server's echo; returns what the call answered, as the subagent saw it. */
function echoAttempt(): { model: ScriptedModel; answer: () => string } {
  let answer = '';
  const model = new ScriptedModel([
    invokeTurn('worker', 'echo hi'),
    callTurn({ name: 'mcp_fault_echo', args: { text: 'hi' } }),
    (request) => {
      answer = JSON.stringify(lastResponses(request));
      return completeTurn({ result: 'tried' });
    },
    textTurn('done'),
  ]);
  return { model, answer: () => answer };
}

describe("a subagent's own server's trust (gemini-cli 4.2, like the agent's mcpServers)", () => {
  // No policy rule of the test's own: the default rules and the ones the agent builds decide.
  const untuned = { policy: undefined };

  it('trust: true lets its tools run without asking, headless', async () => {
    const { model, answer } = echoAttempt();
    const definition = worker({ fault: { ...faultServer('default'), trust: true } });
    const agent = agentWith({ ...untuned, contentGenerator: model, subagents: [definition] });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(answer()).toContain('echo: hi');
  });

  it('without trust its tools ask, and headless that is a refusal', async () => {
    const { model, answer } = echoAttempt();
    const definition = worker({ fault: faultServer('default') });
    const agent = agentWith({ ...untuned, contentGenerator: model, subagents: [definition] });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(answer()).not.toContain('echo: hi');
    expect(answer()).toMatch(/confirmation/);
  });

  it('a rule of a higher priority still wins over the trust', async () => {
    const { model, answer } = echoAttempt();
    const definition = worker({ fault: { ...faultServer('default'), trust: true } });
    const agent = agentWith({
      policy: { rules: [{ toolName: 'mcp_fault_echo', decision: 'deny', priority: 500 }] },
      contentGenerator: model,
      subagents: [definition],
    });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(answer()).not.toContain('echo: hi');
  });

  it("the trust is that subagent's own: another subagent's server of the same name still asks", async () => {
    const { model, answer } = echoAttempt();
    const trusting = subagent({
      name: 'trusting',
      description: 'd',
      instructions: 'Work.',
      tools: [],
      mcpServers: { fault: { ...faultServer('default'), trust: true } },
    });
    const definition = worker({ fault: faultServer('default') });
    const agent = agentWith({
      ...untuned,
      contentGenerator: model,
      subagents: [definition, trusting],
    });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
    expect(answer()).not.toContain('echo: hi');
  });
});
