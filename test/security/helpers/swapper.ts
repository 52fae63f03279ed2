import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A real attacker process that swaps two directory entries as fast as it can with
 * `renameat2(RENAME_EXCHANGE)` (Linux). Built at test time: a tiny C program compiled with the machine's
 * `cc`, or, without a compiler, the same loop in `python3` through ctypes. `.ci/run` makes sure one of them
 * exists.
 */
const C_SOURCE = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE) != 0) {
    perror("renameat2");
    return 1;
  }
  puts("ready");
  fflush(stdout);
  for (;;) syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE);
}
`;

const PY_SOURCE = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_EXCHANGE = 2
f = libc.renameat2
f.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
if f(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
    sys.exit("renameat2: errno %d" % ctypes.get_errno())
print("ready", flush=True)
while True:
    f(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
`;

function works(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
  return result.status === 0;
}

let built: { command: string; args: string[] } | null | undefined;

/** How to start the swapper here, or null (with the reason in {@link swapperUnavailable}) when nothing can. */
export function swapperCommand(): { command: string; args: string[] } | null {
  if (built !== undefined) return built;
  if (process.platform !== 'linux') return (built = null);
  const dir = path.join(os.tmpdir(), 'gemini-agent-swapper');
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha256').update(C_SOURCE).digest('hex').slice(0, 12);
  const binary = path.join(dir, `swapper-${hash}`);
  if (!existsSync(binary)) {
    const source = path.join(dir, `swapper-${hash}.c`);
    writeFileSync(source, C_SOURCE);
    if (works('cc', ['-O2', '-o', `${binary}.tmp`, source])) {
      spawnSync('mv', [`${binary}.tmp`, binary]);
    }
  }
  if (existsSync(binary)) return (built = { command: binary, args: [] });
  const script = path.join(dir, `swapper-${hash}.py`);
  writeFileSync(script, PY_SOURCE);
  if (works('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'])) {
    return (built = { command: 'python3', args: [script] });
  }
  return (built = null);
}

/** Why the racing tests cannot run here (empty when they can). */
export function swapperUnavailable(): string {
  if (process.platform !== 'linux') return 'renameat2(RENAME_EXCHANGE) is Linux-only';
  return swapperCommand() === null
    ? 'neither a C compiler (cc) nor python3 with ctypes is available to build the swapper'
    : '';
}

/** A running swapper. */
export interface Swapper {
  stop(): Promise<void>;
}

/** Starts swapping `a` and `b` (both must exist, same filesystem); resolves once the first swap happened. */
export async function startSwapper(a: string, b: string): Promise<Swapper> {
  const how = swapperCommand();
  if (!how) throw new Error(swapperUnavailable());
  const child: ChildProcess = spawn(how.command, [...how.args, a, b], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`swapper exited (${code}): ${err}`)));
    child.once('error', reject);
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
