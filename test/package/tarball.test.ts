/**
 * The package as a user gets it: `npm pack` of a copy of this checkout (its `prepack` builds dist), installed from
 * the tarball into an empty `npm init -y` project (CommonJS, as npm makes it) from the npm cache when it can. Then
 * what a user does first: ESM import, `require()`, `npx tsx` and `tsc` in that CommonJS project, the
 * `gemini-agent` bin, and `gemini-agent-sdk/testing` without vitest installed. The installed size is measured.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/**
 * A cap on the whole install (file contents of `node_modules` of an empty project after `npm install <tarball>`),
 * so growth is a decision. Issue 17's target is 40 MB: the protocol SDKs (`openai`, `@agentclientprotocol/sdk`,
 * `@modelcontextprotocol/sdk`) are optional peer dependencies and not part of it, and the small libraries the
 * build inlines (`INLINED`) are not installed at all, which brings the install to 39.8 MB (37.9 MiB).
 * docs/packaging.md, "Installed footprint", has the figures.
 */
const MAX_INSTALLED_BYTES = 40 * 1024 * 1024;

/** The packages scripts/bundle-dist.mjs vendors into `dist/_vendor/`: never installed with the package. */
const INLINED = [
  ...new Set(
    Object.values(
      JSON.parse(
        readFileSync(join(ROOT, 'scripts', 'inlined-dependencies.json'), 'utf8'),
      ) as Record<string, string[]>,
    )
      .flat()
      .map((id) =>
        id
          .split('/')
          .slice(0, id.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  ),
];

/** The optional peer dependencies: not installed with the package, loaded by the feature that needs them. */
const OPTIONAL_PEERS = ['openai', '@agentclientprotocol/sdk', '@modelcontextprotocol/sdk'] as const;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string) {
  return new Promise<Run>((resolve) => {
    execFile(
      command,
      [...args],
      {
        cwd,
        timeout: 240_000,
        maxBuffer: 32 * 1024 * 1024,
        env: cleanEnv(),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** PATH, HOME and npm's cache only: no credentials, no GEMINI_* from the machine. */
function cleanEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'npm_config_cache', 'NPM_CONFIG_CACHE', 'npm_config_registry'];
  const env: NodeJS.ProcessEnv = { HOME: home, GEMINI_CLI_HOME: home, CI: 'true' };
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
  // npm's cache stays the machine's (that is what makes the install work offline).
  env['npm_config_cache'] ??= join(process.env['HOME'] ?? '', '.npm');
  return env;
}

const npm = (args: readonly string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], cwd);
const node = (args: readonly string[], cwd: string) => run(process.execPath, args, cwd);

/** The size of every file below `path` (their contents; directory entries not counted). */
async function contentBytes(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of await readdir(path)) total += await contentBytes(join(path, entry));
  return total;
}

let base: string;
let home: string;
let app: string;
let tarball: string;
let packed: string[];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'gemini-agent-tarball-'));
  home = join(base, 'home');
  await mkdir(home);
  // A copy of the checkout (tracked and untracked-but-not-ignored files), so building dist never touches the
  // dist/ other tests use; its node_modules is this checkout's.
  const repo = join(base, 'repo');
  const files = await run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    ROOT,
  );
  expect(files.code).toBe(0);
  // node_modules is linked below (a symlinked one, as in a git worktree, is not matched by `node_modules/`).
  const listed = files.stdout.split('\0').filter((f) => f !== '' && f !== 'node_modules');
  for (const file of listed) {
    await cp(join(ROOT, file), join(repo, file), { recursive: true }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
  await symlink(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
  const pack = await npm(['pack', '--json', '--pack-destination', base], repo);
  expect(pack.stderr).not.toMatch(/error/i);
  expect(pack.code).toBe(0);
  const [info] = JSON.parse(pack.stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = join(base, info?.filename ?? '');
  packed = (info?.files ?? []).map((f) => f.path);

  app = join(base, 'app');
  await mkdir(app);
  expect((await npm(['init', '-y'], app)).code).toBe(0);
  const install = await npm(['install', '--prefer-offline', tarball], app);
  expect(install.stderr).toBe('');
  expect(install.code).toBe(0);
}, 600_000);

afterAll(async () => {
  if (base !== undefined) await rm(base, { recursive: true, force: true });
});

/** A tool call answered by a ScriptedModel, then a shell command parsed by the vendored bash grammar. */
const SCRIPT = (load: string) => `${load}
const add = tool(
  { name: 'add', description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }) },
  ({ a, b }) => a + b,
);
const model = new ScriptedModel([callTurn({ name: 'add', args: { a: 2, b: 3 } }), textTurn('five')]);
const agent = new GeminiCliAgent({ contentGenerator: model, builtinTools: false, persist: false, tools: [add] });
let text = '';
let output;
for await (const event of agent.sendStream('add')) {
  if (event.type === 'content') text += event.value;
  if (event.type === 'tool_call_response') output = event.value.responseParts[0]?.functionResponse?.response?.['output'];
}
const engine = await createPolicyEngine({});
const why = await engine.explain({ name: 'run_shell_command', args: { command: 'ls && rm -rf x' } }, { mode: 'default' });
console.log(JSON.stringify({ text, output, steps: why.steps.map((s) => s.command) }));
`;
const EXPECTED = { text: 'five', output: '5', steps: ['ls', 'rm -rf x'] };

describe('the packed tarball, installed into an empty CommonJS project', () => {
  it('ships dist, the vendored grammar and runtime, and the licences — no sources, maps or tests', () => {
    expect(packed).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(packed).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/testing/index.js',
        'dist/testing/vitest/index.js',
        'dist/postgres/index.js',
        'dist/cli/main.js',
        'vendor/tree-sitter-bash/tree-sitter-bash.wasm.gz',
        'vendor/tree-sitter-bash/LICENSE',
        'vendor/web-tree-sitter/web-tree-sitter.cjs',
        'vendor/web-tree-sitter/web-tree-sitter.wasm.gz',
        'vendor/web-tree-sitter/LICENSE',
      ]),
    );
    expect(packed.filter((p) => /^src\/|\.map$|\.test\.|^test\//.test(p))).toEqual([]);
  });

  it(`installs in at most ${MAX_INSTALLED_BYTES / 1024 / 1024} MiB, without the optional peers, tree-sitter packages or vitest`, async () => {
    const modules = join(app, 'node_modules');
    const total = await contentBytes(modules);
    const sizes: Array<[string, number]> = [];
    for (const name of await readdir(modules)) {
      const names = name.startsWith('@')
        ? (await readdir(join(modules, name))).map((n) => `${name}/${n}`)
        : [name];
      for (const pkg of names) sizes.push([pkg, await contentBytes(join(modules, pkg))]);
    }
    const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const largest = sizes
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([pkg, size]) => `${pkg} ${mib(size)}`);
    expect(total, `installed: ${mib(total)}; largest: ${largest.join(', ')}`).toBeLessThanOrEqual(
      MAX_INSTALLED_BYTES,
    );
    const installed = await readdir(modules);
    for (const peer of OPTIONAL_PEERS) {
      expect(existsSync(join(modules, peer)), `${peer} is an optional peer`).toBe(false);
    }
    for (const name of INLINED) {
      expect(installed, `${name} is vendored into dist`).not.toContain(name);
      expect(
        existsSync(join(modules, 'gemini-agent-sdk', 'dist', 'licenses', name, 'LICENSE')),
      ).toBe(true);
    }
    expect(installed).not.toContain('tree-sitter-bash');
    expect(installed).not.toContain('web-tree-sitter');
    expect(installed).not.toContain('vitest');
  });

  it('ESM: import the package and its testing kit', async () => {
    await writeFile(
      join(app, 'esm.mjs'),
      SCRIPT(`import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import { createPolicyEngine } from 'gemini-agent-sdk/policy';
import { ScriptedModel, callTurn, textTurn } from 'gemini-agent-sdk/testing';`),
    );
    const result = await node(['esm.mjs'], app);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
  });

  it('the inlined libraries work from the install (Ajv, TOML, linear regexes, YAML, diff, ipaddr.js)', async () => {
    await writeFile(
      join(app, 'inlined.mjs'),
      `import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GeminiCliAgent, tool, skillDir } from 'gemini-agent-sdk';
import { ScriptedModel, callTurn, textTurn } from 'gemini-agent-sdk/testing';
const dir = mkdtempSync(join(tmpdir(), 'inlined-'));
writeFileSync(join(dir, 'deny.toml'),
  '[[rule]]\\ntoolName = "echo"\\nargsPattern = "\\\\"text\\\\":\\\\"no+\\\\""\\ndecision = "deny"\\npriority = 500\\n');
mkdirSync(join(dir, 'skills', 'greet'), { recursive: true });
writeFileSync(join(dir, 'skills', 'greet', 'SKILL.md'), '---\\nname: greet\\ndescription: "Greets: politely"\\n---\\nSay hi.\\n');
const echo = tool(
  { name: 'echo', description: 'Echoes',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  ({ text }) => text,
);
const model = new ScriptedModel([
  callTurn({ name: 'echo', args: {} }),
  callTurn({ name: 'echo', args: { text: 'nooo' } }),
  callTurn({ name: 'echo', args: { text: 'yes' } }),
  callTurn({ name: 'write_file', args: { file_path: join(dir, 'a.txt'), content: 'one\\ntwo\\n' } }),
  callTurn({ name: 'activate_skill', args: { name: 'greet' } }),
  callTurn({ name: 'web_fetch', args: { prompt: 'summarise http://127.0.0.1:9/x' } }),
  textTurn('done'),
]);
const agent = new GeminiCliAgent({
  contentGenerator: model, persist: false, cwd: dir, settings: false, tools: [echo],
  skills: [skillDir(join(dir, 'skills'))], policy: { mode: 'yolo', files: [join(dir, 'deny.toml')] },
});
const out = [];
for await (const event of agent.session().sendStream('go')) {
  if (event.type === 'tool_call_response') {
    const v = event.value;
    out.push({ name: v.name, response: v.responseParts[0].functionResponse.response, hunk: v.fileDiff?.fileDiff });
  }
}
console.log(JSON.stringify(out));`,
    );
    const result = await node(['inlined.mjs'], app);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as Array<{
      name: string;
      response: { output?: string; error?: string };
      hunk?: string;
    }>;
    expect(out.map((o) => o.name)).toEqual([
      'echo',
      'echo',
      'echo',
      'write_file',
      'activate_skill',
      'web_fetch',
    ]);
    expect(out[0]!.response.error).toBe("params must have required property 'text'"); // Ajv
    expect(out[1]!.response.error).toBe('Tool execution denied by policy.'); // smol-toml + re2js
    expect(out[2]!.response.output).toBe('yes');
    expect(out[3]!.hunk).toContain('@@ -0,0 +1,2 @@\n+one\n+two\n'); // diff
    expect(out[4]!.response.output).toContain('Say hi.'); // js-yaml frontmatter
    expect(out[5]!.response.error).toContain('[Blocked Host] http://127.0.0.1:9/x'); // ipaddr.js
  });

  it('CommonJS: require() the package and its testing kit (no vitest needed)', async () => {
    await writeFile(
      join(app, 'cjs.cjs'),
      `(async () => {${SCRIPT(`const { GeminiCliAgent, tool, z } = require('gemini-agent-sdk');
const { createPolicyEngine } = require('gemini-agent-sdk/policy');
const { ScriptedModel, callTurn, textTurn } = require('gemini-agent-sdk/testing');`)}})().catch((e) => { console.error(e); process.exit(1); });`,
    );
    const result = await node(['cjs.cjs'], app);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED);
    const vitest = await node(['-e', "require.resolve('vitest')"], app);
    expect(vitest.code).not.toBe(0);
  });

  it('TypeScript in the CommonJS project: npx tsx runs it and tsc type-checks it', async () => {
    await writeFile(
      join(app, 'main.ts'),
      `import { GeminiCliAgent, tool, z, type ServerGeminiStreamEvent } from 'gemini-agent-sdk';
import { createPolicyEngine } from 'gemini-agent-sdk/policy';
import { ScriptedModel, callTurn, textTurn } from 'gemini-agent-sdk/testing';
const seen: ServerGeminiStreamEvent['type'][] = [];
// Real types, not any: these must be errors (checked by tsc, never run).
export function typeChecks(): void {
  // @ts-expect-error a prompt is a string or Part[]
  void new GeminiCliAgent({}).sendStream(42);
  // @ts-expect-error unknown option
  void new GeminiCliAgent({ instructionz: 'x' });
}
async function main(): Promise<void> {
${SCRIPT('').replace("if (event.type === 'content')", "seen.push(event.type);\n  if (event.type === 'content')")}
}
main().catch((e: unknown) => { console.error(e); process.exit(1); });
`,
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['main.ts'],
      }),
    );
    const tsx = await node([TSX, 'main.ts'], app);
    expect(tsx.stderr).toBe('');
    expect(JSON.parse(tsx.stdout)).toEqual(EXPECTED);
    const tsc = await node([TSC, '-p', 'tsconfig.json'], app);
    expect(tsc.stdout).toBe('');
    expect(tsc.code).toBe(0);
  }, 180_000);

  it('the gemini-agent bin runs', async () => {
    const bin = join(app, 'node_modules', '.bin', 'gemini-agent');
    const version = await run(bin, ['--version'], app);
    expect(version.stdout.trim()).toBe('0.1.0');
    const replay = join(app, 'hello.jsonl');
    await writeFile(
      replay,
      `${JSON.stringify({
        method: 'generateContentStream',
        response: [
          {
            candidates: [
              { content: { role: 'model', parts: [{ text: 'Hello!' }] }, finishReason: 'STOP' },
            ],
          },
        ],
      })}\n`,
    );
    const answer = await run(
      bin,
      ['-p', 'Say hello', '--fake-responses', replay, '-o', 'json'],
      app,
    );
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toMatchObject({ response: 'Hello!' });
  });
});

/** Runs an ES module script in the app and returns what it printed as JSON. */
async function runScript(name: string, source: string): Promise<Record<string, unknown>> {
  await writeFile(join(app, name), source);
  const result = await node([name], app);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const FEATURES_PRELUDE = `import { GeminiCliAgent, GeminiCliAcpServer, MissingDependencyError, openAICompatible } from 'gemini-agent-sdk';
import { FakeOpenAIServer, ScriptedModel, textTurn } from 'gemini-agent-sdk/testing';
const out = {};
const typed = (e) => ({ typed: e instanceof MissingDependencyError, code: e?.code, packageName: e?.packageName, message: e?.message });
const scripted = (text) => ({ contentGenerator: new ScriptedModel([textTurn(text)]), builtinTools: false, persist: false, trustWorkspace: true });
async function drain(stream) {
  const events = [];
  for await (const e of stream) events.push(e);
  return events;
}
`;

describe('the optional peer dependencies', () => {
  it('a feature whose package is missing fails with MissingDependencyError naming the npm install', async () => {
    const out = await runScript(
      'without-peers.mjs',
      `${FEATURES_PRELUDE}
const ai = new GeminiCliAgent({ builtinTools: false, persist: false, retry: false, model: 'llama3.2',
  provider: openAICompatible({ baseURL: 'http://127.0.0.1:9/v1' }) });
try { await drain(ai.session().sendStream('hi')); out.openai = 'no error'; } catch (e) { out.openai = typed(e); }

const pair = new TransformStream();
try { await new GeminiCliAcpServer(new GeminiCliAgent(scripted('x'))).connect(pair); out.acp = 'no error'; }
catch (e) { out.acp = typed(e); }

const mcp = new GeminiCliAgent({ ...scripted('still answering'), mcpServers: { files: { command: process.execPath, args: ['-e', ''] } } });
out.mcpStatus = (await mcp.mcp.status()).map((s) => ({ name: s.name, state: s.state, reason: s.reason }));
try { await mcp.mcp.getPrompt('files', 'greet'); out.mcpPrompt = 'no error'; } catch (e) { out.mcpPrompt = typed(e); }
const events = await drain(mcp.session().sendStream('hi'));
out.mcpSend = events.filter((e) => e.type === 'content').map((e) => e.value).join('');
out.mcpWarnings = events.filter((e) => e.type === 'warning').map((e) => e.value.code);
console.log(JSON.stringify(out));
`,
    );
    const install = (pkg: string, range: string) =>
      expect.objectContaining({
        typed: true,
        code: 'MISSING_DEPENDENCY',
        packageName: pkg,
        message: expect.stringContaining(`npm install "${pkg}@${range}"`) as unknown,
      });
    expect(out['openai']).toEqual(install('openai', '^6.49.0'));
    expect(out['acp']).toEqual(install('@agentclientprotocol/sdk', '^2.4.0'));
    expect(out['mcpPrompt']).toEqual(install('@modelcontextprotocol/sdk', '^1.32.2'));
    expect(out['mcpStatus']).toEqual([
      {
        name: 'files',
        state: 'failed',
        reason: expect.stringContaining(
          'npm install "@modelcontextprotocol/sdk@^1.32.2"',
        ) as unknown,
      },
    ]);
    // The agent still answers; the missing MCP SDK is a warning on the stream.
    expect(out['mcpSend']).toBe('still answering');
    expect(out['mcpWarnings']).toContain('MCP_SERVER_FAILED');

    const bin = join(app, 'node_modules', '.bin', 'gemini-agent');
    const acp = await run(bin, ['--acp'], app);
    expect(acp.code).not.toBe(0);
    expect(acp.stderr).toContain('npm install "@agentclientprotocol/sdk@^2.4.0"');
    expect(acp.stdout).toBe('');
  });

  it('installed next to the package, the peers make those features work', async () => {
    const add = await npm(
      [
        'install',
        '--prefer-offline',
        'openai@6.49.0',
        '@agentclientprotocol/sdk@2.4.0',
        '@modelcontextprotocol/sdk@1.32.2',
      ],
      app,
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    await writeFile(
      join(app, 'greeter.mjs'),
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'greeter', version: '1.0.0' });
server.registerPrompt('greet', { description: 'Greets' }, () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'hello from mcp' } }],
}));
await server.connect(new StdioServerTransport());
`,
    );
    const out = await runScript(
      'with-peers.mjs',
      `${FEATURES_PRELUDE}
const server = new FakeOpenAIServer({ turns: [textTurn('from openai')] });
await server.start();
const ai = new GeminiCliAgent({ builtinTools: false, persist: false, retry: false, model: 'llama3.2',
  provider: openAICompatible({ baseURL: server.baseUrl + '/v1' }) });
out.openai = (await drain(ai.session().sendStream('hi'))).filter((e) => e.type === 'content').map((e) => e.value).join('');
await server.close();

const toServer = new TransformStream();
const fromServer = new TransformStream();
const connection = await new GeminiCliAcpServer(new GeminiCliAgent(scripted('x'))).connect({ readable: toServer.readable, writable: fromServer.writable });
const writer = toServer.writable.getWriter();
await writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }) + '\\n'));
const reader = fromServer.readable.getReader();
let text = '';
while (!text.includes('\\n')) { const { value, done } = await reader.read(); if (done) break; text += new TextDecoder().decode(value); }
out.acp = JSON.parse(text.split('\\n')[0]).result?.protocolVersion;
await writer.close();
await connection.closed;

const mcp = new GeminiCliAgent({ ...scripted('x'), mcpServers: { greeter: { command: process.execPath, args: ['greeter.mjs'] } } });
out.mcpStatus = (await mcp.mcp.status()).map((s) => s.state);
out.mcpPrompt = (await mcp.mcp.getPrompt('greeter', 'greet')).parts;
await mcp.close();
console.log(JSON.stringify(out));
`,
    );
    expect(out).toEqual({
      openai: 'from openai',
      acp: 1,
      mcpStatus: ['connected'],
      mcpPrompt: [{ text: 'hello from mcp' }],
    });
  }, 300_000);
});
