/**
 * Records what the reference `gemini` CLI (0.61) does for a series of `gemini extensions …` commands, in a temp
 * HOME with a trusted project folder and a local extension source, into
 * test/cli/fixtures/gemini-0.61-extension-commands.json: each step's exit code, output (paths replaced by
 * <BASE>), the files of ~/.gemini/extensions afterwards and the enablement file. test/cli/extensions.test.ts
 * replays the steps against gemini-agent.
 *
 *   node scripts/gemini-reference/record-extension-commands.mjs
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { execFileSync, spawnSync } from 'node:child_process';
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
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
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
  'gemini-0.61-extension-commands.json',
);

/** The extension sources laid out under <BASE>/src (objects are written as JSON). */
export const SOURCES = {
  'demo/gemini-extension.json': {
    name: 'demo',
    version: '1.0.0',
    description: 'A demo extension',
    contextFileName: 'GEMINI.md',
    excludeTools: ['web_fetch'],
    mcpServers: {
      local: {
        command: 'node',
        args: ['${extensionPath}${/}server.js'],
        env: { API_TOKEN: 'secret', MODE: 'x' },
      },
      remote: {
        httpUrl: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer t' },
        timeout: 5000,
      },
    },
  },
  'demo/GEMINI.md': 'Demo context.\n',
  'demo/hooks/hooks.json': {
    hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'true' }] }] },
  },
  'demo/skills/greet/SKILL.md': '---\nname: greet\ndescription: Greets people.\n---\nSay hi.\n',
  'plain/gemini-extension.json': { name: 'plain', version: '2.0' },
  'bad/gemini-extension.json': { name: 'bad name', version: '1.0.0' },
};

const STEPS = [
  ['extensions', 'list'],
  ['extensions', 'install', '../src/demo', { input: 'n\n' }],
  ['extensions', 'install', '../src/demo', '--consent'],
  ['extensions', 'install', '../src/demo', '--consent'],
  ['extensions', 'install', '../src/missing', '--consent'],
  ['extensions', 'install', '../src/bad', '--consent'],
  ['extensions', 'link', '../src/plain', '--consent'],
  ['extensions', 'list'],
  ['extensions', 'disable', 'demo'],
  ['extensions', 'enable', 'demo', '--scope', 'workspace'],
  ['extensions', 'list'],
  ['extensions', 'enable', 'demo'],
  ['extensions', 'disable', 'demo', '--scope=workspace'],
  ['extensions', 'disable', 'nope'],
  ['extensions', 'uninstall', 'nope'],
  ['extensions', 'uninstall', '<BASE>/src/PLAIN'],
  ['extensions', 'uninstall', 'demo'],
  ['extensions', 'list'],
  ['extensions', 'validate', '../src/plain'],
  ['extensions', 'validate', '../src/bad'],
  ['extensions', 'new', '../made'],
];

function layOut(root, files) {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

/** Every file under dir (relative path → text), or null when dir is missing. */
function tree(dir) {
  if (!existsSync(dir)) return null;
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

const base = realpathSync(mkdtempSync(join(tmpdir(), 'record-ext-')));
const home = join(base, 'home');
const cwd = join(base, 'project');
mkdirSync(join(home, '.gemini'), { recursive: true });
mkdirSync(cwd);
layOut(join(base, 'src'), SOURCES);
writeFileSync(
  join(home, '.gemini', 'trustedFolders.json'),
  JSON.stringify({ [cwd]: 'TRUST_FOLDER', [join(base, 'src')]: 'TRUST_FOLDER' }),
);
writeFileSync(
  join(home, '.gemini', 'settings.json'),
  JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
);
const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', TERM: 'dumb' };
const norm = (text) => (text ?? '').split(base).join('<BASE>');
const steps = STEPS.map((step) => {
  const input = typeof step.at(-1) === 'object' ? step.at(-1).input : '';
  const argv = step.filter((a) => typeof a === 'string');
  const args = argv.map((a) => a.replace('<BASE>', base));
  const r = spawnSync(gemini, args, { cwd, env, encoding: 'utf8', timeout: 60_000, input });
  const extensions = tree(join(home, '.gemini', 'extensions'));
  return {
    argv,
    ...(input === '' ? {} : { input }),
    status: r.status,
    stdout: norm(r.stdout),
    stderr: norm(r.stderr),
    extensions: extensions && JSON.parse(norm(JSON.stringify(extensions))),
  };
});
const recordedWith = execFileSync(gemini, ['--version'], { env, encoding: 'utf8' }).trim();
writeFileSync(out, `${JSON.stringify({ recordedWith, sources: SOURCES, steps }, null, 2)}\n`);
rmSync(base, { recursive: true, force: true });
process.stdout.write(`wrote ${out}\n`);
