/**
 * The process groups of the stdio MCP servers this process started. Each server runs as the leader of its own
 * group, so a signal to `-pid` reaches the server and everything it started (an `npx` wrapper's node process, a
 * shell's children), even children whose parent already died. While at least one group is alive, an `exit`
 * listener kills the groups that are left, and listeners for SIGINT, SIGTERM and SIGHUP do the same and then
 * re-raise the signal when nobody else listens for it (so the default "terminate" still happens). Nothing is
 * installed while no server runs, so importing the SDK changes nothing.
 */

const groups = new Set<number>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/** Sends `signal` to a process group; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group is alive. */
export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

function killAll(): void {
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
}

function onExit(): void {
  killAll();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  uninstall();
  // Only ours was listening: let the default action (terminate with this signal) happen.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Registers a server's process group, to be killed at the latest when this process exits. */
export function trackGroup(pid: number): void {
  groups.add(pid);
  install();
}

/** Forgets a group (it was torn down). */
export function untrackGroup(pid: number): void {
  groups.delete(pid);
  if (groups.size === 0) uninstall();
}

/**
 * Ends a process group: SIGTERM, then SIGKILL for whatever is left after `graceMs`. Resolves once no process of
 * the group is alive (or after the SIGKILL, which cannot be ignored).
 */
export async function terminateGroup(pid: number, graceMs: number): Promise<void> {
  try {
    if (!signalGroup(pid, 'SIGTERM')) return;
    const deadline = Date.now() + graceMs;
    let wait = 5;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (!groupAlive(pid)) return;
      wait = Math.min(wait * 2, 50);
    }
    signalGroup(pid, 'SIGKILL');
  } finally {
    untrackGroup(pid);
  }
}
