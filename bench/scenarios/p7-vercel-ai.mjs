/**
 * P7 a peer side by side: the Vercel AI SDK (`ai` + `@ai-sdk/google`, `createGoogleGenerativeAI({ baseURL })`)
 * against our session with its default options (built-in tools on, file store), the same multi-step tool loop
 * of ROUNDS rounds, streaming, each client in its own process against its own FakeGeminiServer process. Each
 * contender must make exactly ROUNDS + 1 requests. Also the import wall of both packages.
 */
import process from 'node:process';
import { join } from 'node:path';
import { BENCH, ROOT, distHas, lastJsonLine, tempDir } from '../lib/env.mjs';
import { profileTables } from '../lib/cpuprofile-summary.mjs';
import { measure } from '../lib/proc-tree.mjs';
import { repeatInterleaved } from '../lib/repeat.mjs';
import { startServerProcess } from '../lib/server-process.mjs';
import { fmt, mib, round, summarize } from '../lib/stats.mjs';
import { VERCEL_PEER, ensureVercelPeer } from '../lib/vercel-peer.mjs';

export const id = 'P7';
export const title = 'Side by side with the Vercel AI SDK, 200 tool rounds';
const GOAL =
  'loop CPU ≤ 0.5× the Vercel AI SDK’s on the same N tool rounds (each N+1 requests), and import wall ≤ theirs';
const ROUNDS = 200;
const CPU_RATIO = 0.5;

const SCRIPTS = {
  ours: join(BENCH, 'children', 'p3-ours.mjs'),
  vercel: join(BENCH, 'children', 'p7-vercel.mjs'),
};

async function once(variant, env, nodeFlags = []) {
  const server = await startServerProcess({ kind: 'tool-rounds', rounds: ROUNDS, tool: 'tick' });
  let r;
  let summary;
  try {
    r = await measure(
      process.execPath,
      [...nodeFlags, SCRIPTS[variant], server.baseUrl, String(ROUNDS)],
      { cwd: ROOT, env, timeoutMs: 180_000 },
    );
  } finally {
    summary = await server.stop().catch((e) => ({ error: String(e) }));
  }
  const out = lastJsonLine(r.stdout);
  const problem =
    r.code !== 0
      ? `exit ${r.code}: ${r.stderr.trim().slice(-600)}`
      : !out || out.calls !== ROUNDS || !out.finished
        ? `expected ${ROUNDS} tool calls and a finished stream, got ${JSON.stringify(out)}`
        : summary.error
          ? summary.error
          : summary.requests !== ROUNDS + 1
            ? `expected ${ROUNDS + 1} requests, the server saw ${summary.requests}`
            : summary.unexpected?.length || summary.remaining !== 0
              ? `server script not consumed cleanly: ${JSON.stringify(summary.unexpected)} remaining ${summary.remaining}`
              : undefined;
  return { measured: r, out, summary, problem };
}

/** @param {{ runs: (n: number) => number, log: (s: string) => void }} ctx */
export async function run(ctx) {
  if (!distHas('index.js', 'agent/agent.js', 'testing/index.js'))
    return { skipped: 'the agent (dist/agent) or the testing kit (dist/testing) has not landed' };
  const peer = ensureVercelPeer(ctx.log);
  if (!peer.ok) return { skipped: peer.reason };
  const dir = tempDir('h8-p7-');
  const env = { ...process.env, GEMINI_CLI_HOME: dir };
  delete env.GOOGLE_GEMINI_BASE_URL;
  for (const v of ['ours', 'vercel']) {
    const warm = await once(v, env);
    if (warm.problem) return { error: `${v} (warm-up) failed: ${warm.problem}` };
  }
  const samples = { ours: [], vercel: [] };
  const n = ctx.runs(7);
  for (let i = 0; i < n; i++) {
    for (const v of ['ours', 'vercel']) {
      const r = await once(v, env);
      if (r.problem) return { error: `${v} run ${i + 1} failed: ${r.problem}` };
      samples[v].push(r);
    }
  }
  const s = {};
  for (const v of ['ours', 'vercel']) {
    const stat = (f) => summarize(samples[v].map(f));
    s[v] = {
      loopCpuMs: stat((r) => r.out.loopCpuMs),
      loopWallMs: stat((r) => r.out.loopWallMs),
      processCpuMs: stat((r) => r.measured.cpuMs),
      peakRssKiB: stat((r) => r.measured.peakTreeRssKiB),
      requests: samples[v][0].summary.requests,
      requestBytes: samples[v][0].summary.bodyBytes,
    };
  }
  const ratio = s.ours.loopCpuMs.median / s.vercel.loopCpuMs.median;

  // Import wall, interleaved: our package (self-reference) vs `ai` + `@ai-sdk/google` from the peer's folder.
  const node = process.execPath;
  const imports = await repeatInterleaved(
    [
      {
        name: "import('gemini-agent-sdk')",
        command: node,
        args: ['--input-type=module', '-e', "await import('gemini-agent-sdk');"],
        cwd: ROOT,
      },
      {
        name: "import('ai') + import('@ai-sdk/google')",
        command: node,
        args: ['--input-type=module', '-e', "await import('ai'); await import('@ai-sdk/google');"],
        cwd: VERCEL_PEER,
      },
    ],
    { runs: ctx.runs(15), warmup: 2, log: ctx.log },
  );
  const ourImport = imports["import('gemini-agent-sdk')"];
  const theirImport = imports["import('ai') + import('@ai-sdk/google')"];
  if (ourImport.error || theirImport.error)
    return { error: `import run failed: ${ourImport.error ?? theirImport.error}` };
  const importMet = ourImport.wallMs.median <= theirImport.wallMs.median;
  const met = ratio <= CPU_RATIO && importMet;

  let profile = [];
  if (ratio > CPU_RATIO) {
    const profDir = join(dir, 'profile-vercel');
    const p = await once('vercel', env, ['--cpu-prof', `--cpu-prof-dir=${profDir}`]);
    if (!p.problem)
      profile = profileTables(profDir, 'Profile of one more run of the Vercel AI SDK client');
  }
  const mibOf = (v) => ({ median: mib(v.median), min: mib(v.min), max: mib(v.max) });
  const row = (name, v) => [
    name,
    fmt(v.loopCpuMs, 'ms', 0),
    `${round(v.loopCpuMs.median / ROUNDS, 2)} ms`,
    fmt(v.loopWallMs, 'ms', 0),
    fmt(v.processCpuMs, 'ms', 0),
    fmt(mibOf(v.peakRssKiB), 'MiB', 1),
    `${v.requests} / ${round(v.requestBytes / 1e6, 2)} MB`,
  ];
  const versions = `ai ${peer.versions.ai}, @ai-sdk/google ${peer.versions['@ai-sdk/google']}`;
  return {
    goal: {
      figure: `${round(ratio, 2)}× the Vercel AI SDK's loop CPU (${round(s.ours.loopCpuMs.median, 0)} vs ${round(s.vercel.loopCpuMs.median, 0)} ms); import ${round(ourImport.wallMs.median, 0)} vs ${round(theirImport.wallMs.median, 0)} ms`,
      goal: GOAL,
      met,
    },
    details: {
      rounds: ROUNDS,
      peerVersions: peer.versions,
      peerEngines: peer.engines,
      node: process.version,
      cpuRatio: round(ratio, 3),
      importMet,
      ...s,
      imports,
    },
    tables: [
      {
        headers: [
          'client',
          'loop CPU',
          'per round',
          'loop wall',
          'client process CPU (incl. start-up)',
          'client peak RSS',
          'requests / bytes sent',
        ],
        rows: [
          row('GeminiCliSession (ours, default options)', s.ours),
          row(`Vercel AI SDK (${versions})`, s.vercel),
        ],
      },
      {
        headers: ['import', 'wall median (min–max)', 'CPU user+sys', 'peak RSS'],
        rows: Object.entries(imports).map(([name, r]) => [
          name,
          fmt(r.wallMs, 'ms', 0),
          fmt(r.cpuMs, 'ms', 0),
          fmt(mibOf(r.peakTreeRssKiB), 'MiB', 1),
        ]),
      },
      ...profile,
    ],
    commands: [
      `node bench/children/fake-server.mjs '{"kind":"tool-rounds","rounds":${ROUNDS},"tool":"tick"}'   # one server process per client run`,
      `node bench/children/p3-ours.mjs <baseUrl> ${ROUNDS}`,
      `node bench/children/p7-vercel.mjs <baseUrl> ${ROUNDS}   # peer installed by npm ci --prefix bench/peers/vercel-ai`,
      `node --input-type=module -e "await import('ai'); await import('@ai-sdk/google');"   (cwd: bench/peers/vercel-ai)`,
    ],
    notes: [
      `Peer: ${versions} (pinned in bench/peers/vercel-ai/package.json, devDependencies of the benchmark only). Their package.json declares engines node ${peer.engines ?? '(none)'}; this machine runs ${process.version}, on which the pinned versions ran every round correctly (each run is checked: ${ROUNDS} tool calls, a finished stream, exactly ${ROUNDS + 1} requests).`,
      'Both clients stream (`sendStream` / `streamText().fullStream`) and run the same trivial tool; requests are not byte-identical (each SDK builds its own request: our session adds its system prompt, built-in tool declarations and thought signatures), so the request bytes are shown next to the CPU.',
      'Loop CPU is process.cpuUsage() of the client around the conversation, after start-up; the server runs in its own process. Runs alternate ours / theirs.',
    ],
  };
}
