import { describe, expect, it } from 'vitest';
import { PolicyEngine } from './policy-engine.js';
import type { ApprovalMode } from '../core/policy-rule.js';
import { loadBashParser } from './bash-parser.js';
import { rootCommands } from './shell-check.js';

const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });

const defaults = new PolicyEngine();
const lsAllowed = new PolicyEngine({
  rules: [{ toolName: 'run_shell_command', commandPrefix: 'ls', decision: 'allow' }],
});
const rmDenied = new PolicyEngine({
  rules: [
    { toolName: 'run_shell_command', commandPrefix: ['ls', 'echo', 'cat'], decision: 'allow' },
    {
      toolName: 'run_shell_command',
      commandPrefix: 'rm',
      decision: 'deny',
      priority: 100,
      denyMessage: 'No rm.',
    },
  ],
});

/** Commands that smuggle `rm x` (or another command) past a rule for `ls`. */
const HOSTILE = [
  'ls && rm x',
  'ls; rm x',
  'ls || rm x',
  'ls | rm x',
  'ls & rm x',
  'ls\nrm x',
  'ls\r\nrm x',
  'echo $(rm x)',
  'ls $(rm x)',
  'ls `rm x`',
  'ls`rm x`',
  'echo `rm x`',
  'ls "$(rm x)"',
  'ls ${x:-$(rm x)}',
  'ls $((1 + $(rm x)))',
  'ls <(rm x)',
  'ls >(rm x)',
  'ls <<< "$(rm x)"',
  'ls <<EOF\n$(rm x)\nEOF',
  '(rm x)',
  '(ls; rm x)',
  '{ rm x; }',
  '{ ls; rm x; }',
  'bash -c "rm x"',
  "sh -c 'rm x'",
  "ls; bash -lc 'rm x'",
  'ls > x',
  'ls >> x',
  'ls &> x',
  'ls > /etc/passwd',
  'ls < /etc/shadow',
  'find . -delete',
  'find . -exec rm {} \\;',
  'find . -execdir rm {} +',
  'env rm x',
  'env -i FOO=1 rm x',
  'xargs rm',
  'ls | xargs rm',
  'eval rm x',
  'eval "$CMD"',
  'sudo rm -rf /',
  'nohup rm x',
  'time rm x',
  'time ls',
  'exec rm x',
  'command rm x',
  'timeout 5 rm x',
  'nice -n 5 rm x',
  'source ./evil.sh',
  '. ./evil.sh',
  'ls; X=1',
  'PATH=. ls',
  'LD_PRELOAD=/tmp/x.so ls',
  'export PATH=.; ls',
  '$CMD x',
  '"$CMD" x',
  'ls"x"',
  'ls\u3000rm x',
  'ls\\ -la',
  '/bin/ls; rm x',
  'ls() { rm x; }; ls',
  'if true; then rm x; fi',
  'for f in *; do rm "$f"; done',
  'while true; do rm x; done',
  'case x in x) rm x;; esac',
  '[[ -f x ]] && rm x',
  'ls ${x@P}',
  'ls "unterminated',
  'ls $(',
  '{rm,x}',
  'bash',
  'bash evil.sh',
  'git -c core.pager="rm x" log',
  'rg --pre ./evil pattern',
  'coproc rm x',
  '! rm x',
];

describe('hostile shell commands', () => {
  it(`has at least 30 of them (${HOSTILE.length})`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE)('%j is not allowed under the default policy', async (command) => {
    expect((await defaults.check(shell(command))).decision).not.toBe('allow');
  });

  it.each(HOSTILE)('%j does not ride on an allow rule for ls', async (command) => {
    const result = await lsAllowed.check(shell(command));
    expect(result.decision, JSON.stringify(result)).not.toBe('allow');
  });

  it.each(['ls', 'ls -la src', 'ls -la   src/', 'ls 2>&1', 'ls | ls', 'ls && ls -l', 'ls\nls'])(
    '%j is allowed by the ls rule',
    async (command) => {
      expect((await lsAllowed.check(shell(command))).decision).toBe('allow');
    },
  );

  it('plain ls still asks under the default policy', async () => {
    expect((await defaults.check(shell('ls'))).decision).toBe('ask_user');
  });
});

describe('deny rules reach every part of a command', () => {
  const smuggled = [
    'rm x',
    'ls && rm x',
    'echo $(rm x)',
    'echo `rm x`',
    'cat <(rm x)',
    '(rm x)',
    '{ rm x; }',
    'bash -c "rm x"',
    "sh -c 'ls; rm x'",
    'bash -c "sh -c \'rm x\'"',
    'env rm x',
    'sudo rm x',
    'xargs rm',
    'find . -exec rm {} \\;',
    'eval rm x',
    'eval "rm x"',
    'nohup rm x &',
    'r\\m x',
    "'rm' x",
  ];

  it.each(smuggled)('%j is denied with the rule message', async (command) => {
    const result = await rmDenied.check(shell(command));
    expect(result.decision).toBe('deny');
    expect(result.denyMessage).toBe('No rm.');
  });

  it.each(smuggled.slice(0, 12))('%j is denied in yolo mode too', async (command) => {
    expect((await rmDenied.check(shell(command), { mode: 'yolo' })).decision).toBe('deny');
  });

  it('allowed parts alone are allowed', async () => {
    expect((await rmDenied.check(shell('ls -la && echo hi | cat'))).decision).toBe('allow');
  });
});

describe('redirection, modes and parse failures', () => {
  const check = (engine: PolicyEngine, command: string, mode?: ApprovalMode) =>
    engine.check(shell(command), mode ? { mode } : {});

  it('redirection turns allow into ask, explaining why', async () => {
    const result = await check(lsAllowed, 'ls > out.txt');
    expect(result).toMatchObject({
      decision: 'ask_user',
      note: 'the command redirects to or from a file',
    });
  });

  it('allowRedirection on the rule, auto_edit and yolo keep redirection allowed', async () => {
    const engine = new PolicyEngine({
      rules: [
        {
          toolName: 'run_shell_command',
          commandPrefix: 'ls',
          decision: 'allow',
          allowRedirection: true,
        },
      ],
    });
    expect((await check(engine, 'ls > out.txt')).decision).toBe('allow');
    expect((await check(lsAllowed, 'ls > out.txt', 'auto_edit')).decision).toBe('allow');
    expect((await check(defaults, 'ls > out.txt', 'yolo')).decision).toBe('allow');
  });

  it('an explicit rule for a wrapper lets it run when the wrapped command is allowed too', async () => {
    const engine = new PolicyEngine({
      rules: [{ toolName: 'run_shell_command', commandPrefix: ['env', 'ls'], decision: 'allow' }],
    });
    expect((await check(engine, 'env FOO=1 ls -la')).decision).toBe('allow');
    expect((await check(engine, 'env FOO=1 rm x')).decision).toBe('ask_user');
  });

  it('a blanket shell allow still asks for wrappers and dangerous commands', async () => {
    const engine = new PolicyEngine({
      rules: [{ toolName: 'run_shell_command', decision: 'allow' }],
    });
    expect((await check(engine, 'rm x')).decision).toBe('allow');
    expect((await check(engine, 'rm -rf x')).decision).toBe('ask_user');
    expect((await check(engine, 'find . -delete')).decision).toBe('ask_user');
    expect((await check(engine, 'bash -c "rm x"')).decision).toBe('ask_user');
    expect((await check(engine, 'eval "$X"')).decision).toBe('ask_user');
  });

  it('an args rule that does not name commands does not let wrappers through', async () => {
    const engine = new PolicyEngine({
      rules: [
        { toolName: 'run_shell_command', argsPattern: '"dir_path":"/safe"', decision: 'allow' },
      ],
    });
    const inSafe = (command: string) =>
      engine.check({ name: 'run_shell_command', args: { command, dir_path: '/safe' } });
    expect((await inSafe('rm x')).decision).toBe('allow');
    expect((await inSafe('rm -rf x')).decision).toBe('ask_user');
    expect((await inSafe('sh -c "rm x"')).decision).toBe('ask_user');
  });

  it('a command that does not parse asks, and denies when a rule denies the whole text', async () => {
    expect((await check(lsAllowed, 'ls "oops')).note).toMatch(/could not be parsed/);
    expect((await check(rmDenied, 'rm x "oops')).decision).toBe('deny');
  });

  it('yolo allows an unparsable command only when no deny rule could apply (then it is denied)', async () => {
    expect((await check(defaults, 'ls "oops', 'yolo')).decision).toBe('allow');
    expect((await check(rmDenied, 'ls; rm -rf / "', 'yolo')).decision).toBe('deny');
    expect((await check(rmDenied, 'ls; rm -rf / "', 'default')).decision).toBe('deny');
  });

  it('deeply nested wrappers ask', async () => {
    let command = 'ls';
    for (let i = 0; i < 8; i += 1) command = `bash -c ${JSON.stringify(command)}`;
    const engine = new PolicyEngine({
      rules: [{ toolName: 'run_shell_command', commandPrefix: ['bash', 'ls'], decision: 'allow' }],
    });
    expect((await check(engine, 'bash -c "bash -c ls"')).decision).toBe('allow');
    expect((await check(engine, command)).decision).toBe('ask_user');
  });
});

describe('rootCommands', () => {
  it('lists every command name, wrapped ones included', async () => {
    const parser = await loadBashParser();
    expect(rootCommands('ls -la && git log | wc -l', parser)).toEqual(['ls', 'git', 'wc']);
    expect(rootCommands('env FOO=1 rm x', parser)).toEqual(['env', 'rm']);
    expect(rootCommands('bash -c "ls; cat x"', parser)).toEqual(['bash', 'ls', 'cat']);
    expect(rootCommands('$CMD x', parser)).toEqual([]);
    expect(rootCommands('ls "oops', parser)).toEqual([]);
  });
});
