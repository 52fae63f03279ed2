/** Paths, build check, machine facts and temp directories shared by the benchmark scenarios. */
import process from 'node:process';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (the folder holding package.json). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bench/ folder. */
export const BENCH = join(ROOT, 'bench');
/** The built package. */
export const DIST = join(ROOT, 'dist');
/** Where the peer gemini-cli is installed on demand (git-ignored). */
export const PEER = join(BENCH, '.peer');
/** The shared recorded fixtures. */
export const FIXTURES = '/work/shared/fixtures/gemini-cli-sdk-test-data';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the package when dist/ is missing (or older than src/ when `rebuildIfStale`). A build that reports
 * errors but leaves dist/index.js in place is used, and the note says so.
 * @returns {{ built: boolean, note: string }}
 */
export function ensureBuilt({ force = false, rebuildIfStale = true } = {}) {
  const entry = join(DIST, 'index.js');
  const missing = !existsSync(entry);
  const stale =
    !missing && rebuildIfStale && newestMtime(join(ROOT, 'src')) > statSync(entry).mtimeMs;
  if (!force && !missing && !stale) return { built: false, note: 'dist/ is up to date' };
  const why = force ? 'forced' : missing ? 'dist/ missing' : 'src/ newer than dist/';
  process.stderr.write(`bench: npm run build (${why})…\n`);
  const res = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) {
    const msg = `npm run build failed (${why}): ${(res.stdout + res.stderr).trim().slice(0, 2000)}`;
    if (!existsSync(entry)) throw new Error(msg);
    // tsc still emits JavaScript when only type errors are reported.
    process.stderr.write(`bench: ${msg}\nbench: continuing with what tsc emitted into dist/.\n`);
    return { built: false, note: `npm run build reported errors (${why}); dist/ as emitted` };
  }
  return { built: true, note: `built (${why})` };
}

/**
 * True when every listed module was built into dist/: its `.js` file, or its `.d.ts` when the build bundled the
 * module into an entry point or a chunk (scripts/bundle-dist.mjs), or — declarations pruned — its source file.
 */
export function distHas(...relPaths) {
  return relPaths.every(
    (p) =>
      existsSync(join(DIST, p)) ||
      existsSync(join(DIST, p.replace(/\.js$/, '.d.ts'))) ||
      (existsSync(join(DIST, 'index.js')) &&
        existsSync(join(ROOT, 'src', p.replace(/\.js$/, '.ts')))),
  );
}

/** The named exports of a built module, or undefined when it cannot be imported. */
export async function exportsOf(relPath) {
  const path = join(DIST, relPath);
  if (!existsSync(path)) return undefined;
  try {
    return await import(path);
  } catch (err) {
    process.stderr.write(`bench: cannot import dist/${relPath}: ${String(err)}\n`);
    return undefined;
  }
}

/** Machine facts for the report. */
export function machine() {
  let gitCommit = 'unknown';
  try {
    gitCommit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .trim()
      .concat(
        execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim()
          ? ' (+ uncommitted changes)'
          : '',
      );
  } catch {
    // not a git checkout
  }
  const cpuList = cpus();
  return {
    nproc: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    kernel: readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim(),
    loadAvgAtStart: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    gitCommit,
  };
}

/** A fresh temp directory; `cleanup()` removes every one made so far. */
const made = [];
export function tempDir(prefix = 'h8-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function cleanupTempDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Parses the last line of a child's stdout as JSON (children print one JSON result line). */
export function lastJsonLine(stdout) {
  const lines = stdout.trim().split('\n').filter(Boolean);
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      return JSON.parse(lines[i]);
    } catch {
      // keep looking
    }
  }
  return undefined;
}
