import type { ShellInput, ShellWord } from './shell-syntax.js';

/**
 * What well-known programs can run beyond their own name: code in another language given inline or on
 * stdin (python -c, perl -e, awk's system(), sed's `e`), a command in an option (tar --to-command, rsync -e,
 * vim -c, git -c …), or a shell script given to a `-c` option (su -c, script -c, watch, trap …). Hidden code
 * is `opaque`: with any deny rule for shell commands it is denied, because no rule can be checked against it.
 */
export interface ProgramRisk {
  readonly opaque?: string;
  readonly innerScripts?: readonly string[];
  readonly dangerous?: string;
}

/** Interpreters of other languages and the flags that take inline code. */
const INTERPRETERS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^python[0-9.]*$|^pypy[0-9.]*$/, /^-[a-zA-Z]*c$/],
  [/^perl[0-9.]*$/, /^-[a-zA-Z]*[eE][a-zA-Z]*$/],
  [/^ruby[0-9.]*$|^irb$/, /^-[a-zA-Z]*e$/],
  [/^node(js)?$|^bun$|^deno$/, /^(-e|--eval|-p|--print|eval|-r|--require|--import)$/],
  [/^php[0-9.]*$/, /^-[rBRE]$/],
  [/^lua[0-9.]*$|^luajit$/, /^-e$/],
  [/^R$|^Rscript$|^julia$|^osascript$|^groovy$|^scala$|^racket$/, /^(-e|-E|--eval)$/],
  [/^pwsh$|^powershell$/, /^-(c|command|encodedcommand|ec|file|f)$/i],
  [
    /^tclsh[0-9.]*$|^wish[0-9.]*$|^expect$|^guile$|^sbcl$|^gdb$/,
    /^(-c|-e|--eval|-ex|-x|--command)$/,
  ],
];

/** Flags are short; a long argument is never a flag (and never reaches a regex that could backtrack). */
function isFlag(value: string | undefined, pattern: RegExp): boolean {
  return value !== undefined && value.length <= 64 && pattern.test(value);
}

/** True when `args` (after the name) name no script file: the program reads code from stdin. */
function readsProgramFromStdin(args: readonly ShellWord[]): boolean {
  for (const arg of args) {
    const value = arg.literal;
    if (value === undefined) return false;
    if (value === '-') return true;
    if (!value.startsWith('-')) return false;
  }
  return true;
}

function interpreterRisk(
  name: string,
  args: readonly ShellWord[],
  stdin: ShellInput | undefined,
): ProgramRisk | undefined {
  const entry = INTERPRETERS.find(([names]) => names.test(name));
  if (!entry) return undefined;
  const [, inline] = entry;
  if (args.some((a) => a.literal === undefined && a === args[0]))
    return { opaque: `${name} with an argument that expands at run time` };
  if (args.some((a) => isFlag(a.literal, inline))) {
    return { opaque: `${name} runs inline code that no shell rule can check` };
  }
  if (readsProgramFromStdin(args)) {
    return {
      opaque: stdin
        ? `${name} runs a program fed on its input`
        : `${name} reads a program from its input`,
    };
  }
  return undefined;
}

/** sed's `e` command and `s///e` flag run shell commands. */
function sedRunsCommands(script: string): boolean {
  for (const raw of script.split(/[;\n]/)) {
    let piece = raw.trim().replace(/^[{}!\s]+/, '');
    // Skip an address: line numbers, $, ranges, /regex/.
    let i = 0;
    while (i < piece.length && /[0-9,$~+!\s]/.test(piece[i]!)) i += 1;
    if (piece[i] === '/') {
      const end = piece.indexOf('/', i + 1);
      i = end === -1 ? piece.length : end + 1;
      while (i < piece.length && /[0-9,$~+!\sI]/.test(piece[i]!)) i += 1;
    }
    piece = piece.slice(i);
    if (/^e(\s|$)/.test(piece)) return true;
    if (piece.startsWith('s') && piece.length > 1) {
      const delimiter = piece[1]!;
      let count = 0;
      let j = 2;
      for (; j < piece.length && count < 2; j += 1) {
        if (piece[j] === '\\') j += 1;
        else if (piece[j] === delimiter) count += 1;
      }
      if (count === 2 && /^[gpiImMw0-9]*e/.test(piece.slice(j))) return true;
    }
  }
  return false;
}

function sedRisk(args: readonly ShellWord[]): ProgramRisk | undefined {
  const scripts: string[] = [];
  let positionalScript = true;
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal;
    if (value === undefined) return { opaque: 'sed with a script that expands at run time' };
    if (value === '-e' || value === '--expression') {
      positionalScript = false;
      scripts.push(args[i + 1]?.literal ?? 'e');
      i += 1;
    } else if (value.startsWith('--expression=')) {
      positionalScript = false;
      scripts.push(value.slice('--expression='.length));
    } else if (value === '-f' || value.startsWith('--file')) {
      return { opaque: 'sed running a script file' };
    } else if (!value.startsWith('-') && positionalScript) {
      scripts.push(value);
      positionalScript = false;
    }
  }
  return scripts.some(sedRunsCommands)
    ? { opaque: "sed's e command runs shell commands" }
    : undefined;
}

function awkRisk(args: readonly ShellWord[]): ProgramRisk | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal;
    if (value === undefined) return { opaque: 'awk with a program that expands at run time' };
    if (value === '-f' || value.startsWith('--file')) return undefined;
    if (/^-[vF]$/.test(value)) {
      i += 1;
      continue;
    }
    if (value.startsWith('-')) continue;
    const print = value.indexOf('print');
    const runs =
      /\bsystem\s*\(/.test(value) ||
      /\|\s*getline/.test(value) ||
      value.includes('|&') ||
      (print !== -1 && value.indexOf('|', print) !== -1);
    return runs ? { opaque: 'awk runs shell commands (system() or a pipe)' } : undefined;
  }
  return undefined;
}

/** git options and subcommands that run commands from their arguments or configuration. */
function gitRisk(args: readonly ShellWord[]): ProgramRisk | undefined {
  let sub: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal;
    if (value === undefined) return sub ? undefined : { opaque: 'git with an option that expands' };
    if (sub === undefined) {
      if (value === '-c' || value.startsWith('-c') || value.startsWith('--config-env')) {
        return { opaque: 'git -c / --config-env can make git run any command' };
      }
      if (/^--(exec-path|git-dir|work-tree|namespace)=?/.test(value)) {
        if (!value.includes('=')) i += 1;
        continue;
      }
      if (value === '-C') {
        i += 1;
        continue;
      }
      if (value.startsWith('-')) continue;
      sub = value;
      continue;
    }
    rest.push(value);
  }
  const has = (pattern: RegExp): boolean => rest.some((v) => pattern.test(v));
  if (
    sub === 'config' &&
    (rest.filter((v) => !v.startsWith('-')).length >= 2 || has(/^--(add|replace-all|edit)$|^-e$/))
  ) {
    return { opaque: 'git config can set a command git runs later (core.pager, aliases, hooks)' };
  }
  if (sub === 'submodule' && rest.includes('foreach')) {
    return { opaque: 'git submodule foreach runs a shell command' };
  }
  if (sub === 'bisect' && rest[0] === 'run') return { opaque: 'git bisect run runs a command' };
  if (sub === 'rebase' && has(/^(-x|--exec)(=|$)/))
    return { opaque: 'git rebase --exec runs a command' };
  if (sub === 'filter-branch' || sub === 'filter-repo')
    return { opaque: `git ${sub} runs filters` };
  if ((sub === 'difftool' || sub === 'mergetool') && has(/^(-x|--extcmd|-t|--tool)(=|$)/)) {
    return { opaque: `git ${sub} runs an external command` };
  }
  if (sub === 'grep' && has(/^(-O|--open-files-in-pager)/))
    return { opaque: 'git grep -O runs a pager' };
  if (has(/^(--upload-pack|--receive-pack|--exec|-u)(=|$)/)) {
    return { opaque: 'git --upload-pack / --receive-pack / --exec runs a command' };
  }
  return undefined;
}

/** Options of common programs that name a command to run. */
const COMMAND_OPTIONS: ReadonlyArray<[RegExp, RegExp, string]> = [
  [
    /^(g?tar|bsdtar)$/,
    /^--(to-command|use-compress-program|checkpoint-action|rsh-command|info-script|new-volume-script)|^-[a-zA-Z]*[IF]/,
    'tar runs the command named in an option',
  ],
  [
    /^rsync$/,
    /^(-e|--rsh|--rsync-path)(=|$)|^-[a-zA-Z]*e/,
    'rsync -e / --rsync-path runs a command',
  ],
  [/^(vim?|nvim|gvim|ex|view|vimdiff)$/, /^(-c|--cmd|-S|\+.+)$/, 'vim -c / + runs editor commands'],
  [/^man$/, /^(-P|--pager|-H|--html)(=|$)/, 'man -P / -H runs a command'],
  [/^zip$/, /^(-TT|--unzip-command)(=|$)/, 'zip -TT runs a command'],
  [/^(scp|sftp)$/, /^-[a-zA-Z]*[SF]|^-o/, `scp -S / -o runs a command`],
  [/^(mapfile|readarray)$/, /^-[a-zA-Z]*C/, 'mapfile -C evaluates a callback'],
  [/^hash$/, /^-[a-zA-Z]*p/, 'hash -p makes a name run another program'],
  [/^enable$/, /^-[a-zA-Z]*[fn]/, 'enable -f / -n changes which builtins run'],
  [/^complete$|^compgen$/, /^-[a-zA-Z]*C/, 'complete -C runs a command'],
];

/** Runs `args` joined as a shell command (watch, fd -x …) from the given index. */
function joined(args: readonly ShellWord[], from: number): string {
  return args
    .slice(from)
    .map((w) => w.text)
    .join(' ');
}

/** `-c script` of su / runuser / sg / script. */
function dashCScript(name: string, args: readonly ShellWord[]): ProgramRisk | undefined {
  const at = args.findIndex((a) => a.literal === '-c' || a.literal === '--command');
  if (at === -1) return undefined;
  const script = args[at + 1]?.literal;
  return script === undefined
    ? { opaque: `${name} -c with a script that expands at run time` }
    : { innerScripts: [script], dangerous: `${name} -c runs a shell script` };
}

/** The risk of a program given its name (basename) and arguments; undefined for an ordinary program. */
export function programRisk(
  name: string,
  args: readonly ShellWord[],
  stdin: ShellInput | undefined,
): ProgramRisk | undefined {
  const interpreter = interpreterRisk(name, args, stdin);
  if (interpreter) return interpreter;
  if (name === 'sed' || name === 'gsed') return sedRisk(args);
  if (/^(g|m|n)?awk$/.test(name)) return awkRisk(args);
  if (name === 'git') return gitRisk(args);
  for (const [names, option, reason] of COMMAND_OPTIONS) {
    if (
      names.test(name) &&
      args.some((a) => a.literal === undefined || isFlag(a.literal, option))
    ) {
      return { opaque: reason };
    }
  }
  if (name === 'alias' && args.some((a) => a.literal !== '-p')) {
    return { opaque: 'alias can make any later command name run something else' };
  }
  if (
    name === 'shopt' &&
    args.some((a) => a.literal === '-s') &&
    args.some(
      (a) => a.literal === undefined || /^(expand_aliases|promptvars|extdebug)$/.test(a.literal),
    )
  ) {
    return { opaque: 'shopt -s changes how later commands are read' };
  }
  if (name === 'trap' || name === 'let') {
    const code = name === 'trap' ? args.find((a) => !a.literal?.startsWith('-')) : undefined;
    if (name === 'let') {
      return args.some((a) => a.literal === undefined || /\$\(|`/.test(a.literal))
        ? { opaque: 'let evaluates a substitution in its arithmetic' }
        : undefined;
    }
    if (code === undefined || args.every((a) => a.literal?.startsWith('-'))) return undefined;
    return code.literal === undefined
      ? { opaque: 'trap with code that expands at run time' }
      : { innerScripts: [code.literal], dangerous: 'trap runs code later' };
  }
  if (name === 'su' || name === 'runuser' || name === 'sg' || name === 'script') {
    return dashCScript(name, args) ?? { opaque: `${name} runs a shell nobody can see` };
  }
  if (name === 'watch') {
    let i = 0;
    while (i < args.length && (args[i]?.literal ?? '').startsWith('-')) {
      i += /^(-n|--interval|-q|--equexit)$/.test(args[i]?.literal ?? '') ? 2 : 1;
    }
    return i < args.length
      ? { innerScripts: [joined(args, i)], dangerous: 'watch runs a command' }
      : undefined;
  }
  if (name === 'fd' || name === 'fdfind') {
    const at = args.findIndex((a) => /^(-x|--exec|-X|--exec-batch)$/.test(a.literal ?? ''));
    return at === -1
      ? undefined
      : { innerScripts: [joined(args, at + 1)], dangerous: 'fd -x runs a command' };
  }
  if (name === 'at' || name === 'batch' || name === 'crontab') {
    return { opaque: `${name} schedules commands nobody can see here` };
  }
  return undefined;
}
