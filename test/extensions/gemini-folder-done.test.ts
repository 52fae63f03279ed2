/**
 * Issue 22's "done when": an extension folder written for gemini-cli 0.61 — an MCP server (the real
 * `@modelcontextprotocol/server-everything`, shipped in the folder's node_modules), GEMINI.md, a skill, a command
 * hook, a policy and an agent, with a setting from its `.env` — loads unchanged through `extensionDir()` and each
 * part takes effect in a session.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import type { Content, GenerateContentParameters } from '@google/genai';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { extensionDir, GeminiCliAgent, type ServerGeminiStreamEvent } from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';
import {
  completeTurn,
  declaredTools,
  invokeTurn,
  lastResponses,
  systemText,
} from '../subagents/helpers.js';

const require = createRequire(import.meta.url);
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ext-done-')));
  mkdirSync(join(root, 'proj'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

/** The folder as a gemini-cli extension author writes it (nothing SDK-specific in it). */
function writeExtension(dir: string): void {
  write(join(dir, 'gemini-extension.json'), {
    name: 'cloud-kit',
    version: '1.2.0',
    description: 'Cloud helpers',
    mcpServers: {
      everything: {
        command: 'node',
        args: [
          '${extensionPath}${/}node_modules${/}@modelcontextprotocol${/}server-everything${/}dist${/}index.js',
          'stdio',
        ],
        env: { KIT_HOME: '${extensionPath}', KIT_REGION: '${KIT_DEFAULT_REGION}' },
        trust: true,
      },
    },
    settings: [{ name: 'Region', description: 'Default region', envVar: 'KIT_DEFAULT_REGION' }],
  });
  write(join(dir, '.env'), 'KIT_DEFAULT_REGION=eu-west-4\n');
  const pkg = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
  mkdirSync(join(dir, 'node_modules', '@modelcontextprotocol'), { recursive: true });
  symlinkSync(pkg, join(dir, 'node_modules', '@modelcontextprotocol', 'server-everything'), 'dir');
  write(join(dir, 'GEMINI.md'), 'Buckets are named after the project.');
  write(
    join(dir, 'skills', 'bucket-naming', 'SKILL.md'),
    '---\nname: bucket-naming\ndescription: Names buckets in ${KIT_DEFAULT_REGION}\n---\nUse ${extensionPath}${/}names.txt.\n',
  );
  const guard = {
    name: 'read-guard',
    type: 'command',
    command: 'node "${extensionPath}${/}hooks${/}guard.js"',
    timeout: 30_000,
  };
  write(join(dir, 'hooks', 'hooks.json'), {
    hooks: { BeforeTool: [{ matcher: 'read_file', hooks: [guard] }] },
  });
  write(
    join(dir, 'hooks', 'guard.js'),
    "process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'guarded in ' + process.env.KIT_DEFAULT_REGION }));\n",
  );
  write(
    join(dir, 'policies', 'safety.toml'),
    '[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 100\n\n' +
      '[[rule]]\ntoolName = "list_directory"\nargsPattern = "secret"\ndecision = "deny"\npriority = 100\ndenyMessage = "cloud-kit keeps secrets"\n\n' +
      '[[rule]]\ntoolName = "mcp_everything_get-env"\ndecision = "allow"\npriority = 100\n',
  );
  write(
    join(dir, 'agents', 'bucket-auditor.md'),
    '---\nname: bucket-auditor\ndescription: Audits buckets in ${KIT_DEFAULT_REGION}\n---\n' +
      'Audit ${query} in ${KIT_DEFAULT_REGION} with the list at ${extensionPath}${/}audit.txt.\n',
  );
}

const firstTurnText = (request: GenerateContentParameters | undefined): string =>
  ((request?.contents as Content[])[0]?.parts ?? []).map((p) => p.text ?? '').join('\n');

it('a gemini-cli 0.61 extension folder loads unchanged: MCP, GEMINI.md, skill, command hook, policy and agent take effect', async () => {
  const dir = join(root, 'cloud-kit');
  writeExtension(dir);
  write(join(root, 'proj', 'notes.txt'), 'private');
  const approvals: string[] = [];
  const model = new ScriptedModel([
    (request) => {
      // GEMINI.md in the first turn's context, the hydrated skill and the agent in the system prompt.
      expect(firstTurnText(request)).toContain(
        `--- Context from: ${join(dir, 'GEMINI.md')} ---\nBuckets are named after the project.`,
      );
      const system = systemText(request);
      expect(system).toContain('<description>Names buckets in eu-west-4</description>');
      expect(system).toContain('<name>bucket-auditor</name>');
      expect(system).toContain('Audits buckets in eu-west-4');
      expect(declaredTools(request)).toEqual(
        expect.arrayContaining(['mcp_everything_get-env', 'invoke_agent', 'activate_skill']),
      );
      // The policy's unconditional deny removes write_file from the tools offered (as gemini-cli does).
      expect(declaredTools(request)).not.toContain('write_file');
      return callTurn(
        { name: 'mcp_everything_get-env', id: 'env' },
        { name: 'read_file', args: { file_path: 'notes.txt' }, id: 'read' },
        { name: 'list_directory', args: { dir_path: 'secret' }, id: 'list' },
      );
    },
    (request) => {
      const [env, read, list] = lastResponses(request) as Array<Record<string, unknown>>;
      // The MCP server ran from the folder, with ${extensionPath} and the setting in its environment.
      const serverEnv = String(env?.['output']);
      expect(serverEnv).toContain(`"KIT_HOME": ${JSON.stringify(dir)}`);
      expect(serverEnv).toContain('"KIT_REGION": "eu-west-4"');
      expect(serverEnv).toContain('"KIT_DEFAULT_REGION": "eu-west-4"');
      // The command hook (run through ${extensionPath}, with the setting in its env) blocked the read.
      expect(String(read?.['error'])).toContain('guarded in eu-west-4');
      // The policy's argument rule denied the listing.
      expect(String(list?.['error'])).toContain('cloud-kit keeps secrets');
      return invokeTurn('bucket-auditor', 'the backups bucket');
    },
    (request) => {
      // The agent's body, hydrated with the extension's variables, then templated with the task.
      expect(systemText(request)).toContain(
        `Audit the backups bucket in eu-west-4 with the list at ${dir}${sep}audit.txt.`,
      );
      return completeTurn({ result: 'audited' });
    },
    (request) => {
      expect(JSON.stringify(lastResponses(request))).toContain('audited');
      return textTurn('done');
    },
  ]);
  const agent = new GeminiCliAgent({
    contentGenerator: model,
    persist: false,
    settings: false,
    trustWorkspace: true,
    agentDiscovery: false,
    cwd: join(root, 'proj'),
    extensions: [extensionDir(dir)],
    onApproval: (request) => {
      approvals.push(request.toolName);
      return 'allow';
    },
  });
  const events: ServerGeminiStreamEvent[] = [];
  try {
    for await (const event of agent.session().sendStream('Audit the buckets')) events.push(event);
  } finally {
    await agent.close();
  }
  expect(events.flatMap((e) => (e.type === 'error' ? [e.value] : []))).toEqual([]);
  expect(model.generateRequests).toHaveLength(4);
  // The extension's allow rule was dropped (gemini-cli ignores ALLOW rules of extensions), so the MCP call was
  // asked about; the denied calls never were.
  expect(approvals).toContain('mcp_everything_get-env');
  expect(approvals).not.toContain('list_directory');
  expect(approvals).not.toContain('read_file');
  const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.value.message] : []));
  expect(warnings).toContain(
    '[PolicyConfig] Extension "cloud-kit" attempted to contribute an ALLOW rule for tool "mcp_everything_get-env". Ignoring this rule for security.',
  );
});
