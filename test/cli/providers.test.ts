import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer, callTurn, textTurn } from '../../src/testing/index.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

let project: TempProject;
let server: FakeOpenAIServer;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  server = new FakeOpenAIServer();
  await server.start();
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

describe('gemini-agent with other providers', () => {
  it('-m ollama:<model> runs a tool turn against OLLAMA_HOST and prints the answer', async () => {
    server.enqueue(
      callTurn({ name: 'list_directory', args: { dir_path: '.' }, id: 'l1' }),
      textTurn('An empty folder.'),
    );
    const result = await runCli(['-m', 'ollama:llama3.2', '-p', 'What is here?', '-o', 'json'], {
      cwd: project.cwd,
      env: cleanEnv(project, { OLLAMA_HOST: server.baseUrl }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ response: 'An empty folder.' });
    expect(server.chatBodies.map((b) => b['model'])).toEqual(['llama3.2', 'llama3.2']);
  });

  it('-m openai:<model> without OPENAI_API_KEY exits 41 saying what to set', async () => {
    const result = await runCli(['-m', 'openai:gpt-4.1', '-p', 'hi'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(41);
    expect(result.stderr).toContain('set OPENAI_API_KEY');
  });
});
