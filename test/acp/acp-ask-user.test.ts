import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
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

describe('ACP server: ask_user', () => {
  it('is not offered, even when the agent has onAskUser (gemini 0.61 excludes it under ACP)', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'ask_user', args: { questions: [{ question: 'Which?', header: 'Pick' }] } }),
      textTurn('went on'),
    ]);
    const asked: unknown[] = [];
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      trustWorkspace: true,
      settings: false,
      onAskUser: (request) => {
        asked.push(request);
        return Promise.resolve({ answers: {} });
      },
    });
    harnesses.push(h);
    const { sessionId } = await h.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [],
    });
    expect((await h.prompt(sessionId, 'ask me')).stopReason).toBe('end_turn');
    const declared = (model.generateRequests[0]?.config?.tools ?? []).flatMap((t) =>
      'functionDeclarations' in t ? (t.functionDeclarations ?? []).map((d) => d.name) : [],
    );
    expect(declared.length).toBeGreaterThan(0);
    expect(declared).not.toContain('ask_user');
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toMatch(
      /Tool \\"ask_user\\" not found/,
    );
    expect(asked).toEqual([]);
    expect(h.client.permissionRequests).toEqual([]);
  });
});
