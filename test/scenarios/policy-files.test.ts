/**
 * gemini-cli TOML policy files through the public API: `policy.files` load and decide, malformed files fail the
 * first `initialize()` / `sendStream()` with an error naming the file and the rule, bad rules in code fail at
 * `agent.session()`, and `session.policy.explain` names the deciding rule.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, PolicyRuleError, type GeminiCliAgentOptions } from '../../src/index.js';
import { createPolicyEngine } from '../../src/policy/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, readOrNull, responsesSentToModel, tempWorkspace } from './policy-helpers.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/policy/${name}`, import.meta.url));

function agentWith(model: ScriptedModel, cwd: string, options: GeminiCliAgentOptions) {
  return new GeminiCliAgent({
    contentGenerator: model,
    retry: false,
    cwd,
    skillDiscovery: false,
    ...options,
  });
}

describe('policy.files', () => {
  it('a TOML file in the workspace loads (relative to cwd) and decides', async () => {
    const cwd = await tempWorkspace('toml');
    await writeFile(
      path.join(cwd, 'policy.toml'),
      [
        '[[rule]]',
        'name = "no secrets"',
        'toolName = "write_file"',
        'argsPattern = \'"file_path":"secret\'',
        'decision = "deny"',
        'priority = 500',
        'denyMessage = "Secrets are read-only."',
        '',
        '[[rule]]',
        'toolName = "write_file"',
        'decision = "allow"',
        'priority = 100',
      ].join('\n'),
    );
    const model = new ScriptedModel([
      callTurn(
        { name: 'write_file', args: { file_path: 'notes.txt', content: 'fine' } },
        { name: 'write_file', args: { file_path: 'secret.txt', content: 'leak' } },
      ),
      textTurn('done'),
    ]);
    const session = agentWith(model, cwd, { policy: { files: ['policy.toml'] } }).session();
    await drain(session.sendStream('write'));
    expect(await readOrNull(path.join(cwd, 'notes.txt'))).toBe('fine');
    expect(await readOrNull(path.join(cwd, 'secret.txt'))).toBeNull();
    expect(responsesSentToModel(model, 1)[1]).toEqual({
      name: 'write_file',
      response: { error: 'Tool execution denied by policy. Secrets are read-only.' },
    });

    const why = await session.policy.explain({
      name: 'write_file',
      args: { file_path: 'secret.txt', content: 'x' },
    });
    expect(why.decision).toBe('deny');
    expect(why.rule?.name).toBe('no secrets');
    expect(why.rule?.source).toContain(path.join(cwd, 'policy.toml'));
    expect(why.decidedBy).toContain('"no secrets"');
  });

  it('the spec-derived fixture directories load; the admin tier beats the user tier', async () => {
    const cwd = await tempWorkspace('fixtures');
    const session = agentWith(new ScriptedModel([]), cwd, {
      policy: { files: [fixture('valid'), { path: fixture('admin'), tier: 'admin' }] },
    }).session();
    await session.initialize();
    const gitLog = await session.policy.explain({
      name: 'run_shell_command',
      args: { command: 'git log' },
    });
    expect(gitLog.decision).toBe('deny');
    expect(gitLog.denyMessage).toBe('Admins forbid git log.');
    const gitStatus = await session.policy.explain({
      name: 'run_shell_command',
      args: { command: 'git status' },
    });
    expect(gitStatus.decision).toBe('allow');
    expect(gitStatus.decidedBy).toContain('shell.toml');
  });

  it('a malformed file fails initialize() and sendStream() with the file and the rule', async () => {
    const cwd = await tempWorkspace('malformed');
    const file = fixture('malformed/bad-regex.toml');
    const model = new ScriptedModel([textTurn('never')]);
    const agent = agentWith(model, cwd, { policy: { files: [file] } });
    const session = agent.session();
    const error = await session.initialize().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PolicyRuleError);
    expect((error as PolicyRuleError).file).toBe(file);
    expect((error as PolicyRuleError).ruleIndex).toBe(0);
    expect((error as Error).message).toMatch(/rule #1 \("broken pattern"\) in .*bad-regex\.toml/);
    await expect(drain(agent.session().sendStream('hi'))).rejects.toThrow(/bad-regex\.toml/);
    expect(model.generateRequests).toHaveLength(0);
  });

  it('a missing file is a PolicyRuleError naming the path', async () => {
    const cwd = await tempWorkspace('missing');
    const session = agentWith(new ScriptedModel([]), cwd, {
      policy: { files: ['nope.toml'] },
    }).session();
    await expect(session.initialize()).rejects.toThrow(
      new RegExp(`not found: ${path.join(cwd, 'nope.toml').replace(/[/\\.]/g, '\\$&')}`),
    );
  });

  it('a bad rule in code fails at agent.session(), naming the rule', () => {
    const agent = new GeminiCliAgent({
      policy: {
        rules: [
          { toolName: 'read_file', decision: 'allow' },
          { name: 'typo', toolName: 'write_file', decision: 'allow', argsPattern: '(' },
        ],
      },
    });
    expect(() => agent.session()).toThrow(PolicyRuleError);
    expect(() => agent.session()).toThrow(/rule #2 \("typo"\)/);
  });

  it('createPolicyEngine decides the same way outside an agent', async () => {
    const engine = await createPolicyEngine({ files: [fixture('valid')] });
    const result = await engine.explain({
      name: 'run_shell_command',
      args: { command: 'rm -rf x' },
    });
    expect(result.decision).toBe('deny');
    expect(result.denyMessage).toBe('Deleting files is not allowed.');
  });
});
