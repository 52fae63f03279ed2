import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (children run there, so `--import tsx` resolves). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `import … from` this in a child script to use the SDK's public API from the sources. */
export const SDK_ENTRY = pathToFileURL(join(ROOT, 'src', 'index.ts')).href;

/** `import … from` this in a `.mjs` child script to use the built package (`dist/`, see `ensureBuilt`). */
export const DIST_ENTRY = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;

/** A child node process running a TypeScript script through tsx, or a built `.mjs` script. */
export interface ChildScript {
  child: ChildProcess;
  /** Resolves once the child printed this exact line on stdout. */
  waitFor(line: string): Promise<void>;
  /** Lines the child printed so far. */
  lines(): string[];
  /** What the child wrote on stderr so far. */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Writes `source` to `<dir>/<name>.mts` and runs it with `node --import tsx`, with `GEMINI_CLI_HOME` (and the rest
 * of the environment) inherited, so the child stores sessions where the test reads them.
 */
export async function runChild(
  dir: string,
  name: string,
  source: string,
  nodeArgs: readonly string[] = [],
): Promise<ChildScript> {
  const file = join(dir, `${name}.mts`);
  await writeFile(file, source);
  return watchChild(
    spawn(process.execPath, [...nodeArgs, '--import', 'tsx', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: ROOT,
      env: process.env,
    }),
  );
}

/**
 * Writes `source` to `<dir>/<name>.mjs` and runs it with plain `node` (no tsx), so it exercises the built
 * package through {@link DIST_ENTRY}; `env` is added to the inherited environment.
 */
export async function runBuiltChild(
  dir: string,
  name: string,
  source: string,
  env: NodeJS.ProcessEnv = {},
): Promise<ChildScript> {
  const file = join(dir, `${name}.mjs`);
  await writeFile(file, source);
  return watchChild(
    spawn(process.execPath, [file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
      env: { ...process.env, ...env },
    }),
  );
}

function watchChild(child: ChildProcess): ChildScript {
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const lines = () => out.split('\n').filter((l) => l !== '');
  const waitFor = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lines().includes(line)) {
          child.stdout?.off('data', check);
          resolve();
        }
      };
      child.stdout?.on('data', check);
      check();
      void exited.then(({ code, signal }) => {
        if (!lines().includes(line)) {
          reject(new Error(`child exited (${code ?? signal}) before printing "${line}": ${err}`));
        }
      });
    });
  return { child, waitFor, lines, stderr: () => err, exited };
}

/** One replay line (gemini-cli's `fakeResponses` format) answering with these parts. */
export function replayLine(parts: object[]): string {
  return JSON.stringify({
    method: 'generateContentStream',
    response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] }],
  });
}
