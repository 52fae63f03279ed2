import { readdir, readFile } from 'node:fs/promises';

/** Grace period between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 200;

function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Pids of every live descendant of `root` (Linux: read from /proc; elsewhere: empty). */
async function descendantsOf(root: number): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  await Promise.all(
    names
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        try {
          const stat = await readFile(`/proc/${name}/stat`, 'utf8');
          // Field 4 (ppid) follows the parenthesised command name, which may contain spaces.
          const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const ppid = Number(after[1]);
          const list = children.get(ppid) ?? [];
          list.push(Number(name));
          children.set(ppid, list);
        } catch {
          // The process ended while we looked.
        }
      }),
  );
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Kills a process group and every descendant (also those that left the group with `setsid` but are still
 * descendants): SIGTERM (or `signal`) now, SIGKILL after a short grace to whatever survived.
 * Resolves after the SIGKILL round.
 */
export async function killProcessTree(
  pgid: number,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  const descendants = await descendantsOf(pgid);
  sendSignal(-pgid, signal);
  for (const pid of descendants) sendSignal(pid, signal);
  if (signal === 'SIGKILL') return;
  await new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS));
  const late = await descendantsOf(pgid);
  sendSignal(-pgid, 'SIGKILL');
  for (const pid of new Set([...descendants, ...late])) sendSignal(pid, 'SIGKILL');
}
