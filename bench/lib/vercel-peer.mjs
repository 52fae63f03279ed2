/**
 * The peer SDK of P7: the Vercel AI SDK (`ai` + `@ai-sdk/google`), pinned in bench/peers/vercel-ai/package.json
 * and its package-lock.json (devDependencies of the benchmark only — the package never depends on them), installed
 * on demand with `npm ci` into the git-ignored bench/peers/vercel-ai/node_modules/.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from './env.mjs';

/** The peer's folder (its package.json and lockfile are committed). */
export const VERCEL_PEER = join(BENCH, 'peers', 'vercel-ai');

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The pinned versions (from the peer's package.json). */
export function pinnedVersions() {
  return readJson(join(VERCEL_PEER, 'package.json'))?.devDependencies ?? {};
}

function installedVersion(name) {
  return readJson(join(VERCEL_PEER, 'node_modules', ...name.split('/'), 'package.json'))?.version;
}

/**
 * Makes sure the pinned `ai` and `@ai-sdk/google` are installed.
 * @returns {{ ok: true, versions: Record<string, string>, engines: string | undefined, installed: boolean }
 *   | { ok: false, reason: string }}
 */
export function ensureVercelPeer(log = () => {}) {
  const pinned = pinnedVersions();
  const names = ['ai', '@ai-sdk/google'];
  const current = () => names.every((n) => installedVersion(n) === pinned[n]);
  let installed = false;
  if (!current()) {
    log(
      `  installing ${names.map((n) => `${n}@${pinned[n]}`).join(', ')} into bench/peers/vercel-ai …`,
    );
    const res = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', VERCEL_PEER], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (res.status !== 0 || !current()) {
      return {
        ok: false,
        reason: `npm ci --prefix bench/peers/vercel-ai failed (exit ${res.status}): ${(res.stderr || '').trim().slice(-600)}`,
      };
    }
    installed = true;
  }
  const engines = readJson(join(VERCEL_PEER, 'node_modules', 'ai', 'package.json'))?.engines?.node;
  return {
    ok: true,
    versions: Object.fromEntries(names.map((n) => [n, installedVersion(n)])),
    engines,
    installed,
  };
}
