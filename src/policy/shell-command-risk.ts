import { programRisk } from './shell-programs.js';
import type { ShellAssignment, ShellCommand, ShellWord } from './shell-syntax.js';
import { PREFIX_WRAPPERS, skipWrapperOptions } from './shell-wrappers.js';

/**
 * What a simple command can do beyond its own name:
 * - `innerScripts`: commands it runs for you (`env X=1 rm x` runs `rm x`; `bash -c 'a; b'` runs `a; b`;
 *   `bash <<< 'a'` runs `a`); each is checked like a command of its own;
 * - `opaque`: it runs code nobody can see statically (`eval "$x"`, `source f`, `bash script.sh`, `$CMD`,
 *   `python -c …`, `alias`, `GIT_PAGER=$x git log` …): at least ask, and denied whenever a deny rule for
 *   shell commands exists (no rule can be checked against code nobody can see);
 * - `wrapper` / `dangerous`: at least ask unless a rule that names this command allows it explicitly.
 */
export interface CommandRisk {
  /** The command's name as written, when it is fixed (`ls`, `/usr/bin/env`). */
  readonly root: string | undefined;
  readonly innerScripts: readonly string[];
  readonly opaque: string | undefined;
  readonly wrapper: string | undefined;
  readonly dangerous: string | undefined;
}

const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'yash',
  'posh',
  'rbash',
  'csh',
  'tcsh',
]);

/** Commands that run code passed as text, or from files, that we cannot see. */
const OPAQUE = new Set(['eval', 'source', '.', 'parallel', 'ssh', 'fc']);

/** Variables whose value is a command some program runs (`GIT_PAGER='rm x' git log`). */
const COMMAND_VARIABLES = new Set([
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
  'FCEDIT',
  'PROMPT_COMMAND',
  'TERMINAL',
  'RSYNC_RSH',
]);

/** Variables that make a shell or program load code from elsewhere, or change how names resolve. */
const CODE_VARIABLES = new Set([
  'BASH_ENV',
  'ENV',
  'BASH_ALIASES',
  'BASH_CMDS',
  'SHELLOPTS',
  'BASHOPTS',
  'PS0',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'LD_PRELOAD',
  'LD_AUDIT',
  'GCONV_PATH',
  'BASH_LOADABLES_PATH',
  'NODE_OPTIONS',
  'PERL5OPT',
  'RUBYOPT',
  'PYTHONSTARTUP',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_EXEC_PATH',
  'TAR_OPTIONS',
  'ZDOTDIR',
]);

function basename(name: string): string {
  const cut = name.lastIndexOf('/');
  return cut === -1 ? name : name.slice(cut + 1);
}

function joinText(words: readonly ShellWord[]): string {
  return words.map((w) => w.text).join(' ');
}

/** Risk of the assignments a command makes: commands hidden in variables, code loaded through them. */
export function assignmentRisk(bindings: readonly ShellAssignment[]): {
  innerScripts: string[];
  opaque: string | undefined;
} {
  const innerScripts: string[] = [];
  let opaque: string | undefined;
  for (const { name, value } of bindings) {
    if (COMMAND_VARIABLES.has(name)) {
      if (value === undefined) opaque ??= `${name} is set to a command that expands at run time`;
      else if (value !== '') innerScripts.push(value);
    } else if (
      CODE_VARIABLES.has(name) ||
      name.startsWith('BASH_FUNC_') ||
      name.startsWith('GIT_CONFIG_')
    ) {
      opaque ??= `${name} makes programs load code nobody can see here`;
    }
  }
  return { innerScripts, opaque };
}

/** `bash -c 'script'` → the script; `bash <<< 'script'` → the script; `bash file` / `bash` (stdin) → opaque. */
function shellScript(
  args: readonly ShellWord[],
  stdinText: string | undefined,
  hasStdin: boolean,
): { script: string } | { opaque: string } {
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal;
    if (value === undefined)
      return { opaque: 'a shell started with arguments that expand at run time' };
    if (value.length <= 64 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) {
      const script = args[i + 1]?.literal;
      return script === undefined
        ? { opaque: 'a shell running a script that expands at run time' }
        : { script };
    }
    if (value === '-o' || value === '+o' || value === '-O' || value === '+O') {
      i += 1;
      continue;
    }
    if (value === '--rcfile' || value === '--init-file') {
      return { opaque: `a shell reading ${value} ${args[i + 1]?.text ?? ''}` };
    }
    if (value === '-' || value === '-s' || value === '--') break;
    if (/^[-+]/.test(value)) continue;
    return { opaque: `a shell running the script file ${value}` };
  }
  if (stdinText !== undefined) return { script: stdinText };
  return {
    opaque: hasStdin
      ? 'a shell reading commands fed on its input'
      : 'a shell reading commands from its input',
  };
}

/** `find … -exec cmd {} ;` → the commands; `-delete` / `-fprint…` → dangerous. */
function findRisk(args: readonly ShellWord[]): {
  scripts: string[];
  dangerous: string | undefined;
} {
  const scripts: string[] = [];
  let dangerous: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal ?? '';
    if (/^-(exec|execdir|ok|okdir)$/.test(value)) {
      const end = args.findIndex((w, j) => j > i && (w.literal === ';' || w.literal === '+'));
      const stop = end === -1 ? args.length : end;
      scripts.push(joinText(args.slice(i + 1, stop)));
      dangerous ??= `find ${value} runs another command`;
      i = stop;
    } else if (/^-(delete|fls|fprint|fprint0|fprintf)$/.test(value)) {
      dangerous ??= `find ${value} deletes or writes files`;
    }
  }
  return { scripts, dangerous };
}

function rmRisk(args: readonly ShellWord[]): string | undefined {
  const forced = args.some((a) => /^-[a-zA-Z]*[fF]|^--force$/.test((a.literal ?? '').slice(0, 64)));
  return forced ? 'rm -f deletes without asking' : undefined;
}

const SAFE: CommandRisk = {
  root: undefined,
  innerScripts: [],
  opaque: undefined,
  wrapper: undefined,
  dangerous: undefined,
};

/** What running this simple command can do beyond its own name. */
export function commandRisk(command: ShellCommand): CommandRisk {
  const assigned = assignmentRisk(command.bindings);
  const base = commandRiskOf(command);
  if (assigned.innerScripts.length === 0 && assigned.opaque === undefined) return base;
  return {
    ...base,
    innerScripts: [...base.innerScripts, ...assigned.innerScripts],
    opaque: base.opaque ?? assigned.opaque,
    wrapper:
      base.wrapper ?? (assigned.innerScripts.length > 0 ? 'a variable names a command' : undefined),
  };
}

function commandRiskOf(command: ShellCommand): CommandRisk {
  if (command.type === 'declaration') {
    return command.words.some((w) => w.literal === undefined)
      ? { ...SAFE, opaque: 'a declaration whose names expand at run time' }
      : SAFE;
  }
  if (command.type !== 'command') return SAFE;
  const [nameWord, ...args] = command.words;
  const root = nameWord?.literal;
  if (root === undefined || root === '') {
    return { ...SAFE, opaque: 'the command name expands at run time (or is a glob)' };
  }
  const name = basename(root);
  const base = { ...SAFE, root };
  if (
    SHELLS.has(name) ||
    ((name === 'busybox' || name === 'toybox') && SHELLS.has(args[0]?.literal ?? ''))
  ) {
    const shellArgs = name === 'busybox' || name === 'toybox' ? args.slice(1) : args;
    const inner = shellScript(shellArgs, command.stdin?.text, command.stdin !== undefined);
    return 'script' in inner
      ? { ...base, wrapper: `${name} runs another script`, innerScripts: [inner.script] }
      : { ...base, opaque: inner.opaque };
  }
  if (OPAQUE.has(name)) {
    if (name === 'eval' && args.every((a) => a.literal !== undefined)) {
      const script = args.map((a) => a.literal).join(' ');
      return { ...base, wrapper: 'eval runs its arguments as a script', innerScripts: [script] };
    }
    return { ...base, opaque: `${name} runs code that is not visible here` };
  }
  if (name === 'find') {
    const risk = findRisk(args);
    return { ...base, innerScripts: risk.scripts, dangerous: risk.dangerous };
  }
  if (
    name === 'rg' &&
    args.some((a) =>
      /^(--pre|--pre-glob|--hostname-bin|-z|--search-zip)/.test((a.literal ?? '').slice(0, 64)),
    )
  ) {
    return { ...base, opaque: 'rg --pre / -z runs helper programs' };
  }
  if (name === 'rm') return { ...base, dangerous: rmRisk(args) };
  if (PREFIX_WRAPPERS[name]) {
    if (name === 'command' && args.some((a) => a.literal === '-v' || a.literal === '-V'))
      return base;
    const skipped = skipWrapperOptions(name, args);
    if ('opaque' in skipped) return { ...base, opaque: skipped.opaque };
    const rest = args.slice(skipped.index);
    const dangerous =
      name === 'sudo' || name === 'doas' || name === 'pkexec'
        ? `${name} runs a command as another user`
        : undefined;
    const envBindings =
      name === 'env'
        ? args
            .slice(0, skipped.index)
            .map((a) => a.literal ?? '')
            .filter((v) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(v))
            .map((v) => ({ name: v.slice(0, v.indexOf('=')), value: v.slice(v.indexOf('=') + 1) }))
        : [];
    const assigned = assignmentRisk(envBindings);
    if (rest.length === 0) return { ...base, dangerous, opaque: assigned.opaque };
    return {
      ...base,
      wrapper: `${name} runs another command`,
      innerScripts: [joinText(rest), ...assigned.innerScripts],
      opaque: assigned.opaque,
      dangerous,
    };
  }
  const program = programRisk(name, args, command.stdin);
  if (program) {
    return {
      ...base,
      opaque: program.opaque,
      innerScripts: program.innerScripts ?? [],
      wrapper: program.innerScripts?.length ? `${name} runs another command` : undefined,
      dangerous: program.dangerous,
    };
  }
  return base;
}
