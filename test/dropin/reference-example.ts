import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FakeGeminiServer, type FakeGeminiTurn } from '../../src/testing/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
/** Maps `gemini-agent-sdk` to `src/`, so the example runs against the sources. */
const TSCONFIG = join(ROOT, 'examples', 'tsconfig.json');

/** sha256 of each committed reference example: they must stay byte-for-byte gemini-cli's. */
export const REFERENCE_SHA256: Readonly<Record<string, string>> = {
  'simple.ts': '7cc4fd91c05261cab82d1d975dcf3f84a210c7673c7c12cf64b3bac85afb0a8d',
  'session-context.ts': '406b61f5c0574ca01c8b700fa2a0ecb249ff6b0f4e7ce1deca011ae15ccb506f',
};

/** The only edit a user makes when switching SDKs. */
const REFERENCE_IMPORT = "from '../src/index.js'";
const OUR_IMPORT = "from 'gemini-agent-sdk'";

/** What a run of a reference example left behind. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The loopback Gemini API the example talked to (its requests, in order). */
  server: FakeGeminiServer;
  /** The temporary project the example ran in (its cwd). */
  project: string;
}

/**
 * Runs one of gemini-cli's SDK examples unchanged except for its import, in a fresh project (a `package.json`, a
 * temp HOME / GEMINI_CLI_HOME), with the real `@google/genai` client pointed at a {@link FakeGeminiServer} playing
 * `turns` (`GOOGLE_GEMINI_BASE_URL`, a dummy `GEMINI_API_KEY`).
 */
export async function runReferenceExample(
  name: string,
  turns: FakeGeminiTurn[],
): Promise<ExampleRun> {
  const source = await readFile(join(ROOT, 'test', 'dropin', 'reference', name), 'utf8');
  const sha = createHash('sha256').update(source).digest('hex');
  if (sha !== REFERENCE_SHA256[name]) {
    throw new Error(
      `test/dropin/reference/${name} was edited (sha256 ${sha}); restore gemini-cli's file.`,
    );
  }
  if (source.split(REFERENCE_IMPORT).length !== 2) {
    throw new Error(`${name} must have exactly one import of the reference SDK.`);
  }
  const base = await mkdtemp(join(tmpdir(), 'gemini-dropin-'));
  const project = join(base, 'project');
  const home = join(base, 'home');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'dropin-project', version: '1.0.0', type: 'module' }, null, 2)}\n`,
  );
  const file = join(project, name);
  await writeFile(file, source.replace(REFERENCE_IMPORT, OUR_IMPORT));
  const server = new FakeGeminiServer({ turns });
  const baseUrl = await server.start();
  try {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          [TSX, '--tsconfig', TSCONFIG, file],
          {
            cwd: project,
            timeout: 60_000,
            env: {
              PATH: process.env['PATH'] ?? '/usr/bin:/bin',
              HOME: home,
              GEMINI_CLI_HOME: home,
              GEMINI_API_KEY: 'test-key',
              GOOGLE_GEMINI_BASE_URL: baseUrl,
            },
          },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      },
    );
    return { ...result, server, project };
  } finally {
    await server.close();
    await rm(base, { recursive: true, force: true });
  }
}
