/**
 * Shell rule evasion: a deny rule for `rm` must hold against every way of spelling, hiding or feeding the
 * command, in every approval mode — yolo included (yolo skips asking, never a deny). Each form runs for
 * real: through `run_shell_command` in a yolo agent and through `ctx.shell` in yolo; the victim file must
 * survive, and the engine must say `deny` in every mode.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z } from '../../src/index.js';
import { createCommandCheck } from '../../src/policy/command-check.js';
import { PolicyEngine } from '../../src/policy/index.js';
import { SessionRules } from '../../src/policy/session-rules.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { createWorkspace } from '../../src/workspace/workspace.js';

const DENY_RM = {
  toolName: 'run_shell_command',
  commandPrefix: 'rm',
  decision: 'deny' as const,
  priority: 100,
  denyMessage: 'No rm.',
};

/** Every form removes the file `victim` if it runs. */
const EVASIONS: Array<[string, string]> = [
  ['plain (control)', 'rm victim'],
  ['line continuation inside the name', 'r\\\nm victim'],
  ['line continuation in a wrapped script', "bash -c 'r\\\nm victim'"],
  ['alias with expand_aliases', 'shopt -s expand_aliases\nalias x=rm\nx victim'],
  ['alias on one line', 'shopt -s expand_aliases; alias x=rm; x victim'],
  ['ANSI-C quoting', "$'rm' victim"],
  ['ANSI-C hex escape', "$'\\x72m' victim"],
  ['ANSI-C octal escape', "$'\\162m' victim"],
  ['ANSI-C unicode escape', "$'\\u0072m' victim"],
  ['expansion after the name', 'rm$u victim'],
  ['expansion before the name', '${e}rm victim'],
  ['name from two variables', 'a=r; b=m; $a$b victim'],
  ['name from a variable', 'x=rm; $x victim'],
  ['name from a command substitution', '$(echo rm) victim'],
  ['name from backticks', '`echo rm` victim'],
  ['glob in the name (bracket)', '/bin/r[m] victim'],
  ['glob in the name (question mark)', '/bin/r? victim'],
  ['glob in the name (star)', '/bin/r* victim'],
  ['brace expansion', '{rm,victim}'],
  ['here-string to bash', "bash <<< 'rm victim'"],
  ['echo piped to sh', "echo 'rm victim' | sh"],
  ['printf piped to bash', "printf 'rm victim' | bash"],
  ['cat of a file piped to sh', 'cat script.sh | sh'],
  ['quoted heredoc to bash', "bash <<'EOF'\nrm victim\nEOF"],
  ['heredoc to bash', 'bash <<EOF\nrm victim\nEOF'],
  ['sh -c', "sh -c 'rm victim'"],
  ['bash -c with $0', 'bash -c \'rm "$0"\' victim'],
  ['bash running a script file', 'bash script.sh'],
  ['BASH_ENV', 'BASH_ENV=script.sh bash -c true'],
  ['eval literal', "eval 'rm victim'"],
  ['eval of a variable', 'x="rm victim"; eval "$x"'],
  ['source /dev/stdin', "source /dev/stdin <<< 'rm victim'"],
  ['dot /dev/stdin', ". /dev/stdin <<< 'rm victim'"],
  ['source of a process substitution', 'source <(echo rm victim)'],
  ['quotes split the name', '"r""m" victim'],
  ['empty quotes inside the name', "r''m victim"],
  ['backslash in the name', 'r\\m victim'],
  ['leading backslash', '\\rm victim'],
  ['absolute path', '/bin/rm victim'],
  ['path with ..', '/usr/bin/../bin/rm victim'],
  ['command', 'command rm victim'],
  ['exec', 'exec rm victim'],
  ['exec -a', 'exec -a other rm victim'],
  ['env', 'env rm victim'],
  ['env with options and variables', 'env -i PATH=/usr/bin:/bin X=1 rm victim'],
  ['env -S', "env -S 'rm victim'"],
  ['nohup', 'nohup rm victim'],
  ['nice', 'nice -n 5 rm victim'],
  ['timeout', 'timeout 5 rm victim'],
  ['stdbuf', 'stdbuf -o0 rm victim'],
  ['time', 'time rm victim'],
  ['xargs', 'echo victim | xargs rm'],
  ['xargs with sh -c', "echo victim | xargs -I{} sh -c 'rm {}'"],
  ['find -exec', 'find . -name victim -exec rm {} \\;'],
  ['sudo', 'sudo rm victim'],
  ['busybox applet', 'busybox rm victim'],
  ['strace', 'strace -f -o /dev/null rm victim'],
  ['subshell', '(rm victim)'],
  ['group', '{ rm victim; }'],
  ['after &&', 'true && rm victim'],
  ['after ||', 'false || rm victim'],
  ['background', 'rm victim &'],
  ['negated', '! rm victim'],
  ['if body', 'if true; then rm victim; fi'],
  ['function body', 'f() { rm victim; }; f'],
  ['process substitution', 'cat <(rm victim)'],
  ['command substitution in an argument', 'echo $(rm victim)'],
  ['command substitution in an assignment', 'x=$(rm victim)'],
  ['trap', "trap 'rm victim' EXIT"],
  ['tab after the name', 'rm\tvictim'],
  ['python -c', 'python3 -c \'import os; os.system("rm victim")\''],
  ['perl -e', 'perl -e \'system("rm victim")\''],
  ['awk system()', 'awk \'BEGIN { system("rm victim") }\''],
  ['sed e command', "sed -n '1e rm victim' keep.txt"],
  ['GIT_PAGER in front of git', "GIT_PAGER='rm victim' git -p log"],
  [
    'tar checkpoint action',
    "tar -cf /dev/null keep.txt --checkpoint=1 --checkpoint-action=exec='rm victim'",
  ],
  ['hash -p', 'hash -p /bin/rm ls; ls victim'],
  ['script -c', "script -qc 'rm victim' /dev/null"],
  ['symlinked binary under another name', 'ln -s /bin/rm ./del; ./del victim'],
  ['copied binary under another name', 'cp /bin/rm ./del && ./del victim'],
  ['installed binary under another name', 'install /usr/bin/rm ./del; ./del victim'],
];

let base: string;
beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'shell-evasion-'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function arena(label: string): string {
  const dir = mkdtempSync(path.join(base, `${label.replace(/\W+/g, '-').slice(0, 30)}-`));
  writeFileSync(path.join(dir, 'victim'), 'alive');
  writeFileSync(path.join(dir, 'keep.txt'), 'keep\n');
  writeFileSync(path.join(dir, 'script.sh'), 'rm victim\n');
  return dir;
}

const engine = new PolicyEngine({ rules: [DENY_RM] });

describe('a deny rule for rm', () => {
  it('covers at least 40 evasion forms', () => {
    expect(EVASIONS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(EVASIONS)('is decided deny in every mode: %s', async (_label, command) => {
    for (const mode of ['default', 'auto_edit', 'yolo', 'plan'] as const) {
      const result = await engine.check(
        { name: 'run_shell_command', args: { command } },
        { mode, kind: 'execute' },
      );
      expect(result.decision, `${mode}: ${command}`).toBe('deny');
    }
  });

  it.each(EVASIONS)('never runs through ctx.shell in yolo: %s', async (label, command) => {
    const cwd = arena(label);
    const workspace = createWorkspace({
      cwd,
      commandCheck: createCommandCheck(engine, { mode: 'yolo', sessionRules: new SessionRules() }),
    });
    const result = await workspace.shell.exec(command, { timeoutSeconds: 10 });
    expect(result.error?.message).toMatch(/denied by policy/);
    expect(existsSync(path.join(cwd, 'victim'))).toBe(true);
  });

  it('never runs through run_shell_command in a yolo agent (all forms, one turn)', async () => {
    const cwd = arena('agent');
    const model = new ScriptedModel([
      callTurn(
        ...EVASIONS.map(([, command]) => ({ name: 'run_shell_command', args: { command } })),
      ),
      textTurn('done'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      policy: { mode: 'yolo', rules: [DENY_RM] },
    }).session();
    for await (const event of session.sendStream('go')) void event;
    expect(existsSync(path.join(cwd, 'victim'))).toBe(true);
  });
});

describe("the developer's own ctx.shell (allowed unless a written rule says otherwise)", () => {
  it('still cannot evade an explicit deny rule, in yolo and default mode', async () => {
    for (const mode of ['yolo', 'default'] as const) {
      const cwd = arena(`dev-${mode}`);
      const refused: string[] = [];
      const runAll = tool(
        { name: 'run_all', description: 'runs scripts', inputSchema: z.object({}) },
        async (_args, ctx) => {
          for (const [, command] of EVASIONS) {
            const result = await ctx.shell.exec(command, { timeoutSeconds: 10 });
            if (result.error) refused.push(command);
          }
          return 'done';
        },
      );
      const model = new ScriptedModel([callTurn({ name: 'run_all' }), textTurn('done')]);
      const session = new GeminiCliAgent({
        contentGenerator: model,
        retry: false,
        cwd,
        skillDiscovery: false,
        tools: [runAll],
        policy: { mode, rules: [DENY_RM] },
      }).session();
      for await (const event of session.sendStream('go')) void event;
      expect(existsSync(path.join(cwd, 'victim')), mode).toBe(true);
      expect(refused).toHaveLength(EVASIONS.length);
    }
  });
});

describe('a name that is not a plain literal never rides on an allow rule', () => {
  const allowLs = new PolicyEngine({
    rules: [{ toolName: 'run_shell_command', commandPrefix: ['ls', 'echo'], decision: 'allow' }],
  });
  it.each(['l$u', '${x}ls', "$'ls'x", 'l?', '/bin/l[s]', '$(echo ls)', '{ls,-la}'])(
    '%j asks instead of running',
    async (name) => {
      const result = await allowLs.check({
        name: 'run_shell_command',
        args: { command: `${name} .` },
      });
      expect(result.decision).toBe('ask_user');
    },
  );

  it('honest commands still run: ls, echo, and wrapped forms a rule names', async () => {
    for (const command of ['ls -la', "echo 'hi there'", 'ls src | wc -l']) {
      const rules = [
        {
          toolName: 'run_shell_command',
          commandPrefix: ['ls', 'echo', 'wc'],
          decision: 'allow' as const,
        },
      ];
      const result = await new PolicyEngine({ rules }).check({
        name: 'run_shell_command',
        args: { command },
      });
      expect(result.decision, command).toBe('allow');
    }
  });
});
