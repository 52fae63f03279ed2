/**
 * Approval modes through the public API: yolo runs edits, plan is read-only, auto_edit runs edits but not shell
 * commands, and a session's mode can change between messages.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, GeminiCliAgent, tool, z, type ApprovalMode } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, readOrNull, responsesSentToModel, tempWorkspace } from './policy-helpers.js';

function writeCall(file: string, content: string) {
  return callTurn({ name: 'write_file', args: { file_path: file, content } });
}

/** gemini-cli's answer to a call of a tool it does not offer. */
const notFound = (name: string) =>
  expect.stringMatching(new RegExp(`^Tool "${name}" not found\\.`));

describe('approval modes', () => {
  it('yolo runs write_file and run_shell_command without asking', async () => {
    const cwd = await tempWorkspace('yolo');
    const model = new ScriptedModel([
      writeCall('y.txt', 'yolo'),
      callTurn({ name: 'run_shell_command', args: { command: 'echo ran > shell.txt' } }),
      textTurn('done'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: { mode: 'yolo' },
    }).session();
    await drain(session.sendStream('go'));
    expect(await readOrNull(path.join(cwd, 'y.txt'))).toBe('yolo');
    expect(await readOrNull(path.join(cwd, 'shell.txt'))).toBe('ran\n');
    expect(session.approvalMode).toBe('yolo');
  });

  it('plan mode hides write_file and custom non-read tools (as gemini-cli) and still reads', async () => {
    const cwd = await tempWorkspace('plan');
    await writeFile(path.join(cwd, 'r.txt'), 'readable');
    let custom = 0;
    const mutate = tool({ name: 'mutate', description: 'm', inputSchema: z.object({}) }, () =>
      String(++custom),
    );
    const look = tool(
      { name: 'look', description: 'l', inputSchema: z.object({}), kind: 'read' },
      () => 'looked',
    );
    const model = new ScriptedModel([
      callTurn(
        { name: 'read_file', args: { file_path: 'r.txt' } },
        { name: 'write_file', args: { file_path: 'w.txt', content: 'no' } },
        { name: 'mutate' },
        { name: 'look' },
      ),
      textTurn('planned'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      tools: [mutate, look],
      policy: { mode: 'plan' },
      onApproval: () => 'allow',
    }).session();
    await drain(session.sendStream('plan it'));
    expect(await readOrNull(path.join(cwd, 'w.txt'))).toBeNull();
    expect(custom).toBe(0);
    expect(responsesSentToModel(model, 1)).toEqual([
      { name: 'read_file', response: { output: 'readable' } },
      { name: 'write_file', response: { error: notFound('write_file') } },
      { name: 'mutate', response: { error: notFound('mutate') } },
      { name: 'look', response: { output: 'looked' } },
    ]);
  });

  it('auto_edit runs edits, while shell commands still ask (headless: not offered)', async () => {
    const cwd = await tempWorkspace('auto-edit');
    const model = new ScriptedModel([
      callTurn(
        { name: 'write_file', args: { file_path: 'e.txt', content: 'edited' } },
        { name: 'run_shell_command', args: { command: 'touch marker' } },
      ),
      textTurn('done'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: { mode: 'auto_edit' },
    }).session();
    await drain(session.sendStream('go'));
    expect(await readOrNull(path.join(cwd, 'e.txt'))).toBe('edited');
    expect(await readOrNull(path.join(cwd, 'marker'))).toBeNull();
    expect(responsesSentToModel(model, 1)[1]).toEqual({
      name: 'run_shell_command',
      response: { error: notFound('run_shell_command') },
    });
  });

  it('setApprovalMode changes the decisions of the next calls', async () => {
    const cwd = await tempWorkspace('switch');
    const model = new ScriptedModel([
      writeCall('first.txt', '1'),
      textTurn('denied'),
      writeCall('second.txt', '2'),
      textTurn('written'),
      writeCall('third.txt', '3'),
      textTurn('planned'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
    }).session();
    expect(session.approvalMode).toBe('default');
    await drain(session.sendStream('one'));
    session.setApprovalMode('yolo');
    await drain(session.sendStream('two'));
    session.setApprovalMode('plan');
    await drain(session.sendStream('three'));
    expect(await readOrNull(path.join(cwd, 'first.txt'))).toBeNull();
    expect(await readOrNull(path.join(cwd, 'second.txt'))).toBe('2');
    expect(await readOrNull(path.join(cwd, 'third.txt'))).toBeNull();
    expect(responsesSentToModel(model, 5)).toEqual([
      { name: 'write_file', response: { error: notFound('write_file') } },
    ]);
    expect(() => session.setApprovalMode('reckless' as ApprovalMode)).toThrow(ConfigurationError);
  });
});
