/** The peer `gemini` CLI (@google/gemini-cli), installed on demand into the git-ignored bench/.peer/. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEER } from './env.mjs';

/** The pinned peer version (the one the baselines were measured with). */
export const PEER_VERSION = '0.61.0';
const PKG = '@google/gemini-cli';

function installedVersion() {
  const file = join(PEER, 'node_modules', '@google', 'gemini-cli', 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Makes sure bench/.peer holds @google/gemini-cli@PEER_VERSION.
 * @returns {{ ok: true, bin: string, installed: boolean } | { ok: false, reason: string }}
 */
export function ensurePeer(log = () => {}) {
  const bin = join(PEER, 'node_modules', '.bin', 'gemini');
  if (installedVersion() === PEER_VERSION && existsSync(bin))
    return { ok: true, bin, installed: false };
  log(`  installing ${PKG}@${PEER_VERSION} into bench/.peer …`);
  mkdirSync(PEER, { recursive: true });
  const res = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      PEER,
      '--no-audit',
      '--no-fund',
      '--save-exact',
      `${PKG}@${PEER_VERSION}`,
    ],
    { encoding: 'utf8', timeout: 600_000 },
  );
  if (res.status !== 0 || installedVersion() !== PEER_VERSION || !existsSync(bin)) {
    return {
      ok: false,
      reason: `npm install ${PKG}@${PEER_VERSION} failed (exit ${res.status}): ${(res.stderr || '').trim().slice(-600)}`,
    };
  }
  return { ok: true, bin, installed: true };
}

/**
 * Writes the settings the peer needs to run headless and offline: no folder-trust prompt, no usage statistics.
 * @param {string} home a temp directory used as GEMINI_CLI_HOME
 */
export function writePeerSettings(home) {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify(
      {
        security: { folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
      },
      null,
      2,
    ),
  );
}
