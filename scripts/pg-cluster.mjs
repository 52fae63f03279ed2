/**
 * A throwaway PostgreSQL for tests and benchmarks: `startPostgres()` creates a cluster in a temporary folder
 * with Debian's `initdb`/`pg_ctl` (`/usr/lib/postgresql/<version>/bin`, newest first, or `PG_BIN`), listening on
 * a free loopback port, and `stop()` stops it (only that postmaster, by its data folder) and removes the folder.
 * Running as root, the server runs as the `postgres` user (created as `gemini-agent-pg` when missing), since
 * PostgreSQL refuses to run as root. When `PG_URL` is set, no cluster is started: a fresh database is created on
 * that server instead and dropped by `stop()`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import process from 'node:process';
import { URL } from 'node:url';
import { join } from 'node:path';

const FALLBACK_USER = 'gemini-agent-pg';

function findBinDir() {
  const fromEnv = process.env['PG_BIN'];
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return join(root, versions[0], 'bin');
  throw new Error(
    'PostgreSQL is not installed: run `apt-get install -y postgresql` (Debian), set PG_BIN to the folder ' +
      'holding initdb and pg_ctl, or set PG_URL to a server the tests may create databases on.',
  );
}

function idOf(user) {
  const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The identity the server runs as: ourselves, or a non-root user when we are root. */
function serverIdentity() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const existing = idOf('postgres') ?? idOf(FALLBACK_USER);
  if (existing) return existing;
  execFileSync('useradd', [
    '--system',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    FALLBACK_USER,
  ]);
  const created = idOf(FALLBACK_USER);
  if (!created) throw new Error(`could not create the user ${FALLBACK_USER} to run PostgreSQL as`);
  return created;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function run(bin, args, identity, what) {
  const result = spawnSync(bin, args, {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' },
    ...(identity ?? {}),
  });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

async function onExistingServer(url) {
  const { default: pg } = await import('pg');
  const name = `gas_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    external: true,
    async stop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Starts a cluster (or, with `PG_URL`, creates a database). Options: `durable` keeps PostgreSQL's default
 * durability (fsync, synchronous commit) — benchmarks want it; tests default to fsync off for speed.
 *
 * @param {{ durable?: boolean, maxConnections?: number }} [options]
 * @returns {Promise<{ url: string, external: boolean, stop(): Promise<void> }>}
 */
export async function startPostgres(options = {}) {
  const external = process.env['PG_URL'];
  if (external) return onExistingServer(external);
  const bin = findBinDir();
  const identity = serverIdentity();
  const dir = mkdtempSync(join(tmpdir(), 'gas-pg-'));
  if (identity) chownSync(dir, identity.uid, identity.gid);
  const data = join(dir, 'data');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    run(
      join(bin, 'initdb'),
      ['-D', data, '--no-sync', '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C'],
      identity,
      'initdb',
    );
  } catch (err) {
    cleanup();
    throw err;
  }
  const settings = [
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    `-c max_connections=${options.maxConnections ?? 100}`,
    '-c shared_buffers=32MB',
    ...(options.durable
      ? []
      : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ];
  let port;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const args = [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '30',
      '-o',
      `${settings.join(' ')} -p ${port}`,
    ];
    try {
      run(join(bin, 'pg_ctl'), [...args, 'start'], identity, 'pg_ctl start');
      break;
    } catch (err) {
      if (attempt >= 2) {
        cleanup();
        throw err;
      }
    }
  }
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopSync);
    try {
      run(
        join(bin, 'pg_ctl'),
        ['-D', data, '-m', 'immediate', '-w', 'stop'],
        identity,
        'pg_ctl stop',
      );
    } finally {
      cleanup();
    }
  };
  process.on('exit', stopSync);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    external: false,
    async stop() {
      stopSync();
    },
  };
}
