import { describe, expect, it } from 'vitest';
import { PolicyRuleError } from './policy-errors.js';
import { PolicyEngine, type PolicyCheckContext } from './policy-engine.js';
import type { ApprovalMode, PolicyDecision, PolicyRule } from '../core/policy-rule.js';
import { SessionRules } from './session-rules.js';
import { argsHash, stableStringify } from './stable-stringify.js';

const userRules: PolicyRule[] = [
  // Equal priority: the allow is listed first, the deny must still win.
  { toolName: 'write_file', decision: 'allow', priority: 10 },
  { toolName: 'write_file', decision: 'deny', priority: 10, denyMessage: 'No writes here.' },
  // A specific rule above a wildcard.
  { toolName: 'mcp_github_*', decision: 'allow', priority: 5 },
  { toolName: 'mcp_github_delete_repo', decision: 'deny', priority: 6 },
  // A wildcard above a specific rule.
  { toolName: 'custom_*', decision: 'allow', priority: 3 },
  { toolName: 'custom_danger', decision: 'deny', priority: 2 },
  // mcpName: every tool of one server.
  { mcpName: 'slack', toolName: '*', decision: 'deny', priority: 1 },
  // Mode-scoped rule.
  { toolName: 'replace', decision: 'deny', priority: 1, modes: ['auto_edit'] },
  // argsPattern.
  { toolName: 'notes_tool', argsPattern: '"path":"[^"]*\\.md"', decision: 'allow' },
  // Kinds.
  { toolName: '*', kinds: ['delete'], decision: 'deny', priority: 0 },
];

const engine = new PolicyEngine({ rules: userRules });
const bare = new PolicyEngine();

interface Row {
  what: string;
  engine: PolicyEngine;
  name: string;
  args?: Record<string, unknown>;
  ctx?: PolicyCheckContext;
  decision: PolicyDecision;
  source?: string | undefined;
}

const mode = (m: ApprovalMode, kind?: string): PolicyCheckContext => ({
  mode: m,
  ...(kind ? { kind } : {}),
});

const rows: Row[] = [
  // Built-in defaults.
  {
    what: 'read tools run by name',
    engine: bare,
    name: 'read_file',
    decision: 'allow',
    source: 'Default',
  },
  {
    what: 'custom read kind runs',
    engine: bare,
    name: 'my_reader',
    ctx: mode('default', 'read'),
    decision: 'allow',
  },
  {
    what: 'custom search kind runs',
    engine: bare,
    name: 'finder',
    ctx: mode('default', 'search'),
    decision: 'allow',
  },
  {
    what: 'edits ask',
    engine: bare,
    name: 'write_file',
    ctx: mode('default', 'edit'),
    decision: 'ask_user',
  },
  {
    what: 'custom edit kind asks',
    engine: bare,
    name: 'patcher',
    ctx: mode('default', 'edit'),
    decision: 'ask_user',
  },
  {
    what: 'shell asks',
    engine: bare,
    name: 'run_shell_command',
    args: { command: 'ls' },
    decision: 'ask_user',
  },
  { what: 'skills ask', engine: bare, name: 'activate_skill', decision: 'ask_user' },
  {
    what: 'web_fetch asks (named rule beats its kind)',
    engine: bare,
    name: 'web_fetch',
    ctx: mode('default', 'fetch'),
    decision: 'ask_user',
  },
  {
    what: 'unknown tools ask',
    engine: bare,
    name: 'mystery',
    decision: 'ask_user',
    source: undefined,
  },
  { what: 'MCP tools ask', engine: bare, name: 'mcp_x_y', decision: 'ask_user', source: undefined },
  {
    what: 'auto_edit: edits run',
    engine: bare,
    name: 'write_file',
    ctx: mode('auto_edit', 'edit'),
    decision: 'allow',
  },
  {
    what: 'auto_edit: custom edit kind runs',
    engine: bare,
    name: 'patcher',
    ctx: mode('auto_edit', 'edit'),
    decision: 'allow',
  },
  {
    what: 'auto_edit: shell still asks',
    engine: bare,
    name: 'run_shell_command',
    args: { command: 'ls' },
    ctx: mode('auto_edit', 'execute'),
    decision: 'ask_user',
  },
  {
    what: 'yolo: everything runs',
    engine: bare,
    name: 'run_shell_command',
    args: { command: 'rm -rf x' },
    ctx: mode('yolo'),
    decision: 'allow',
  },
  {
    what: 'yolo: unknown tools run',
    engine: bare,
    name: 'mystery',
    ctx: mode('yolo'),
    decision: 'allow',
  },
  {
    what: 'plan: reads run',
    engine: bare,
    name: 'read_file',
    ctx: mode('plan', 'read'),
    decision: 'allow',
  },
  {
    what: 'plan: custom read kind runs',
    engine: bare,
    name: 'my_reader',
    ctx: mode('plan', 'read'),
    decision: 'allow',
  },
  {
    what: 'plan: edits denied',
    engine: bare,
    name: 'write_file',
    ctx: mode('plan', 'edit'),
    decision: 'deny',
  },
  {
    what: 'plan: shell denied',
    engine: bare,
    name: 'run_shell_command',
    args: { command: 'ls' },
    ctx: mode('plan'),
    decision: 'deny',
  },
  {
    what: 'plan: custom execute kind denied',
    engine: bare,
    name: 'deploy',
    ctx: mode('plan', 'execute'),
    decision: 'deny',
  },
  {
    what: 'plan: skills ask',
    engine: bare,
    name: 'activate_skill',
    ctx: mode('plan', 'other'),
    decision: 'ask_user',
  },
  {
    what: 'non-interactive: ask_user tool denied',
    engine: bare,
    name: 'ask_user',
    ctx: { interactive: false },
    decision: 'deny',
  },
  // User rules over defaults and each other.
  {
    what: 'deny beats allow at equal priority',
    engine,
    name: 'write_file',
    ctx: mode('auto_edit', 'edit'),
    decision: 'deny',
    source: 'Code (policy.rules)',
  },
  {
    what: 'mcp wildcard allows a server',
    engine,
    name: 'mcp_github_list_issues',
    decision: 'allow',
  },
  {
    what: 'specific higher-priority deny beats mcp wildcard',
    engine,
    name: 'mcp_github_delete_repo',
    decision: 'deny',
  },
  {
    what: 'mcp wildcard does not leak to other servers',
    engine,
    name: 'mcp_gitlab_list_issues',
    decision: 'ask_user',
  },
  {
    what: 'higher-priority wildcard beats specific',
    engine,
    name: 'custom_danger',
    decision: 'allow',
  },
  {
    what: 'mcpName rule denies the whole server',
    engine,
    name: 'mcp_slack_post_message',
    decision: 'deny',
  },
  {
    what: 'mcpName rule needs that server',
    engine,
    name: 'slack_post_message',
    decision: 'ask_user',
  },
  {
    what: 'mode-scoped rule off in default mode',
    engine,
    name: 'replace',
    ctx: mode('default', 'edit'),
    decision: 'ask_user',
  },
  {
    what: 'mode-scoped rule on in its mode',
    engine,
    name: 'replace',
    ctx: mode('auto_edit', 'edit'),
    decision: 'deny',
  },
  {
    what: 'argsPattern matches',
    engine,
    name: 'notes_tool',
    args: { path: 'a/b.md' },
    decision: 'allow',
  },
  {
    what: 'argsPattern does not match',
    engine,
    name: 'notes_tool',
    args: { path: 'a/b.ts' },
    decision: 'ask_user',
  },
  {
    what: 'user rule beats built-in allow (tier 4 > tier 1)',
    engine,
    name: 'rm_tree',
    ctx: mode('default', 'delete'),
    decision: 'deny',
  },
  {
    what: 'user tier beats yolo allow-all',
    engine,
    name: 'mcp_github_delete_repo',
    ctx: mode('yolo'),
    decision: 'deny',
  },
];

describe('PolicyEngine precedence', () => {
  it.each(rows)('$what', async (row) => {
    const result = await row.engine.check({ name: row.name, args: row.args ?? {} }, row.ctx ?? {});
    expect(result.decision).toBe(row.decision);
    if ('source' in row) expect(result.rule?.source).toBe(row.source);
  });

  it('gives the deciding rule and its deny message', async () => {
    const result = await engine.check({ name: 'write_file', args: {} }, { kind: 'edit' });
    expect(result).toMatchObject({ decision: 'deny', denyMessage: 'No writes here.' });
    expect(result.rule?.priority).toBeCloseTo(4.01);
    const plan = await bare.check({ name: 'write_file', args: {} }, { kind: 'edit', mode: 'plan' });
    expect(plan.denyMessage).toMatch(/^You are in Plan Mode with access to read-only tools/);
  });

  it('uses the engine mode when the check gives none', async () => {
    const yolo = new PolicyEngine({ mode: 'yolo' });
    expect((await yolo.check({ name: 'mystery', args: {} })).decision).toBe('allow');
  });

  it('without the defaults, everything unmatched asks', async () => {
    const none = new PolicyEngine({ defaults: false });
    expect((await none.check({ name: 'read_file', args: {} }, { kind: 'read' })).decision).toBe(
      'ask_user',
    );
  });

  it('session rules sit above the defaults but below user rules', async () => {
    const session = new SessionRules([
      { toolName: 'write_file', decision: 'allow' },
      { toolName: 'activate_skill', decision: 'allow' },
    ]);
    expect(
      (await bare.check({ name: 'write_file', args: {} }, { sessionRules: session })).decision,
    ).toBe('allow');
    expect(
      (await engine.check({ name: 'write_file', args: {} }, { sessionRules: session })).decision,
    ).toBe('deny');
    const skill = await engine.check(
      { name: 'activate_skill', args: {} },
      { sessionRules: session },
    );
    expect(skill.rule?.source).toBe('Session (always allow)');
    expect(skill.rule?.priority).toBeCloseTo(3.95);
  });

  it('explain() names the deciding rule or the built-in default', async () => {
    const byRule = await engine.explain({ name: 'mcp_github_delete_repo', args: {} });
    expect(byRule.decidedBy).toContain('deny mcp_github_delete_repo');
    expect(byRule.decidedBy).toContain('Code (policy.rules)');
    const byDefault = await bare.explain({ name: 'mystery', args: {} });
    expect(byDefault.decidedBy).toBe('built-in default (no rule matched: ask_user)');
    const shell = await bare.explain({
      name: 'run_shell_command',
      args: { command: 'ls && rm x' },
    });
    expect(shell.steps.map((s) => s.command)).toEqual(['ls', 'rm x']);
  });
});

describe('rule validation', () => {
  const bad: Array<[string, PolicyRule, RegExp]> = [
    ['empty toolName', { toolName: '', decision: 'allow' }, /toolName must not be empty/],
    ['bad decision', { toolName: 'x', decision: 'maybe' as 'allow' }, /decision/],
    [
      'priority out of range',
      { toolName: 'x', decision: 'allow', priority: 1000 },
      /between 0 and 999/,
    ],
    [
      'unknown field',
      { toolName: 'x', decision: 'allow', comandPrefix: 'ls' } as PolicyRule,
      /comandPrefix/,
    ],
    [
      'prefix on another tool',
      { toolName: 'write_file', commandPrefix: 'ls', decision: 'allow' },
      /run_shell_command/,
    ],
    [
      'prefix with argsPattern',
      { toolName: 'run_shell_command', commandPrefix: 'ls', argsPattern: 'x', decision: 'allow' },
      /cannot be combined with argsPattern/,
    ],
    ['invalid regex', { toolName: 'x', argsPattern: '(', decision: 'allow' }, /invalid regex/],
    [
      'nested quantifier',
      { toolName: 'x', argsPattern: '(a+)+$', decision: 'allow' },
      /nests quantifiers/,
    ],
  ];

  it.each(bad)('%s → PolicyRuleError naming the rule', (_what, rule, message) => {
    const make = () => new PolicyEngine({ rules: [{ toolName: 'ok', decision: 'allow' }, rule] });
    expect(make).toThrow(PolicyRuleError);
    expect(make).toThrow(/rule #2/);
    expect(make).toThrow(message);
  });

  it('accepts gemini-cli mode spelling', async () => {
    const e = new PolicyEngine({
      rules: [{ toolName: 'x', decision: 'deny', modes: ['autoEdit'] }],
    });
    expect((await e.check({ name: 'x', args: {} }, { mode: 'auto_edit' })).decision).toBe('deny');
  });
});

describe('stableStringify / argsHash', () => {
  it('sorts keys, drops undefined and wraps top-level pairs in NUL', () => {
    const text = stableStringify({ b: { y: 1, x: [1, undefined] }, a: 'v', c: undefined });
    expect(text).toBe('{\0"a":"v"\0,\0"b":{"x":[1,null],"y":1}\0}');
  });

  it('hashes independently of key order and changes with any value', () => {
    expect(argsHash({ a: 1, b: { c: 2, d: 3 } })).toBe(argsHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(argsHash({ a: 1 })).not.toBe(argsHash({ a: 2 }));
    expect(argsHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
