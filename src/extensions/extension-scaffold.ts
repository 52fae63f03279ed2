import { existsSync } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { contextFileProblem, ExtensionError, readExtensionManifest } from './extension-manifest.js';

/** The starting points `extensions new <path> <template>` offers. */
export const EXTENSION_TEMPLATES = [
  'context',
  'exclude-tools',
  'hooks',
  'mcp-server',
  'policies',
  'skills',
] as const;
/** One of {@link EXTENSION_TEMPLATES}. */
export type ExtensionTemplate = (typeof EXTENSION_TEMPLATES)[number];

const MCP_SERVER = `// A dependency-free MCP server over stdio (one JSON-RPC message per line) with one tool.
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const tools = [
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  if (message.method === 'initialize') {
    reply({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'example', version: '1.0.0' } });
  } else if (message.method === 'tools/list') {
    reply({ tools });
  } else if (message.method === 'tools/call') {
    const { a, b } = message.params.arguments;
    reply({ content: [{ type: 'text', text: String(a + b) }] });
  } else {
    send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
`;

const HOOK_SCRIPT = `// Runs before every shell command: refuses "rm -rf", allows the rest.
let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  const command = String(event.tool_input?.command ?? '');
  process.stdout.write(
    JSON.stringify(command.includes('rm -rf') ? { decision: 'deny', reason: 'rm -rf is not allowed.' } : {}),
  );
});
`;

/** The files of a template, relative to the new folder (objects are written as JSON). */
function templateFiles(
  name: string,
  template: ExtensionTemplate | undefined,
): Record<string, string | object> {
  const manifest: Record<string, unknown> = { name, version: '1.0.0' };
  const files: Record<string, string | object> = {};
  switch (template) {
    case 'context':
      manifest['contextFileName'] = 'GEMINI.md';
      files['GEMINI.md'] =
        `# ${name}\n\nInstructions for the model while this extension is enabled.\n`;
      break;
    case 'exclude-tools':
      manifest['excludeTools'] = ['run_shell_command'];
      break;
    case 'hooks':
      files['hooks/hooks.json'] = {
        hooks: {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              hooks: [
                {
                  type: 'command',
                  name: 'no-rm-rf',
                  command: 'node ${extensionPath}${/}hooks${/}check.js',
                },
              ],
            },
          ],
        },
      };
      files['hooks/check.js'] = HOOK_SCRIPT;
      break;
    case 'mcp-server':
      manifest['mcpServers'] = {
        example: { command: 'node', args: ['${extensionPath}${/}server.js'] },
      };
      files['server.js'] = MCP_SERVER;
      files['package.json'] = { name, version: '1.0.0', type: 'module', private: true };
      break;
    case 'policies':
      files['policies/policies.toml'] =
        '# Extension rules may deny or ask; allow rules and yolo-mode rules are ignored.\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git push"\ndecision = "ask_user"\npriority = 100\n';
      break;
    case 'skills':
      files['skills/example/SKILL.md'] =
        '---\nname: example\ndescription: What the skill does and when to use it.\n---\n\nStep-by-step instructions for the model.\n';
      break;
    case undefined:
      break;
  }
  return { 'gemini-extension.json': manifest, ...files };
}

/**
 * Creates a new extension folder (gemini-cli's `extensions new`): a manifest named after the folder, version
 * 1.0.0, and the files of `template`.
 *
 * @throws ExtensionError `Path already exists: <path>` or for an unknown template.
 */
export async function createExtensionFolder(
  path: string,
  template?: string,
): Promise<{ path: string; files: string[] }> {
  if (template !== undefined && !(EXTENSION_TEMPLATES as readonly string[]).includes(template)) {
    throw new ExtensionError(
      `Unknown template "${template}". Choose one of: ${EXTENSION_TEMPLATES.join(', ')}.`,
    );
  }
  try {
    await access(path);
    throw new ExtensionError(`Path already exists: ${path}`);
  } catch (error) {
    if (error instanceof ExtensionError) throw error;
  }
  const name = basename(resolve(path)).replace(/[^a-zA-Z0-9-]/g, '-');
  const files = templateFiles(name, template as ExtensionTemplate | undefined);
  await mkdir(path, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    const target = join(path, file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(
      target,
      typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
    );
  }
  return { path, files: Object.keys(files).sort() };
}

const SEMVER = /^[=v]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Checks an extension folder as gemini-cli's `extensions validate` does: the manifest must load; context files must
 * lie inside the folder and exist; a version that is not semver is a warning.
 */
export function validateExtensionFolder(
  path: string,
  cwd: string,
): { name: string | undefined; warnings: string[]; errors: string[] } {
  const dir = resolve(cwd, path);
  let manifest;
  try {
    manifest = readExtensionManifest(dir, cwd);
  } catch (error) {
    return { name: undefined, warnings: [], errors: [(error as Error).message] };
  }
  const warnings: string[] = [];
  const errors: string[] = [];
  if (manifest.contextFileName !== undefined) {
    const names = Array.isArray(manifest.contextFileName)
      ? manifest.contextFileName
      : [manifest.contextFileName];
    const missing: string[] = [];
    for (const name of names) {
      const problem = contextFileProblem(name, dir);
      if (problem !== undefined)
        errors.push(`Invalid context file path: "${String(name)}". ${problem}`);
      else if (!existsSync(resolve(dir, name as string))) missing.push(name as string);
    }
    if (missing.length > 0) {
      errors.push(
        `The following context files referenced in gemini-extension.json are missing: ${missing.join(',')}`,
      );
    }
  }
  if (!SEMVER.test(manifest.version.trim())) {
    warnings.push(
      `Warning: Version '${manifest.version}' does not appear to be standard semver (e.g., 1.0.0).`,
    );
  }
  return { name: manifest.name, warnings, errors };
}
