import type { ShellWord } from './shell-syntax.js';

/** A command that runs another command given after its options: option flags that take a value. */
interface WrapperSpec {
  readonly valued: readonly string[];
  /** Positional arguments before the wrapped command (`timeout 5 cmd`, `chroot dir cmd`). */
  readonly positional?: number;
}

/**
 * Commands that run the command given after their options (`env X=1 rm x` runs `rm x`). The wrapped command
 * is checked like any other part of the script, so a deny rule for `rm` also holds for `nohup rm`,
 * `strace -f rm`, `busybox rm`, `systemd-run rm` ….
 */
export const PREFIX_WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-a', '--argv0'] },
  sudo: {
    valued: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '-R', '--user', '--group'],
  },
  doas: { valued: ['-u', '-C'] },
  pkexec: { valued: ['--user'] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  builtin: { valued: [] },
  coproc: { valued: [] },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  exec: { valued: ['-a'] },
  command: { valued: [] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata'] },
  chrt: { valued: [], positional: 1 },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  chroot: { valued: ['--userspec', '--groups'], positional: 1 },
  taskset: { valued: [], positional: 1 },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], positional: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ['-t', '-w'] },
  catchsegv: { valued: [] },
  fakeroot: { valued: ['-l', '--lib', '--faked', '-s', '-i', '-b'] },
  unshare: {
    valued: ['-S', '-G', '--setuid', '--setgid', '--propagation', '-R', '--root', '-w', '--wd'],
  },
  nsenter: { valued: ['-t', '--target', '-S', '-G', '--setuid', '--setgid', '-r', '-w'] },
  setpriv: { valued: ['--reuid', '--regid', '--groups', '--inh-caps', '--bounding-set'] },
  prlimit: { valued: ['-p', '--pid'] },
  cgexec: { valued: ['-g'] },
  numactl: { valued: ['-C', '-N', '-m', '-p', '-i', '--cpunodebind', '--membind'] },
  strace: {
    valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-S', '-P', '-X'],
  },
  ltrace: {
    valued: ['-o', '-e', '-p', '-s', '-u', '-n', '-a', '-A', '-D', '-F', '-l', '-x', '-L'],
  },
  valgrind: { valued: [] },
  proot: { valued: ['-r', '-b', '-m', '-w', '-q', '-k', '--rootfs', '--bind', '--cwd'] },
  firejail: { valued: [] },
  'systemd-run': {
    valued: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '-E',
      '--setenv',
      '--description',
      '--slice',
      '-M',
    ],
  },
  'dbus-run-session': { valued: ['--config-file', '--dbus-daemon'] },
  'dbus-launch': { valued: ['--config-file', '--autolaunch'] },
  'xvfb-run': { valued: ['-n', '--server-num', '-s', '--server-args', '-e', '--error-file', '-f'] },
  'ssh-agent': { valued: ['-a', '-E', '-t', '-P'] },
  torsocks: { valued: ['-u', '-p', '-a', '-P', '--user', '--pass', '--address', '--port'] },
  proxychains: { valued: ['-f'] },
  proxychains4: { valued: ['-f'] },
  entr: { valued: [] },
  busybox: { valued: [] },
  toybox: { valued: [] },
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

/**
 * Skips a prefix wrapper's options; returns the index (in `args`) of the wrapped command, or why it cannot
 * be seen.
 */
export function skipWrapperOptions(
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
      if (name === 'env' && /^(-[a-zA-Z]*S|--split-string)/.test(value))
        return { opaque: 'env -S splits a string into a command' };
      if ((name === 'sudo' || name === 'doas') && /^-[a-zA-Z]*[sie]/.test(value))
        return { opaque: `${name} running a shell or an editor` };
      if (name === 'entr' && /^-[a-zA-Z]*s/.test(value))
        return { opaque: 'entr -s runs its command through a shell' };
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
