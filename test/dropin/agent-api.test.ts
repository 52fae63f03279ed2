/**
 * Reference-style code that must compile and behave unchanged: `agent.sendStream`, the narrow `AgentFilesystem` /
 * `AgentShell` interfaces users mock, and approval handlers written without `as const`. The type-level checks
 * here fail `npm run typecheck` when they break.
 */
import { describe, expect, it } from 'vitest';
import {
  GeminiCliAgent,
  tool,
  z,
  type AgentFilesystem,
  type AgentShell,
  type AgentShellResult,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
  type SessionContext,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

async function drain(stream: AsyncIterable<ServerGeminiStreamEvent>): Promise<string> {
  let text = '';
  for await (const event of stream) if (event.type === 'content') text += event.value;
  return text;
}

describe('agent.sendStream (the reference examples call it on the agent)', () => {
  it('runs a one-shot session per call and closes it, also when the consumer stops early', async () => {
    const seen: string[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'whoami', args: {} }),
      textTurn('first'),
      textTurn('second'),
      textTurn('third'),
    ]);
    const whoami = tool(
      { name: 'whoami', description: 'Session id', inputSchema: z.object({}) },
      async (_params, ctx) => {
        seen.push(ctx.sessionId);
        return ctx.sessionId;
      },
    );
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      builtinTools: false,
      tools: [whoami],
    });
    expect(await drain(agent.sendStream('one'))).toBe('first');
    expect(await drain(agent.sendStream('two'))).toBe('second');
    // Each call is its own conversation: the second request holds only its own prompt.
    expect(model.generateRequests[2]?.contents).toHaveLength(1);

    for await (const event of agent.sendStream('three')) {
      if (event.type === 'content') break;
    }
    const sessions = await agent.listSessions();
    expect(sessions).toHaveLength(3);
    expect(sessions.map((s) => s.sessionId)).toContain(seen[0]);
    // Closed: every one of them can be resumed right away (no lease is held).
    for (const s of sessions) await (await agent.resumeSession(s.sessionId)).close();
  });
});

describe('types users write against the reference', () => {
  it('a two-method AgentFilesystem mock and an exec-only AgentShell mock type-check and work', async () => {
    const files = new Map<string, string>([['notes.txt', 'hello']]);
    const fs: AgentFilesystem = {
      readFile: async (p) => files.get(p) ?? null,
      writeFile: async (p, content) => {
        files.set(p, content);
      },
    };
    const result: AgentShellResult = { exitCode: 0, output: 'ok\n', stdout: 'ok\n', stderr: '' };
    const shell: AgentShell = { exec: async () => result };
    const withStart: AgentShell = {
      exec: async () => result,
      start: async () => {
        throw new Error('not in this mock');
      },
    };
    const shout = tool(
      {
        name: 'shout',
        description: 'Upper-cases a file',
        inputSchema: z.object({ path: z.string() }),
      },
      async ({ path }, ctx) => {
        const text = await ctx.fs.readFile(path);
        await ctx.fs.writeFile(path, (text ?? '').toUpperCase());
        return (await ctx.shell.exec('true')).output;
      },
    );
    // A test calling the action with a context built from the mocks (the reference's SessionContext shape).
    const ctx = { fs, shell, sessionId: 's', cwd: '/', timestamp: '', transcript: [] };
    expect(await shout.action({ path: 'notes.txt' }, ctx as unknown as SessionContext)).toBe(
      'ok\n',
    );
    expect(files.get('notes.txt')).toBe('HELLO');
    expect(typeof withStart.start).toBe('function');
  });

  it('onApproval: async () => "allow" (no as const), also through an options variable', async () => {
    const options = { onApproval: async () => 'allow' };
    const inline: GeminiCliAgentOptions = { onApproval: async () => 'allow' };
    const conditional: GeminiCliAgentOptions = {
      onApproval: async (request) => (request.toolName === 'write_file' ? 'allow' : 'deny'),
    };
    const sync: GeminiCliAgentOptions = {
      onApproval: () => ({ decision: 'deny', message: 'No.' }),
    };
    const model = new ScriptedModel([
      callTurn({ name: 'run_shell_command', args: { command: 'echo approved' } }),
      textTurn('done'),
    ]);
    const agent = new GeminiCliAgent({
      ...options,
      contentGenerator: model,
      skillDiscovery: false,
    });
    const events: ServerGeminiStreamEvent[] = [];
    for await (const event of agent.sendStream('run it')) events.push(event);
    const response = events.find((e) => e.type === 'tool_call_response');
    expect(response?.type === 'tool_call_response' && response.value.error).toBeUndefined();
    expect([inline, conditional, sync].every((o) => typeof o.onApproval === 'function')).toBe(true);
  });

  it('an onApproval answer that is not a decision fails with a clear error', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'run_shell_command', args: { command: 'echo hi' } }),
      textTurn('done'),
    ]);
    const agent = new GeminiCliAgent({
      onApproval: async () => 'yes please',
      contentGenerator: model,
      skillDiscovery: false,
    });
    await expect(drain(agent.sendStream('run it'))).rejects.toThrow(
      /onApproval returned "yes please"; return 'allow', 'allow_always', 'deny'/,
    );
  });
});
