/**
 * Process-tree measurement: wall time (hrtime), CPU (user + sys of every process in the tree) and peak RSS of the
 * whole tree (sum of VmRSS of all descendants, sampled from /proc every few milliseconds).
 *
 * CPU comes from `/usr/bin/time` when present: it waits for the command with wait4(), whose rusage covers the
 * command and every descendant it (transitively) waited for — exact, not sampled. Without it, CPU falls back to
 * the last sampled utime + stime of every process seen in the tree (a slight under-estimate).
 */
import process from 'node:process';
import { setTimeout, setInterval, clearInterval, clearTimeout } from 'node:timers';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TIME_BIN = '/usr/bin/time';
const CLOCK_TICKS = 100; // USER_HZ on Linux
const PAGE_KIB = 4;

/** True when GNU time is available (exact tree CPU through wait4 rusage). */
export const hasGnuTime = (() => {
  if (!existsSync(TIME_BIN)) return false;
  try {
    return readFileSync(TIME_BIN).includes('Maximum resident set size');
  } catch {
    return false;
  }
})();

function readText(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Direct children of `pid` (every thread's `children` list). */
function childrenOf(pid) {
  const out = [];
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    const text = readText(`/proc/${pid}/task/${tid}/children`);
    if (!text) continue;
    for (const c of text.trim().split(/\s+/)) if (c) out.push(Number(c));
  }
  return out;
}

/** All descendants of `root` (not including root). */
function descendants(root) {
  const seen = [];
  const stack = childrenOf(root);
  while (stack.length) {
    const pid = stack.pop();
    seen.push(pid);
    stack.push(...childrenOf(pid));
  }
  return seen;
}

/** Resident set of one process in KiB (from /proc/<pid>/statm, cheaper than status). */
function rssKiB(pid) {
  const text = readText(`/proc/${pid}/statm`);
  if (!text) return 0;
  const resident = Number(text.split(' ')[1]);
  return Number.isFinite(resident) ? resident * PAGE_KIB : 0;
}

/** utime + stime of one process in ms, and its command name. */
function statOf(pid) {
  const text = readText(`/proc/${pid}/stat`);
  if (!text) return undefined;
  const close = text.lastIndexOf(')');
  const name = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is state (field 3); utime is field 14, stime field 15 → indexes 11, 12.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { name, cpuMs: (ticks * 1000) / CLOCK_TICKS };
}

/**
 * Runs `command args` and measures it.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, sampleMs?: number, input?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ wallMs: number, cpuMs: number, userMs: number, sysMs: number, peakTreeRssKiB: number,
 *   peakProcRssKiB: number, processes: number, names: string[], code: number | null, signal: string | null,
 *   stdout: string, stderr: string, cpuSource: string }>}
 */
export async function measure(command, args, options = {}) {
  const sampleMs = options.sampleMs ?? 10;
  const timeDir = hasGnuTime ? mkdtempSync(join(tmpdir(), 'h8-time-')) : undefined;
  const timeFile = timeDir ? join(timeDir, 'time.txt') : undefined;
  const argv = hasGnuTime
    ? [TIME_BIN, ['-f', '%e %U %S %M %x', '-o', timeFile, command, ...args]]
    : [command, args];
  const started = process.hrtime.bigint();
  const child = spawn(argv[0], argv[1], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const root = child.pid;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  child.stdin.end(options.input ?? '');

  let peakTree = 0;
  let peakProc = 0;
  const cpuByPid = new Map();
  const names = new Set();
  const sample = () => {
    const pids = hasGnuTime ? descendants(root) : [root, ...descendants(root)];
    let sum = 0;
    for (const pid of pids) {
      const rss = rssKiB(pid);
      sum += rss;
      if (rss > peakProc) peakProc = rss;
      const st = statOf(pid);
      if (st) {
        cpuByPid.set(pid, st.cpuMs);
        names.add(st.name);
      }
    }
    if (sum > peakTree) peakTree = sum;
  };
  const timer = setInterval(sample, sampleMs);
  sample();
  let killTimer;
  if (options.timeoutMs) {
    killTimer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  }
  const { code, signal } = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve({ code: c, signal: s }));
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  clearInterval(timer);
  if (killTimer) clearTimeout(killTimer);

  let userMs;
  let sysMs;
  let exitCode = code;
  let cpuSource = 'sampled /proc/<pid>/stat';
  if (timeFile) {
    const text = readText(timeFile) ?? '';
    rmSync(timeDir, { recursive: true, force: true });
    // A command killed by a signal makes time print "Command terminated by signal N" first.
    const line = text.trim().split('\n').at(-1) ?? '';
    const [, user, sys, maxRss, status] = line.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) {
      userMs = user * 1000;
      sysMs = sys * 1000;
      cpuSource = '/usr/bin/time (wait4 rusage of the tree)';
      if (Number.isFinite(maxRss) && maxRss > peakProc) peakProc = maxRss;
      if (Number.isFinite(status)) exitCode = status;
    }
  }
  if (userMs === undefined) {
    userMs = [...cpuByPid.values()].reduce((a, b) => a + b, 0);
    sysMs = 0;
  }
  if (peakProc > peakTree) peakTree = peakProc;
  return {
    wallMs,
    cpuMs: userMs + sysMs,
    userMs,
    sysMs,
    peakTreeRssKiB: peakTree,
    peakProcRssKiB: peakProc,
    processes: cpuByPid.size,
    names: [...names],
    code: exitCode,
    signal,
    stdout,
    stderr,
    cpuSource,
  };
}
