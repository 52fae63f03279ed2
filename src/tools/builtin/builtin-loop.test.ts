import type { Content } from '@google/genai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeminiCliAgent } from '../../agent/agent.js';
import { ScriptedModel, callTurn, textTurn } from '../../testing/scripted-model.js';
import { createBuiltinTools } from './create-builtin-tools.js';

let base: string;
let ws: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-builtin-loop-'));
  ws = path.join(base, 'project');
  await mkdir(path.join(ws, 'src'), { recursive: true });
  await writeFile(path.join(ws, 'README.md'), '# Demo\nThis project greets people.\n');
  await writeFile(path.join(ws, 'src', 'greet.ts'), 'export const greet = () => "hi";\n');
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('served by loopback');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
});

/** Runs one turn in which the model calls `name(args)`, and returns what the model got back. */
async function callThroughLoop(
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const model = new ScriptedModel([callTurn({ name, args }), textTurn('done')]);
  const agent = new GeminiCliAgent({
    builtinTools: false,
    contentGenerator: model,
    retry: false,
    cwd: ws,
    tools: createBuiltinTools('all', { webFetch: { allowPrivateHosts: true } }),
    // Edits, shell and web_fetch ask under the default policy (denied with nobody to ask): run them all.
    policy: { mode: 'yolo' },
  });
  const session = agent.session();
  for await (const _event of session.sendStream(`please use ${name}`)) {
    // drain
  }
  const contents = (model.generateRequests[1]?.contents ?? []) as Content[];
  const last = contents[contents.length - 1];
  const response = last?.parts?.find((p) => p.functionResponse)?.functionResponse;
  expect(response?.name).toBe(name);
  return (response?.response ?? {}) as Record<string, unknown>;
}

describe('built-in tools called by a scripted model through the agent loop', () => {
  it('read_file', async () => {
    expect(await callThroughLoop('read_file', { file_path: 'README.md' })).toEqual({
      output: '# Demo\nThis project greets people.\n',
    });
  });

  it('list_directory', async () => {
    const real = await import('node:fs/promises').then((fs) => fs.realpath(ws));
    expect(await callThroughLoop('list_directory', { dir_path: '.' })).toEqual({
      output: `Directory listing for ${real}:\n[DIR] src\nREADME.md (35 bytes)`,
    });
  });

  it('glob, grep_search and read_many_files', async () => {
    const real = await import('node:fs/promises').then((fs) => fs.realpath(ws));
    expect((await callThroughLoop('glob', { pattern: '**/*.ts' })).output).toBe(
      `Found 1 file(s) matching "**/*.ts" within ${real}, sorted by modification time (newest first):\n${path.join(real, 'src/greet.ts')}`,
    );
    expect((await callThroughLoop('grep_search', { pattern: 'greets' })).output).toBe(
      'Found 1 match for pattern "greets" in the workspace directory:\n---\nFile: README.md\nL1- # Demo\nL2: This project greets people.\nL3- \n---',
    );
    expect((await callThroughLoop('read_many_files', { include: ['src/*.ts'] })).output).toBe(
      `--- ${path.join(real, 'src/greet.ts')} ---\n\nexport const greet = () => "hi";\n\n\n\n\n--- End of content ---`,
    );
  });

  it('write_file and replace change files inside the workspace', async () => {
    const written = await callThroughLoop('write_file', {
      file_path: 'notes.txt',
      content: 'one\n',
    });
    expect(String(written.output)).toMatch(
      /^Successfully created and wrote to new file: .*notes\.txt\./,
    );
    const replaced = await callThroughLoop('replace', {
      file_path: 'notes.txt',
      instruction: 'one to two',
      old_string: 'one',
      new_string: 'two',
    });
    expect(String(replaced.output)).toMatch(
      /^Successfully modified file: .*notes\.txt \(1 replacements\)\./,
    );
    expect(await readFile(path.join(ws, 'notes.txt'), 'utf8')).toBe('two\n');
    const refused = await callThroughLoop('write_file', {
      file_path: '../escape.txt',
      content: 'x',
    });
    expect(String(refused.error)).toContain('Path not in workspace');
  });

  it('run_shell_command and web_fetch', async () => {
    const shell = await callThroughLoop('run_shell_command', { command: 'cat README.md | wc -l' });
    expect(String(shell.output)).toMatch(
      /^<untrusted_context>\nOutput: 2\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    const fetched = await callThroughLoop('web_fetch', { prompt: `read ${origin}/x` });
    expect(fetched.output).toBe(
      `<untrusted_context>\n<source url="${origin}/x">\nserved by loopback\n</source>\n</untrusted_context>`,
    );
  });
});
