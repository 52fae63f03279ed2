import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer, callTurn, textTurn } from '../../src/testing/index.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

let project: TempProject;
let server: FakeOpenAIServer;
const more: FakeOpenAIServer[] = [];
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  server = new FakeOpenAIServer();
  await server.start();
});
afterEach(async () => {
  await Promise.all([server, ...more.splice(0)].map((s) => s.close()));
  await project.cleanup();
});

async function serve(options: ConstructorParameters<typeof FakeOpenAIServer>[0]) {
  const started = new FakeOpenAIServer(options);
  more.push(started);
  await started.start();
  return started;
}

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

  it('--base-url sends -m as given to that server, with the key from --api-key-env only', async () => {
    const vllm = await serve({ apiKey: 'sk-vllm', turns: [textTurn('From vLLM.')] });
    const env = cleanEnv(project, { VLLM_API_KEY: 'sk-vllm', OPENAI_API_KEY: 'sk-openai-only' });
    const args = ['--base-url', `${vllm.baseUrl}/v1`, '-m', 'Qwen/Qwen3-8B'];
    const result = await runCli([...args, '--api-key-env', 'VLLM_API_KEY', '-p', 'hi'], {
      cwd: project.cwd,
      env,
    });
    expect(result.stderr).toBe('');
    expect([result.code, result.stdout]).toEqual([0, 'From vLLM.\n']);
    expect(vllm.chatBodies[0]?.['model']).toBe('Qwen/Qwen3-8B');
    expect(vllm.requests[0]?.headers['authorization']).toBe('Bearer sk-vllm');

    // Without --api-key-env no key is sent, not even OPENAI_API_KEY.
    const keyless = await serve({ turns: [textTurn('ok')] });
    const plain = await runCli(
      ['--base-url', `${keyless.baseUrl}/v1`, '-m', 'llama3.2', '-p', 'hi'],
      {
        cwd: project.cwd,
        env,
      },
    );
    expect(plain.code).toBe(0);
    expect(keyless.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('--base-url without -m exits 42; an unset --api-key-env exits 41 saying what to export', async () => {
    const noModel = await runCli(['--base-url', `${server.baseUrl}/v1`, '-p', 'hi'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(noModel.code).toBe(42);
    expect(noModel.stderr).toContain('--base-url needs -m <model>');
    const unset = await runCli(
      ['--base-url', `${server.baseUrl}/v1`, '-m', 'x', '--api-key-env', 'NOT_SET_KEY', '-p', 'hi'],
      { cwd: project.cwd, env: cleanEnv(project) },
    );
    expect(unset.code).toBe(41);
    expect(unset.stderr).toContain('NOT_SET_KEY is not set');
    expect(server.requests).toHaveLength(0);
  });
});
