/**
 * Records what the reference `gemini` CLI (0.61) does for `gemini extensions update` and `gemini extensions config`
 * in a temp HOME with a trusted project folder: local sources under <BASE>/src, a git source served on loopback by
 * scripts/git-http-server.mjs (<GIT> in the output), and sources changed between steps. Writes
 * test/cli/fixtures/gemini-0.61-extension-update.json: each step's exit code and output (paths replaced by <BASE>),
 * the files of ~/.gemini/extensions, the project's .env and the decrypted secrets of gemini's file keychain
 * (~/.gemini/gemini-credentials.json). test/cli/extensions-update.test.ts replays the steps against gemini-agent.
 *
 *   node scripts/gemini-reference/record-extension-update.mjs
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { execFile, spawn } from 'node:child_process';
import { createDecipheriv, scryptSync } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startGitHttpServer } from '../git-http-server.mjs';

const gemini = process.env.GEMINI_BIN ?? '/work/ref/gemini/node_modules/.bin/gemini';
const out = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test',
  'cli',
  'fixtures',
  'gemini-0.61-extension-update.json',
);
const run = promisify(execFile);

const demo = (version, extra = {}) => ({
  'demo/gemini-extension.json': { name: 'demo', version, description: 'Demo', ...extra },
  'demo/GEMINI.md': `Demo context ${version}.\n`,
});
const tools = (version, extra = {}) => ({
  'tools/gemini-extension.json': { name: 'tools', version, ...extra },
  'tools/GEMINI.md': `Tools ${version}.\n`,
});
const cfg = (version, extraSettings = []) => ({
  'cfg/gemini-extension.json': {
    name: 'cfg',
    version,
    settings: [
      { name: 'API key', description: 'Your key', envVar: 'CFG_API_KEY' },
      { name: 'Token', description: 'Secret token', envVar: 'CFG_TOKEN', sensitive: true },
      ...extraSettings,
    ],
  },
});

/** The sources at the start: local folders under <BASE>/src and the git work tree <BASE>/gitwork. */
export const SOURCES = {
  ...demo('1.0.0'),
  ...cfg('1.0.0'),
  'plain/gemini-extension.json': { name: 'plain', version: '2.0' },
};
export const GIT_SOURCES = tools('1.0.0');

const SERVER = { command: 'node', args: ['${extensionPath}${/}server.js'] };
/** Steps: a command line (with the answers it is given, `input`), or `{ write }` (local sources) / `{ commit }` (the git source). */
export const STEPS = [
  ['extensions', 'install', '../src/demo', '--consent'],
  ['extensions', 'update', 'demo'],
  { write: demo('1.1.0') },
  ['extensions', 'update', 'demo'],
  ['extensions', 'update', 'nope'],
  ['extensions', 'update', '--all'],
  ['extensions', 'install', '<GIT>/tools.git', '--consent'],
  ['extensions', 'update', 'tools'],
  { commit: tools('2.0.0', { mcpServers: { srv: SERVER } }) },
  ['extensions', 'update', '--all', { input: ['n'] }],
  ['extensions', 'list'],
  ['extensions', 'update', '--all', { input: ['y'] }],
  ['extensions', 'list'],
  ['extensions', 'link', '../src/plain', '--consent'],
  ['extensions', 'update', 'plain'],
  ['extensions', 'update'],
  ['extensions', 'update', 'demo', '--all'],
  { write: { 'demo/gemini-extension.json': { name: 'demo-two', version: '3.0.0' } } },
  ['extensions', 'disable', 'demo', '--scope', 'workspace'],
  ['extensions', 'update', 'demo', { input: ['y'] }],
  ['extensions', 'list'],
  ['extensions', 'install', '../src/cfg', '--consent', { input: ['key-1', 'tok-1'] }],
  ['extensions', 'list'],
  ['extensions', 'config', 'cfg', 'API key', { input: ['key-2'] }],
  ['extensions', 'config', 'cfg', 'CFG_TOKEN', { input: ['tok-2'] }],
  ['extensions', 'config', 'cfg', '--scope', 'workspace', { input: ['wkey', 'wtok'] }],
  ['extensions', 'list'],
  ['extensions', 'config', 'cfg', { input: ['n', 'y', 'key-3'] }],
  ['extensions', 'config', 'cfg', 'NOPE'],
  ['extensions', 'config', 'nope'],
  ['extensions', 'config', '../x'],
  ['extensions', 'config', 'demo-two'],
  { write: cfg('1.1.0', [{ name: 'Region', description: 'Where', envVar: 'CFG_REGION' }]) },
  ['extensions', 'update', 'cfg', { input: ['eu'] }],
  ['extensions', 'list'],
  ['extensions', 'config', 'cfg', 'CFG_API_KEY', { input: [''] }],
  ['extensions', 'list'],
];

function layOut(root, files) {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

/** Every file under dir (relative path → text; `.git` left out), or null when dir is missing. */
function tree(dir) {
  if (!existsSync(dir)) return null;
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** gemini's FileKeychain, decrypted (key: scrypt of the host and user names). */
function keychain(home) {
  const file = join(home, '.gemini', 'gemini-credentials.json');
  if (!existsSync(file)) return null;
  const [iv, tag, data] = readFileSync(file, 'utf8').split(':');
  const key = scryptSync('gemini-cli-oauth', `${hostname()}-${userInfo().username}-gemini-cli`, 32);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'hex'));
  decipher.setAuthTag(Buffer.from(tag, 'hex'));
  return JSON.parse(decipher.update(data, 'hex', 'utf8') + decipher.final('utf8'));
}

/**
 * Runs gemini, typing the answers one at a time: each once its output has been quiet for a while (it is waiting
 * at a prompt). prompts (the settings questions) reads keypresses, so a line ends with a carriage return.
 */
function spawnGemini(args, options, answers) {
  return new Promise((resolve) => {
    const child = spawn(gemini, args, options);
    let stdout = '';
    let stderr = '';
    const pending = [...answers];
    let idle;
    const onOutput = () => {
      clearTimeout(idle);
      if (pending.length === 0) return;
      idle = setTimeout(() => {
        child.stdin.write(`${pending.shift()}\r`);
        if (pending.length === 0) child.stdin.end();
      }, 2500);
    };
    child.stdout.on('data', (c) => {
      stdout += c;
      onOutput();
    });
    child.stderr.on('data', (c) => {
      stderr += c;
      onOutput();
    });
    if (pending.length === 0) child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      clearTimeout(idle);
      resolve({ status, stdout, stderr });
    });
  });
}

const base = realpathSync(mkdtempSync(join(tmpdir(), 'record-ext-update-')));
const home = join(base, 'home');
const cwd = join(base, 'project');
const gitWork = join(base, 'gitwork');
const gitRoot = join(base, 'git');
mkdirSync(join(home, '.gemini'), { recursive: true });
mkdirSync(cwd);
mkdirSync(gitRoot);
layOut(join(base, 'src'), SOURCES);
layOut(gitWork, GIT_SOURCES);
const git = (args, dir = join(gitWork, 'tools')) =>
  run('git', ['-c', 'user.email=r@example.com', '-c', 'user.name=r', ...args], { cwd: dir });
await git(['init', '-q', '-b', 'main']);
await git(['add', '-A']);
await git(['commit', '-qm', 'v1']);
await run('git', ['clone', '-q', '--bare', join(gitWork, 'tools'), join(gitRoot, 'tools.git')]);
await git(['remote', 'add', 'origin', join(gitRoot, 'tools.git')]);
const server = await startGitHttpServer(gitRoot);
writeFileSync(
  join(home, '.gemini', 'trustedFolders.json'),
  JSON.stringify({ [cwd]: 'TRUST_FOLDER', [join(base, 'src')]: 'TRUST_FOLDER' }),
);
writeFileSync(
  join(home, '.gemini', 'settings.json'),
  JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
);
const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', TERM: 'dumb' };
const norm = (text) => (text ?? '').split(base).join('<BASE>').split(server.url).join('<GIT>');
const steps = [];
try {
  for (const step of STEPS) {
    if (!Array.isArray(step)) {
      if (step.write) layOut(join(base, 'src'), step.write);
      if (step.commit) {
        layOut(gitWork, step.commit);
        await git(['add', '-A']);
        await git(['commit', '-qm', 'change']);
        await git(['push', '-q', 'origin', 'HEAD:main']);
      }
      steps.push(step);
      continue;
    }
    const input = typeof step.at(-1) === 'object' ? step.at(-1).input : [];
    const argv = step.filter((a) => typeof a === 'string');
    const args = argv.map((a) => a.replace('<BASE>', base).replace('<GIT>', server.url));
    const r = await spawnGemini(args, { cwd, env }, input);
    const extensions = tree(join(home, '.gemini', 'extensions'));
    const projectEnv = existsSync(join(cwd, '.env'))
      ? readFileSync(join(cwd, '.env'), 'utf8')
      : null;
    steps.push({
      argv,
      ...(input.length === 0 ? {} : { input }),
      status: r.status,
      stdout: norm(r.stdout),
      stderr: norm(r.stderr),
      extensions: extensions && JSON.parse(norm(JSON.stringify(extensions))),
      projectEnv,
      keychain: JSON.parse(norm(JSON.stringify(keychain(home)))),
    });
    process.stdout.write(`${argv.join(' ')} → ${r.status}\n`);
  }
} finally {
  await server.close();
}
const recordedWith = (await run(gemini, ['--version'], { env })).stdout.trim();
writeFileSync(
  out,
  `${JSON.stringify({ recordedWith, sources: SOURCES, gitSources: GIT_SOURCES, steps }, null, 2)}\n`,
);
rmSync(base, { recursive: true, force: true });
process.stdout.write(`wrote ${out}\n`);
