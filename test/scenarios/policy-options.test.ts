/**
 * The agent's policy options through the public API: validation with typed errors, a policy file fixed after a
 * failed load, and a session's policy state (snapshot / restore / subscribe) for persisting it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  PolicyRuleError,
  type ApprovalHandler,
  type ApprovalsMode,
  type PolicyOptions,
} from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, readOrNull, tempWorkspace } from './policy-helpers.js';

describe('policy options', () => {
  it.each([
    [
      'approvals',
      { approvals: 'later' as ApprovalsMode },
      /approvals: expected 'ask' or 'pause', got "later"/,
    ],
    [
      'onApproval',
      { onApproval: 'yes' as unknown as ApprovalHandler },
      /onApproval: expected a function/,
    ],
    [
      'policy.mode',
      { policy: { mode: 'fast' } as unknown as PolicyOptions },
      /policy\.mode: Invalid option/,
    ],
    [
      'policy key',
      { policy: { rule: [] } as unknown as PolicyOptions },
      /policy: Unrecognized key: "rule"/,
    ],
  ])('a bad %s is a ConfigurationError from the constructor', (_name, options, message) => {
    expect(() => new GeminiCliAgent(options)).toThrow(ConfigurationError);
    expect(() => new GeminiCliAgent(options)).toThrow(message);
  });

  it('a policy file fixed after a failed load is read on the next try', async () => {
    const cwd = await tempWorkspace('retry');
    const file = path.join(cwd, 'rules.toml');
    await writeFile(file, '[[rule]]\ntoolName = "write_file"\ndecision = "allow"\n');
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'w.txt', content: 'ok' } }),
      textTurn('done'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: { files: [file] },
    }).session();
    await expect(session.initialize()).rejects.toThrow(PolicyRuleError);
    await writeFile(file, '[[rule]]\ntoolName = "write_file"\ndecision = "allow"\npriority = 1\n');
    await drain(session.sendStream('write'));
    expect(await readOrNull(path.join(cwd, 'w.txt'))).toBe('ok');
  });

  it("a session's policy state can be saved and restored into another session", async () => {
    const cwd = await tempWorkspace('state');
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'a.txt', content: 'a' } }),
      textTurn('done'),
      callTurn({ name: 'write_file', args: { file_path: 'b.txt', content: 'b' } }),
      textTurn('done'),
    ]);
    let asked = 0;
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      onApproval: () => (++asked === 1 ? 'allow_always' : 'deny'),
    });
    const first = agent.session();
    let changes = 0;
    const unsubscribe = first.policy.subscribe(() => changes++);
    first.setApprovalMode('auto_edit');
    first.setApprovalMode('default');
    await drain(first.sendStream('write a'));
    unsubscribe();
    expect(changes).toBe(3);
    const saved = JSON.parse(JSON.stringify(first.policy.snapshot())) as ReturnType<
      typeof first.policy.snapshot
    >;
    expect(saved.rules).toHaveLength(1);

    const second = agent.session();
    second.policy.restore(saved);
    await drain(second.sendStream('write b'));
    expect(asked).toBe(1);
    expect(await readOrNull(path.join(cwd, 'b.txt'))).toBe('b');
    expect(second.approvalLog.map((e) => [e.decision, e.by])).toEqual([
      ['allow_always', 'user'],
      ['allow', 'rule'],
    ]);
  });
});
