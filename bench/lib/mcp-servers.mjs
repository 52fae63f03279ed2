/**
 * The three stdio MCP servers of P9 (bench/children/p9-mcp.mjs, bench/p9-startup-cpu.mjs): server-everything,
 * server-filesystem (serving `cwd`) and the fault server of the MCP tests, each run with this Node, trusted.
 */
import process from 'node:process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
const packageFile = (name, file) => join(dirname(require.resolve(`${name}/package.json`)), file);

/**
 * @param {string} cwd the folder server-filesystem serves
 * @returns {Record<string, { command: string, args: string[], trust: true }>}
 */
export function p9Servers(cwd) {
  return {
    everything: {
      command: process.execPath,
      args: [packageFile('@modelcontextprotocol/server-everything', 'dist/index.js'), 'stdio'],
      trust: true,
    },
    filesystem: {
      command: process.execPath,
      args: [packageFile('@modelcontextprotocol/server-filesystem', 'dist/index.js'), cwd],
      trust: true,
    },
    fault: {
      command: process.execPath,
      args: [join(root, 'test', 'mcp', 'servers', 'fault-server.mjs')],
      trust: true,
    },
  };
}
