import { readFileSync, unlinkSync } from 'node:fs';

/** Lock files this process holds, by path → the holder token written in them. */
const held = new Map<string, string>();
let listening = false;

function tokenOf(path: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { token?: unknown };
    return typeof parsed.token === 'string' ? parsed.token : undefined;
  } catch {
    return undefined;
  }
}

/** Removes (synchronously: `exit` listeners cannot wait) every lock file still ours. */
function removeHeldLocks(): void {
  for (const [path, token] of held) {
    if (tokenOf(path) !== token) continue;
    try {
      unlinkSync(path);
    } catch {
      // Already gone, or the folder is read-only: a later process takes the lock over as stale.
    }
  }
  held.clear();
}

/**
 * Registers a lock file to remove when the process exits normally with the session still open (the program never
 * called `session.close()`). Without this, a lock left by a finished process is taken over only once its pid is
 * seen dead — and if the OS reuses that pid meanwhile, only after the heartbeat goes stale. A process killed by a
 * signal does not run `exit` listeners; stale-lock takeover covers that case. The listener is installed while at
 * least one lock is held and removed afterwards, so importing the SDK changes nothing.
 */
export function removeLockOnExit(path: string, token: string): void {
  held.set(path, token);
  if (!listening) {
    process.on('exit', removeHeldLocks);
    listening = true;
  }
}

/** Forgets a lock file (released or lost): the exit listener no longer touches it. */
export function forgetLockOnExit(path: string): void {
  held.delete(path);
  if (held.size === 0 && listening) {
    process.off('exit', removeHeldLocks);
    listening = false;
  }
}
