/**
 * Real MCP servers for the tests, started on loopback: `@modelcontextprotocol/server-everything` over stdio, SSE and
 * Streamable HTTP, `@modelcontextprotocol/server-filesystem` over stdio, and our fault server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../../../src/mcp/mcp-config.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

function packageFile(name: string, file: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), file);
}

/** The everything server over stdio. */
export function everythingStdio(extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    command: process.execPath,
    args: [packageFile('@modelcontextprotocol/server-everything', 'dist/index.js'), 'stdio'],
    ...extra,
  };
}

/** The filesystem server over stdio, allowed into `dir`. */
export function filesystemStdio(
  dir: string,
  extra: Partial<McpServerConfig> = {},
): McpServerConfig {
  return {
    command: process.execPath,
    args: [packageFile('@modelcontextprotocol/server-filesystem', 'dist/index.js'), dir],
    ...extra,
  };
}

/** Our fault server (see servers/fault-server.mjs) in one of its modes. */
export function faultServer(
  mode = 'default',
  extra: Partial<McpServerConfig> & { pidFile?: string } = {},
): McpServerConfig {
  const { pidFile, env, ...rest } = extra;
  return {
    command: process.execPath,
    args: [join(here, '..', 'servers', 'fault-server.mjs')],
    env: { FAULT_MODE: mode, ...(pidFile ? { FAULT_PID_FILE: pidFile } : {}), ...env },
    ...rest,
  };
}

/** A network server process and its address. */
export interface NetworkServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the everything server in `sse` (endpoint `/sse`) or `streamableHttp` (endpoint `/mcp`) mode on loopback. */
export async function startEverything(mode: 'sse' | 'streamableHttp'): Promise<NetworkServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(here, '..', 'servers', 'loopback-everything.mjs'), mode],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      buffered += chunk;
      const match = /LISTENING (\d+)/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) =>
      reject(new Error(`everything server exited with ${code}: ${buffered}`)),
    );
    child.once('error', reject);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Whether a process with this pid exists (zombies excluded on Linux). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Waits until `check` holds (polling every 20 ms, at most `ms`). */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
