/**
 * P1 one-shot: `gemini-agent -p … --fake-responses F -o stream-json` vs the peer `gemini -p …` on the same
 * replay file. Wall, CPU and peak RSS of the whole process tree (gemini relaunches itself: two processes).
 */
import process from 'node:process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, FIXTURES, tempDir } from '../lib/env.mjs';
import { ensurePeer, PEER_VERSION, writePeerSettings } from '../lib/peer.mjs';
import { repeatInterleaved } from '../lib/repeat.mjs';
import { fmt, mib, round } from '../lib/stats.mjs';

export const id = 'P1';
export const title = 'One-shot CLI run on a replay file';
const GOAL = '≥ 10× faster wall and ≥ 6× less peak RSS than `gemini -p` 0.61';
const PROMPT = 'Say hello.';
const MODEL = 'gemini-2.5-flash';

/** Checks a stream-json transcript: a successful `result` line and the recorded assistant text. */
function checkStreamJson(stdout) {
  const lines = stdout.trim().split('\n').filter(Boolean);
  let text = '';
  let result;
  for (const line of lines) {
    let obj;
    try {
      obj = JSON.parse(line);
    } catch {
      return `stdout line is not JSON: ${line.slice(0, 200)}`;
    }
    if (obj.type === 'message' && obj.role === 'assistant') text += obj.content ?? '';
    if (obj.type === 'result') result = obj;
  }
  if (!result) return 'no `result` line in stream-json output';
  if (result.status !== 'success') return `result status ${result.status}`;
  if (!text.includes('Ahoy')) return `assistant text does not match the recording: ${text}`;
  return undefined;
}

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  const main = join(DIST, 'cli', 'main.js');
  if (!existsSync(main)) return { skipped: 'dist/cli/main.js is missing (the CLI has not landed)' };
  const dir = tempDir('h8-p1-');
  const replay = join(dir, 'agent-static-instructions.json');
  copyFileSync(join(FIXTURES, 'agent-static-instructions.json'), replay);
  const work = join(dir, 'work');
  const oursHome = join(dir, 'home-ours');
  const peerHome = join(dir, 'home-peer');
  for (const d of [work, oursHome]) mkdirSync(d, { recursive: true });
  writePeerSettings(peerHome);
  const baseEnv = { ...process.env, GEMINI_API_KEY: 'bench-fake-key', NO_COLOR: '1' };
  delete baseEnv.GOOGLE_GEMINI_BASE_URL;
  const args = ['-p', PROMPT, '--fake-responses', replay, '-o', 'stream-json', '-m', MODEL];
  const ours = {
    name: 'gemini-agent',
    command: process.execPath,
    args: [main, ...args],
    cwd: work,
    env: { ...baseEnv, GEMINI_CLI_HOME: oursHome },
    check: (r) => checkStreamJson(r.stdout),
  };
  const variants = [ours];
  const peer = ensurePeer(ctx.log);
  let peerNote;
  if (peer.ok) {
    variants.push({
      name: 'gemini',
      command: peer.bin,
      args,
      cwd: work,
      env: { ...baseEnv, GEMINI_CLI_HOME: peerHome },
      check: (r) => checkStreamJson(r.stdout),
    });
  } else {
    peerNote = `peer not available, comparison skipped: ${peer.reason}`;
    ctx.log(`  ${peerNote}`);
  }
  const res = await repeatInterleaved(variants, { runs: ctx.runs(10), warmup: 1, log: ctx.log });
  const o = res['gemini-agent'];
  const g = res.gemini;
  const shown = args.map((a) => (a === replay ? '<copy of agent-static-instructions.json>' : q(a)));
  const commands = [
    `GEMINI_CLI_HOME=<tmp> GEMINI_API_KEY=bench-fake-key node dist/cli/main.js ${shown.join(' ')}`,
    `GEMINI_CLI_HOME=<tmp with .gemini/settings.json: folderTrust off, usage stats off> GEMINI_API_KEY=bench-fake-key bench/.peer/node_modules/.bin/gemini ${shown.join(' ')}`,
  ];
  const rows = [];
  for (const [name, r] of Object.entries(res)) {
    rows.push(
      r.error
        ? [name, `failed: ${r.error.split('\n')[0].slice(0, 160)}`, '', '', '', '']
        : [
            name,
            fmt(r.wallMs, 'ms', 0),
            fmt(r.cpuMs, 'ms', 0),
            fmt(mapSummary(r.peakTreeRssKiB, mib), 'MiB', 1),
            fmt(mapSummary(r.peakProcRssKiB, mib), 'MiB', 1),
            String(r.processes),
          ],
    );
  }
  const table = {
    headers: [
      'command',
      'wall median (min–max)',
      'CPU user+sys',
      'peak RSS, tree',
      'peak RSS, largest process',
      'processes',
    ],
    rows,
  };
  if (o.error) {
    return {
      goal: {
        figure: `not run: gemini-agent failed (${o.error.split('\n')[0]})`,
        goal: GOAL,
        met: false,
      },
      details: res,
      table,
      commands,
    };
  }
  if (!g || g.error) {
    return {
      goal: {
        figure: `gemini-agent ${round(o.wallMs.median, 0)} ms / ${round(mib(o.peakTreeRssKiB.median), 1)} MiB; peer comparison skipped: ${peerNote ?? g.error.split('\n')[0]}`,
        goal: GOAL,
        met: false,
      },
      details: res,
      table,
      commands,
    };
  }
  const speed = g.wallMs.median / o.wallMs.median;
  const memory = g.peakTreeRssKiB.median / o.peakTreeRssKiB.median;
  const cpu = g.cpuMs.median / o.cpuMs.median;
  return {
    goal: {
      figure: `${round(speed, 1)}× faster wall, ${round(memory, 1)}× less peak RSS (tree), ${round(cpu, 1)}× less CPU`,
      goal: GOAL,
      met: speed >= 10 && memory >= 6,
    },
    details: {
      peerVersion: PEER_VERSION,
      wallRatio: round(speed, 2),
      peakRssRatio: round(memory, 2),
      cpuRatio: round(cpu, 2),
      ...res,
    },
    table,
    commands,
    notes: [
      'Both runs use the same copied replay file, an empty temp working directory and a temp GEMINI_CLI_HOME; the peer is pinned to `-m gemini-2.5-flash` so it makes no router call.',
      'Peak RSS (tree) is the maximum over time of the summed VmRSS of every process in the tree, sampled every 10 ms (shared pages count once per process); CPU is the wait4 rusage of the whole tree from /usr/bin/time.',
    ],
  };
}

function mapSummary(s, f) {
  return { median: f(s.median), min: f(s.min), max: f(s.max), n: s.n };
}

function q(arg) {
  return /^[\w./-]+$/.test(arg) ? arg : `"${arg}"`;
}
