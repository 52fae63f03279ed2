import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../logger.js';
import { PolicyRuleError } from './policy-errors.js';
import type { PolicyEngine } from './policy-engine.js';
import { loadPolicyFiles, parsePolicyToml } from './policy-file.js';
import { createPolicyEngine } from './policy-options.js';

const fixtures = fileURLToPath(new URL('../../test/fixtures/policy/', import.meta.url));
const valid = path.join(fixtures, 'valid');
const malformed = (name: string) => path.join(fixtures, 'malformed', name);

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug() {},
    info() {},
    error() {},
    warn: (message) => void warnings.push(message),
  };
}

describe('gemini-cli TOML policy files', () => {
  let engine: PolicyEngine;
  const logger = recordingLogger();

  beforeAll(async () => {
    engine = await createPolicyEngine(
      { files: [valid, { path: path.join(fixtures, 'admin'), tier: 'admin' }] },
      {
        logger,
      },
    );
  });

  it('loads every *.toml of a directory, in name order, skipping other files', async () => {
    const sources = await loadPolicyFiles([valid]);
    expect(sources.map((s) => path.basename(s.origin.file ?? ''))).toEqual([
      'mcp.toml',
      'read-only.toml',
      'shell.toml',
      'write.toml',
      'yolo.toml',
    ]);
    expect(sources[2]?.origin.source).toBe(`User: ${path.join(valid, 'shell.toml')}`);
  });

  it('warns about the parts it ignores (safety checkers)', () => {
    expect(
      logger.warnings.some((w) => w.includes('yolo.toml') && w.includes('safety_checker')),
    ).toBe(true);
    expect(logger.warnings.some((w) => w.includes('write.toml') && w.includes('rule #2'))).toBe(
      true,
    );
  });

  const cases: Array<[string, Record<string, unknown>, object, string]> = [
    ['run_shell_command', { command: 'git status --short' }, {}, 'allow'],
    ['run_shell_command', { command: 'ls -la' }, {}, 'allow'],
    ['run_shell_command', { command: 'npm test > out.log' }, {}, 'allow'],
    ['run_shell_command', { command: 'git push' }, {}, 'ask_user'],
    ['run_shell_command', { command: 'ls && rm -f x' }, {}, 'deny'],
    ['run_shell_command', { command: 'git log -5' }, {}, 'deny'],
    ['run_shell_command', { command: 'git push' }, { interactive: false }, 'deny'],
    ['run_shell_command', { command: 'ls' }, { interactive: false }, 'allow'],
    ['write_file', { file_path: 'a.txt' }, { mode: 'auto_edit' }, 'allow'],
    ['write_file', { file_path: 'a.txt' }, {}, 'ask_user'],
    ['mcp_github_list_issues', {}, {}, 'allow'],
    ['mcp_github_delete_repo', {}, {}, 'deny'],
    ['mcp_jira_search', {}, { toolAnnotations: { readOnlyHint: true } }, 'allow'],
    ['mcp_jira_create', {}, { toolAnnotations: { readOnlyHint: false } }, 'ask_user'],
    ['mcp_jira_create', {}, { mode: 'yolo' }, 'allow'],
  ];

  it.each(cases)('%s %j %j → %s', async (name, args, ctx, decision) => {
    expect((await engine.check({ name, args }, ctx)).decision).toBe(decision);
  });

  it('keeps deny messages (and the deprecated deny_message alias)', async () => {
    const rm = await engine.check({ name: 'run_shell_command', args: { command: 'rm x' } });
    expect(rm.denyMessage).toBe('Deleting files is not allowed.');
    expect(rm.rule?.source).toBe(`User: ${path.join(valid, 'shell.toml')}`);
    const admin = await engine.check({ name: 'run_shell_command', args: { command: 'git log' } });
    expect(admin.denyMessage).toBe('Admins forbid git log.');
    expect(admin.rule?.priority).toBe(5);
  });
});

describe('malformed policy files', () => {
  const bad: Array<[string, number | undefined, RegExp]> = [
    ['missing-priority.toml', 1, /rule #2 in .*missing-priority\.toml: priority/],
    ['bad-decision.toml', 0, /rule #1 in .*bad-decision\.toml: decision/],
    [
      'prefix-wrong-tool.toml',
      1,
      /rule #2 in .*prefix-wrong-tool\.toml: commandPrefix and commandRegex need/,
    ],
    [
      'prefix-and-args.toml',
      0,
      /rule #1 in .*prefix-and-args\.toml: .*cannot be combined with argsPattern/,
    ],
    ['bad-regex.toml', 0, /rule #1 \("broken pattern"\) in .*bad-regex\.toml: invalid regex/],
    ['unknown-key.toml', 0, /rule #1 in .*unknown-key\.toml: .*comandPrefix/],
    ['priority-range.toml', 0, /rule #1 in .*priority-range\.toml: priority/],
    [
      'empty-toolname.toml',
      0,
      /rule #1 in .*empty-toolname\.toml: toolName: toolName must not be empty/,
    ],
    ['syntax.toml', undefined, /Invalid TOML in policy file .*syntax\.toml/],
    [
      'rule-not-table.toml',
      undefined,
      /Invalid policy file .*rule-not-table\.toml: rule: rule must be an array/,
    ],
  ];

  it.each(bad)('%s is refused, naming the file and the rule', async (file, ruleIndex, message) => {
    const error = await loadPolicyFiles([malformed(file)]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PolicyRuleError);
    const policyError = error as PolicyRuleError;
    expect(policyError.message).toMatch(message);
    expect(policyError.file).toBe(malformed(file));
    expect(policyError.ruleIndex).toBe(ruleIndex);
    expect(policyError.code).toBe('POLICY_CONFIG');
  });

  it('a missing path is a typed error too', async () => {
    await expect(loadPolicyFiles(['does-not-exist.toml'], { cwd: fixtures })).rejects.toThrow(
      /Policy file or directory not found: .*does-not-exist\.toml/,
    );
  });

  it('expands a leading ~/ to the home directory', async () => {
    const error = await loadPolicyFiles(['~/no-such-policy-dir-h5.toml']).catch((e: unknown) => e);
    expect((error as PolicyRuleError).file).toBe(
      path.join(homedir(), 'no-such-policy-dir-h5.toml'),
    );
  });

  it('createPolicyEngine refuses a bad option and a bad rule in code', async () => {
    await expect(createPolicyEngine({ mode: 'fast' as 'yolo' })).rejects.toThrow(
      /Invalid policy option: mode/,
    );
    await expect(
      createPolicyEngine({ rules: [{ toolName: 'x', decision: 'nope' as 'allow' }] }),
    ).rejects.toThrow(/rule #1/);
  });
});

describe('policy files in a temp directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'policy-file-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves relative paths against cwd and supports a single file', async () => {
    await writeFile(
      path.join(dir, 'one.toml'),
      '[[rule]]\ntoolName = "deploy"\ndecision = "deny"\npriority = 5\nmodes = ["default", "autoEdit"]\n',
    );
    const engine = await createPolicyEngine({ files: ['one.toml'] }, { cwd: dir });
    expect((await engine.check({ name: 'deploy', args: {} })).decision).toBe('deny');
    expect((await engine.check({ name: 'deploy', args: {} }, { mode: 'auto_edit' })).decision).toBe(
      'deny',
    );
    expect((await engine.check({ name: 'deploy', args: {} }, { mode: 'yolo' })).decision).toBe(
      'allow',
    );
  });

  it('parsePolicyToml accepts text directly', () => {
    const source = parsePolicyToml(
      '[[rule]]\ntoolName = ["a", "b"]\ndecision = "allow"\npriority = 0\n',
      'inline.toml',
    );
    expect(source.rules).toEqual([{ toolName: ['a', 'b'], decision: 'allow', priority: 0 }]);
  });
});
