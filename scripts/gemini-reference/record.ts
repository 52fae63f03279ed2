/**
 * Records how the reference `gemini` CLI (0.61) behaves in the scenarios of test/parity/scenarios.ts, so the
 * parity tests compare gemini-agent against gemini without gemini installed (CI does not have it).
 *
 * For each scenario: a temp root (`home/` is HOME, the project folders), our FakeGeminiServer on loopback
 * with the scenario's model turns, gemini run with GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL pointing at it;
 * the result (exit code, stdout, stderr, every API request body, session files, checked files) is written,
 * normalised, to test/fixtures/gemini-0.61/<scenario>.json.
 *
 *   npx tsx scripts/gemini-reference/record.ts [name-filter]
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeGeminiServer } from '../../src/testing/index.js';
import {
  buildTurns,
  layOut,
  normalise,
  readChecked,
  readSessions,
  scenarioEnv,
  substitute,
  type Recording,
  type RunOutput,
  type Scenario,
} from '../../test/parity/reference.js';
import { SCENARIOS } from '../../test/parity/scenarios.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT_DIR = join(REPO, 'test', 'fixtures', 'gemini-0.61');
const GEMINI = process.env['GEMINI_BIN'] ?? '/work/ref/gemini/node_modules/.bin/gemini';
const filter = process.argv[2];

mkdirSync(OUT_DIR, { recursive: true });
for (const scenario of SCENARIOS) {
  if (filter !== undefined && !scenario.name.includes(filter)) continue;
  const recording = await record(scenario);
  writeFileSync(join(OUT_DIR, `${scenario.name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
  process.stdout.write(
    `${scenario.name}: exit ${[recording, ...recording.later].map((r) => String(r.exitCode)).join(', ')}, ` +
      `${recording.requests.length} request(s)\n`,
  );
}

async function record(scenario: Scenario): Promise<Recording> {
  const root = mkdtempSync(join(tmpdir(), 'gemini-ref-'));
  try {
    const cwd = layOut(root, scenario);
    const server = new FakeGeminiServer({ turns: buildTurns(scenario.turns ?? []) });
    const url = await server.start();
    const env: NodeJS.ProcessEnv = {
      ...scenarioEnv(root, url),
      ...substitute(scenario.env ?? {}, root),
    };
    const result = await run(substitute(scenario.args, root), cwd, env, scenario.stdin);
    const later = [];
    for (const args of scenario.then ?? [])
      later.push(await run(substitute(args, root), cwd, env, undefined));
    await server.close();
    return normalise(
      {
        scenario,
        ...result,
        later,
        requests: server.requests.map((r) => ({ method: r.method, model: r.model, body: r.body })),
        sessions: readSessions(join(root, 'home', '.gemini', 'tmp')),
        files: readChecked(root, scenario),
      },
      root,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function run(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  input: string | undefined,
): Promise<RunOutput> {
  return new Promise((done, fail) => {
    const child = spawn(GEMINI, args, {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', fail);
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ exitCode: code, stdout, stderr: cleanStderr(stderr) });
    });
  });
}

/** Drops the lines gemini prints about the recording host's terminal and tools. */
function cleanStderr(text: string): string {
  return text
    .split('\n')
    .filter(
      (line) => !/^Warning: (Basic terminal detected|256-color support not detected)/.test(line),
    )
    .filter((line) => line !== 'Ripgrep is not available. Falling back to GrepTool.')
    .filter((line) => !line.startsWith('[STARTUP] '))
    .join('\n');
}
