import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
/** The built bin the tests spawn. */
export const CLI_MAIN = join(ROOT, 'dist', 'cli', 'main.js');

const LOCK_DIR = join(ROOT, '.tmp', 'cli-build.lock');
const LOCK_STALE_MS = 5 * 60_000;

async function newestSourceMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSourceMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, (await stat(path)).mtimeMs);
    }
  }
  return newest;
}

async function isStale(): Promise<boolean> {
  const built = await stat(CLI_MAIN).catch(() => undefined);
  if (built === undefined) return true;
  return (await newestSourceMtime(join(ROOT, 'src'))) > built.mtimeMs;
}

async function acquireLock(): Promise<void> {
  await mkdir(join(ROOT, '.tmp'), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK_DIR);
      return;
    } catch {
      const info = await stat(LOCK_DIR).catch(() => undefined);
      if (info !== undefined && Date.now() - info.mtimeMs > LOCK_STALE_MS) {
        await rm(LOCK_DIR, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Makes sure `dist/` holds a build of the current sources (CI builds before testing, so this is then a
 * no-op). Test files run in parallel, so the build runs under a lock directory and at most once.
 */
export async function ensureBuilt(): Promise<string> {
  if (!(await isStale())) return CLI_MAIN;
  await acquireLock();
  try {
    if (await isStale()) {
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
        cwd: ROOT,
      }).catch((error: unknown) => {
        // tsc still emits when another module has type errors; the tests then exercise what was emitted.
        process.stderr.write(`[cli tests] tsc reported errors: ${String(error)}\n`);
      });
      if (await isStale()) throw new Error(`Building ${CLI_MAIN} failed: run npm run build.`);
    }
  } finally {
    await rm(LOCK_DIR, { recursive: true, force: true });
  }
  return CLI_MAIN;
}
