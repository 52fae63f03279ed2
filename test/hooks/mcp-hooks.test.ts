import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, hook, type HookInput } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { everythingStdio } from '../mcp/helpers/mcp-servers.js';
import { drain } from './helpers.js';

describe('hooks on MCP tools', () => {
  it('get mcp_context (server, tool, where the server is) and match on mcp_<server>_<tool>', async () => {
    const before: Array<HookInput<'BeforeTool'>> = [];
    const after: Array<HookInput<'AfterTool'>> = [];
    const server = everythingStdio({ trust: true });
    const agent = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        callTurn({ name: 'mcp_everything_echo', args: { message: 'hi' } }),
        textTurn('ok'),
      ]),
      cwd: realpathSync(mkdtempSync(join(tmpdir(), 'mcp-hooks-'))),
      trustWorkspace: true,
      builtinTools: false,
      persist: false,
      settings: false,
      retry: false,
      mcpServers: { everything: server },
      hooks: [
        hook({ event: 'BeforeTool', name: 'seen', matcher: '^mcp_everything_' }, (input) => {
          before.push(input);
        }),
        hook({ event: 'AfterTool', name: 'done' }, (input) => {
          after.push(input);
        }),
      ],
    });
    try {
      await drain(agent.session().sendStream('echo hi'));
    } finally {
      await agent.close();
    }
    const context = {
      server_name: 'everything',
      tool_name: 'echo',
      command: server.command,
      args: server.args,
    };
    expect(before.map((i) => [i.tool_name, i.mcp_context])).toEqual([
      ['mcp_everything_echo', context],
    ]);
    expect(after[0]?.mcp_context).toEqual(context);
    expect(JSON.stringify(after[0]?.tool_response.llmContent)).toContain('hi');
  });
});
