/**
 * Records what the reference `gemini` CLI (0.61) writes for a series of `gemini mcp add|remove` commands, in a
 * temp HOME with a trusted project folder, into test/cli/fixtures/gemini-0.61-mcp-commands.json (exit code,
 * output and both settings files after each step). test/cli/mcp.test.ts replays the steps against gemini-agent.
 *
 *   node scripts/gemini-reference/record-mcp-commands.mjs
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const gemini = process.env.GEMINI_BIN ?? '/work/ref/gemini/node_modules/.bin/gemini';
const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test',
  'cli',
  'fixtures',
  'gemini-0.61-mcp-commands.json',
);
const STEPS = [
  [
    'mcp',
    'add',
    '--scope',
    'user',
    'files',
    'npx',
    '-y',
    '@modelcontextprotocol/server-filesystem',
    '/tmp',
    '-e',
    'FOO=bar',
    '--trust',
    '--description',
    'Local files',
    '--include-tools',
    'read_file',
    '--exclude-tools',
    'write_file',
    '--timeout',
    '5000',
  ],
  [
    'mcp',
    'add',
    '-t',
    'http',
    'gh',
    'https://example.com/mcp',
    '-H',
    'Authorization: Bearer $TOKEN',
    '-H',
    'X-A: b:c',
  ],
  ['mcp', 'add', '--transport', 'sse', 'events', 'http://127.0.0.1:9/sse', '--timeout', '100'],
  ['mcp', 'add', 'py', 'python', '--', '-m', 'server', '--port', '1'],
  ['mcp', 'add', '--type', 'http', 'gh', 'https://other.example/mcp'],
  ['mcp', 'remove', 'events'],
  ['mcp', 'remove', 'nope'],
  ['mcp', 'remove', '--scope', 'user', 'files'],
];

const base = mkdtempSync(join(tmpdir(), 'record-mcp-'));
const home = join(base, 'home');
const cwd = join(base, 'project');
mkdirSync(join(home, '.gemini'), { recursive: true });
mkdirSync(cwd);
// gemini reads and edits a project's settings only in a trusted folder.
writeFileSync(
  join(home, '.gemini', 'trustedFolders.json'),
  JSON.stringify({ [cwd]: 'TRUST_FOLDER' }),
);
const env = { PATH: process.env.PATH, HOME: home, GEMINI_CLI_HOME: home };
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
const steps = STEPS.map((argv) => {
  const r = spawnSync(gemini, argv, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return {
    argv,
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    user: read(join(home, '.gemini', 'settings.json')),
    project: read(join(cwd, '.gemini', 'settings.json')),
  };
});
const recordedWith = execFileSync(gemini, ['--version'], { env, encoding: 'utf8' }).trim();
writeFileSync(out, `${JSON.stringify({ recordedWith, steps }, null, 2)}\n`);
rmSync(base, { recursive: true, force: true });
process.stdout.write(`wrote ${out}\n`);
