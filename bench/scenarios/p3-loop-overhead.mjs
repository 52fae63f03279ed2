/**
 * P3 loop overhead: 200 tool rounds through our session (real @google/genai client through the SDK's Gemini
 * adapter) vs a hand-written bare @google/genai loop sending byte-identical requests. Each variant runs in its
 * own client process against its own FakeGeminiServer process; the figure is the client's CPU during the loop.
 */
import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { profileTables } from '../lib/cpuprofile-summary.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { fmt, mib, round, summarize } from '../lib/stats.mjs';

export const id = 'P3';
export const title = 'Agent-loop overhead, 200 tool rounds';
const GOAL =
  'CPU per tool round ≤ 1.10× a bare @google/genai loop on the same requests (slope from 20 to 200 rounds)';
const ROUNDS = 200;
/** The short conversation: (CPU at ROUNDS − CPU at SHORT) / (ROUNDS − SHORT) is the CPU of one more round. */
const SHORT = 20;

async function once(variant, shapeFile, env, nodeFlags = [], rounds = ROUNDS) {
  const server = await startServerProcess({ kind: 'tool-rounds', rounds, tool: 'tick' });
  const script = join(BENCH, 'children', variant === 'ours' ? 'p3-ours.mjs' : 'p3-bare.mjs');
  const args = [
    ...nodeFlags,
    script,
    server.baseUrl,
    String(rounds),
    ...(variant === 'bare' ? [shapeFile] : []),
  ];
  let r;
  let summary;
  try {
    r = await measure(process.execPath, args, { cwd: ROOT, env, timeoutMs: 180_000 });
  } finally {
    summary = await server.stop().catch((e) => ({ error: String(e) }));
  }
  const out = lastJsonLine(r.stdout);
  const problem =
    r.code !== 0
      ? `exit ${r.code}: ${r.stderr.trim().slice(-600)}`
      : !out || out.calls !== rounds || !out.finished
        ? `expected ${rounds} tool calls and a finished event, got ${JSON.stringify(out)}`
        : summary.error
          ? summary.error
          : summary.unexpected?.length || summary.remaining !== 0
            ? `server script not consumed cleanly: ${JSON.stringify(summary.unexpected)} remaining ${summary.remaining}`
            : undefined;
  return { measured: r, out, summary, problem, warnings: r.stderr.trim() };
}

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'agent/agent.js', 'testing/index.js'))
    return { skipped: 'the agent (dist/agent) or the testing kit (dist/testing) has not landed' };
  const dir = tempDir('h8-p3-');
  const env = { ...process.env, GEMINI_CLI_HOME: dir };
  delete env.GOOGLE_GEMINI_BASE_URL;
  // Warm-up run of ours: also captures the exact request shape the bare loop must send.
  const warm = await once('ours', undefined, env);
  if (warm.problem) return { error: `our session failed: ${warm.problem}` };
  const shapeFile = join(dir, 'shape.json');
  writeFileSync(shapeFile, JSON.stringify(warm.summary.first));
  const warmBare = await once('bare', shapeFile, env);
  if (warmBare.problem) return { error: `bare loop failed: ${warmBare.problem}` };
  const samples = { ours: [], bare: [] };
  const short = { ours: [], bare: [] };
  const n = ctx.runs(7);
  for (let i = 0; i < n; i++) {
    for (const v of ['ours', 'bare']) {
      const r = await once(v, shapeFile, env);
      if (r.problem) return { error: `${v} run ${i + 1} failed: ${r.problem}` };
      samples[v].push(r);
      const q = await once(v, shapeFile, env, [], SHORT);
      if (q.problem) return { error: `${v} run ${i + 1} (${SHORT} rounds) failed: ${q.problem}` };
      short[v].push(q);
    }
  }
  const stat = (v, f) => summarize(samples[v].map(f));
  const s = {};
  for (const v of ['ours', 'bare']) {
    s[v] = {
      loopCpuMs: stat(v, (r) => r.out.loopCpuMs),
      loopWallMs: stat(v, (r) => r.out.loopWallMs),
      processCpuMs: stat(v, (r) => r.measured.cpuMs),
      processWallMs: stat(v, (r) => r.measured.wallMs),
      peakRssKiB: stat(v, (r) => r.measured.peakTreeRssKiB),
      requestBytes: samples[v][0].summary.bodyBytes,
      requests: samples[v][0].summary.requests,
    };
  }
  const ratio = s.ours.loopCpuMs.median / s.bare.loopCpuMs.median;
  const perRound = (s.ours.loopCpuMs.median - s.bare.loopCpuMs.median) / ROUNDS;
  const sameRequests = s.ours.requestBytes === s.bare.requestBytes;
  // CPU of one more round: slope between the short and the long conversation (one-time costs of the first turn
  // — the session context's directory tree, the tool's argument validator, the client's first request — cancel).
  const slope = {};
  for (const v of ['ours', 'bare']) {
    const shortCpu = summarize(short[v].map((r) => r.out.loopCpuMs));
    slope[v] = {
      shortLoopCpuMs: shortCpu,
      perRoundMs: (s[v].loopCpuMs.median - shortCpu.median) / (ROUNDS - SHORT),
    };
  }
  const roundRatio = slope.ours.perRoundMs / slope.bare.perRoundMs;
  const met = roundRatio <= 1.1 && sameRequests;
  let profile = [];
  if (!met) {
    const profDir = join(dir, 'profile');
    const p = await once('ours', shapeFile, env, ['--cpu-prof', `--cpu-prof-dir=${profDir}`]);
    if (!p.problem) profile = profileTables(profDir, 'Profile of one more run of our client');
  }
  const warnings = [...new Set(samples.ours.map((r) => r.warnings).filter(Boolean))];
  const row = (name, v) => [
    name,
    fmt(v.loopCpuMs, 'ms', 0),
    fmt(v.loopWallMs, 'ms', 0),
    fmt(v.processCpuMs, 'ms', 0),
    fmt(
      { median: mib(v.peakRssKiB.median), min: mib(v.peakRssKiB.min), max: mib(v.peakRssKiB.max) },
      'MiB',
      1,
    ),
    `${v.requests} / ${round(v.requestBytes / 1e6, 2)} MB`,
  ];
  return {
    goal: {
      figure: `${round(roundRatio, 2)}× bare-loop CPU per round (${round(slope.ours.perRoundMs, 2)} vs ${round(slope.bare.perRoundMs, 2)} ms); whole ${ROUNDS}-round loop ${round(ratio, 2)}× (${round(s.ours.loopCpuMs.median, 0)} vs ${round(s.bare.loopCpuMs.median, 0)} ms)`,
      goal: GOAL,
      met,
    },
    details: {
      rounds: ROUNDS,
      cpuRatio: round(ratio, 3),
      perRoundRatio: round(roundRatio, 3),
      slope,
      extraCpuPerRoundMs: round(perRound, 3),
      sameRequestBytes: sameRequests,
      stderrOfOurClient: warnings,
      ...s,
    },
    tables: [
      {
        headers: [
          'client',
          'loop CPU',
          'loop wall',
          'client process CPU (incl. start-up)',
          'client peak RSS',
          'requests / bytes sent',
        ],
        rows: [row('GeminiCliSession (ours)', s.ours), row('bare @google/genai loop', s.bare)],
      },
      {
        caption: `CPU of one more round: (loop CPU at ${ROUNDS} rounds − at ${SHORT} rounds) ÷ ${ROUNDS - SHORT}, medians of interleaved runs:`,
        headers: ['client', `loop CPU, ${SHORT} rounds`, `loop CPU, ${ROUNDS} rounds`, 'per round'],
        rows: ['ours', 'bare'].map((v) => [
          v === 'ours' ? 'GeminiCliSession (ours)' : 'bare @google/genai loop',
          fmt(slope[v].shortLoopCpuMs, 'ms', 0),
          fmt(s[v].loopCpuMs, 'ms', 0),
          `${round(slope[v].perRoundMs, 2)} ms`,
        ]),
      },
      ...profile,
    ],
    commands: [
      `node bench/children/fake-server.mjs '{"kind":"tool-rounds","rounds":${ROUNDS},"tool":"tick"}'   # one server process per client run`,
      `node bench/children/p3-ours.mjs <baseUrl> ${ROUNDS}`,
      `node bench/children/p3-bare.mjs <baseUrl> ${ROUNDS} <shape of our first request>`,
    ],
    notes: [
      `Loop CPU is process.cpuUsage() of the client around the ${ROUNDS}-round conversation, after start-up (our session is initialize()d first; the bare client is constructed first). The server runs in its own process, so its CPU is excluded.`,
      `Both clients send byte-identical requests (same model, system instruction, tool declaration, thought-signature placeholder, function responses): ${sameRequests ? 'verified' : 'NOT verified'} from the server's byte count (${s.ours.requestBytes} vs ${s.bare.requestBytes}).`,
      `Each round's arguments differ ({i: 0…${ROUNDS - 1}}), so the loop detector (5 identical calls) never fires; maxTurns is ${ROUNDS + 5}.`,
      ...(warnings.length
        ? [`Our client printed on stderr: \`${warnings[0].split('\n')[0]}\``]
        : []),
    ],
  };
}
