import type { ShellCommand, ShellWord } from './shell-syntax.js';

/**
 * What a simple command can do beyond its own name:
 * - `innerScripts`: commands it runs for you (`env X=1 rm x` runs `rm x`; `bash -c 'a; b'` runs `a; b`); each is
 *   checked like a command of its own;
 * - `opaque`: it runs code nobody can see statically (`eval "$x"`, `source f`, `bash script.sh`, `git -c
 *   core.pager=…`, `$CMD`): always at least ask;
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
]);

/** Wrappers that take options and then a command: option letters that take a value, per wrapper. */
const PREFIX_WRAPPERS: Readonly<
  Record<string, { valued: readonly string[]; positional?: number }>
> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-a', '--argv0'] },
  sudo: {
    valued: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R', '--user', '--group'],
  },
  doas: { valued: ['-u', '-C'] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  builtin: { valued: [] },
  coproc: { valued: [] },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  exec: { valued: ['-a'] },
  command: { valued: [] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  chroot: { valued: ['--userspec', '--groups'], positional: 1 },
  taskset: { valued: [], positional: 1 },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positional: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  xargs: {
    valued: [
      '-a',
      '-d',
      '-E',
      '-e',
      '-I',
      '-i',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
    ],
  },
};

/** Commands that run code passed as text, or from files, that we cannot see. */
const OPAQUE = new Set([
  'eval',
  'source',
  '.',
  'su',
  'parallel',
  'script',
  'watch',
  'trap',
  'ssh',
  'fc',
]);

function basename(name: string): string {
  const cut = name.lastIndexOf('/');
  return cut === -1 ? name : name.slice(cut + 1);
}

function joinText(words: readonly ShellWord[]): string {
  return words.map((w) => w.text).join(' ');
}

/** Skips a prefix wrapper's options; returns the index of the wrapped command, or an opaque reason. */
function skipOptions(
  name: string,
  args: readonly ShellWord[],
): { index: number } | { opaque: string } {
  const spec = PREFIX_WRAPPERS[name];
  if (!spec) return { index: 0 };
  let i = 0;
  let positional = spec.positional ?? 0;
  while (i < args.length) {
    const value = args[i]?.literal;
    if (value === undefined) return { opaque: `${name} with an argument that expands at run time` };
    if (value === '--') return { index: i + 1 + positional };
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      i += 1;
      continue;
    }
    if (value.startsWith('-') && value !== '-') {
      if (name === 'env' && /^(-S|--split-string)/.test(value))
        return { opaque: 'env -S splits a string into a command' };
      if (name === 'sudo' && /^-[a-zA-Z]*[sie]/.test(value))
        return { opaque: 'sudo running a shell or an editor' };
      const option = value.includes('=') ? value.slice(0, value.indexOf('=')) : value;
      i += spec.valued.includes(option) && !value.includes('=') ? 2 : 1;
      continue;
    }
    if (name === 'nice' && /^-\d+$/.test(value)) {
      i += 1;
      continue;
    }
    if (positional > 0) {
      positional -= 1;
      i += 1;
      continue;
    }
    return { index: i };
  }
  return { index: args.length };
}

/** `bash -c 'script'` → the script; `bash file` / `bash` (stdin) → opaque. */
function shellScript(args: readonly ShellWord[]): { script: string } | { opaque: string } {
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]?.literal;
    if (value === undefined)
      return { opaque: 'a shell started with arguments that expand at run time' };
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) {
      const script = args[i + 1]?.literal;
      return script === undefined
        ? { opaque: 'a shell running a script that expands at run time' }
        : { script };
    }
    if (value === '-o' || value === '+o' || value === '-O' || value === '+O') {
      i += 1;
      continue;
    }
    if (/^[-+]/.test(value)) continue;
    return { opaque: `a shell running the script file ${value}` };
  }
  return { opaque: 'a shell reading commands from its input' };
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

function gitRisk(args: readonly ShellWord[]): string | undefined {
  for (const arg of args) {
    const value = arg.literal;
    if (value === undefined) return undefined;
    if (value === '-c' || value.startsWith('--config-env') || value.startsWith('-c')) {
      return 'git -c / --config-env can make git run any command';
    }
    if (!value.startsWith('-')) return undefined;
  }
  return undefined;
}

function rmRisk(args: readonly ShellWord[]): string | undefined {
  const forced = args.some((a) => /^-[a-zA-Z]*[fF]|^--force$/.test(a.literal ?? ''));
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
  if (command.type !== 'command') return SAFE;
  const [nameWord, ...args] = command.words;
  const root = nameWord?.literal;
  if (root === undefined || root === '') {
    return { ...SAFE, opaque: 'the command name expands at run time' };
  }
  const name = basename(root);
  const base = { ...SAFE, root };
  if (SHELLS.has(name) || (name === 'busybox' && SHELLS.has(args[0]?.literal ?? ''))) {
    const shellArgs = name === 'busybox' ? args.slice(1) : args;
    const inner = shellScript(shellArgs);
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
  if (name === 'git') return { ...base, opaque: gitRisk(args) };
  if (
    name === 'rg' &&
    args.some((a) => /^(--pre|--pre-glob|--hostname-bin|-z|--search-zip)/.test(a.literal ?? ''))
  ) {
    return { ...base, opaque: 'rg --pre / -z runs helper programs' };
  }
  if (name === 'rm') return { ...base, dangerous: rmRisk(args) };
  if (PREFIX_WRAPPERS[name]) {
    if (name === 'command' && args.some((a) => a.literal === '-v' || a.literal === '-V'))
      return base;
    const skipped = skipOptions(name, args);
    if ('opaque' in skipped) return { ...base, opaque: skipped.opaque };
    const rest = args.slice(skipped.index);
    const dangerous =
      name === 'sudo' || name === 'doas' ? `${name} runs a command as another user` : undefined;
    if (rest.length === 0) return { ...base, dangerous };
    return {
      ...base,
      wrapper: `${name} runs another command`,
      innerScripts: [joinText(rest)],
      dangerous,
    };
  }
  return base;
}
