/**
 * Runs the reference `gemini` CLI (0.61) on one parity scenario, offline: a temp root (`home/` is HOME, the
 * project folders), our FakeGeminiServer on loopback with the scenario's model turns, gemini run with
 * GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL pointing at it. Used by record.ts and record-config-matrix.ts.
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const GEMINI = process.env['GEMINI_BIN'] ?? '/work/ref/gemini/node_modules/.bin/gemini';

/** The result of gemini on a scenario (exit code, output, every API request body, session and checked files), normalised. */
export async function recordGemini(scenario: Scenario): Promise<Recording> {
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
