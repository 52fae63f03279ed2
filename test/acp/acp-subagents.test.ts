import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subagent } from '../../src/index.js';
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

const reader = () =>
  subagent({
    name: 'reader',
    description: 'Reads files',
    instructions: 'Read what you are told.',
    tools: ['read_file'],
  });

describe('ACP server: subagents', () => {
  it("a subagent's tool calls are tool calls of the turn, with _meta.subagent naming it and the parent call", async () => {
    await writeFile(join(project.cwd, 'notes.txt'), 'the notes\n');
    const model = new ScriptedModel([
      callTurn({
        name: 'invoke_agent',
        id: 'p1',
        args: { agent_name: 'reader', prompt: 'Read notes.txt' },
      }),
      callTurn({ name: 'read_file', id: 'r1', args: { file_path: 'notes.txt' } }),
      callTurn({ name: 'complete_task', id: 'c1', args: { result: 'the notes' } }),
      textTurn('They say "the notes".'),
    ]);
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      subagents: [reader()],
    });
    harnesses.push(h);
    const { sessionId } = await h.newSession();
    expect((await h.prompt(sessionId, 'What do the notes say?')).stopReason).toBe('end_turn');
    const updates = h.client.of(sessionId) as Array<Record<string, unknown>>;
    const parent = updates.find(
      (u) => u['sessionUpdate'] === 'tool_call' && String(u['toolCallId']).endsWith('p1'),
    );
    expect(parent).toBeDefined();
    const parentId = parent?.['toolCallId'];
    const inner = updates.filter((u) => String(u['toolCallId'] ?? '').endsWith('r1'));
    expect(inner.map((u) => [u['sessionUpdate'], u['status']])).toEqual([
      ['tool_call', 'in_progress'],
      ['tool_call_update', 'completed'],
    ]);
    expect(inner[0]).toMatchObject({
      kind: 'read',
      rawInput: { file_path: 'notes.txt' },
      _meta: { subagent: { agentName: 'reader', parentToolCallId: parentId } },
    });
    expect(inner[1]?.['_meta']).toEqual(inner[0]?.['_meta']);
    // The subagent's words stay inside it: the session's message is the parent's answer.
    const text = updates
      .filter((u) => u['sessionUpdate'] === 'agent_message_chunk')
      .map((u) => (u['content'] as { text: string }).text)
      .join('');
    expect(text).toBe('They say "the notes".');
    const parentDone = updates.find(
      (u) =>
        u['toolCallId'] === parentId &&
        u['sessionUpdate'] === 'tool_call_update' &&
        u['status'] === 'completed',
    );
    expect(parentDone).toBeDefined();
    model.assertComplete();
  });

  it("a subagent's call that needs approval is asked with session/request_permission, then the run goes on", async () => {
    const writer = subagent({
      name: 'writer',
      description: 'Writes files',
      instructions: 'Write what you are told.',
      tools: ['write_file'],
    });
    const model = new ScriptedModel([
      callTurn({
        name: 'invoke_agent',
        id: 'p1',
        args: { agent_name: 'writer', prompt: 'Write out.txt' },
      }),
      callTurn({ name: 'write_file', id: 'w1', args: { file_path: 'out.txt', content: 'hi\n' } }),
      callTurn({ name: 'complete_task', id: 'c1', args: { result: 'written' } }),
      textTurn('Done.'),
    ]);
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      subagents: [writer],
    });
    harnesses.push(h);
    const { sessionId } = await h.newSession();
    expect((await h.prompt(sessionId, 'Write it')).stopReason).toBe('end_turn');
    model.assertComplete();
    expect(h.client.permissionRequests).toHaveLength(1);
    const [asked] = h.client.permissionRequests;
    expect(String(asked?.toolCall.toolCallId)).toMatch(/w1$/);
    expect(asked?.toolCall._meta).toMatchObject({ subagent: { agentName: 'writer' } });
    expect(await readFile(join(project.cwd, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});
