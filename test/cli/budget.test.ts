import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';
import { parseStreamJson } from './helpers/stream-json-schema.js';

function reply(
  parts: object[],
  promptTokenCount: number,
  candidatesTokenCount: number,
): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount,
        candidatesTokenCount,
        totalTokenCount: promptTokenCount + candidatesTokenCount,
      },
    } as GenerateContentResponse,
  ];
}

const listCall = reply(
  [{ functionCall: { name: 'list_directory', args: { dir_path: '.' } } }],
  400,
  20,
);

let project: TempProject;
let server: FakeGeminiServer | undefined;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await project.cleanup();
});

async function serve(...turns: GenerateContentResponse[][]): Promise<NodeJS.ProcessEnv> {
  server = new FakeGeminiServer({ turns });
  const url = await server.start();
  return cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url });
}

describe('gemini-agent budgets', () => {
  it('--max-tokens pauses before the call that would cross it (exit 56); -r with a higher limit and no prompt continues', async () => {
    const env = await serve(listCall, reply([{ text: 'Two files.' }], 600, 4));
    const paused = await runCli(
      ['-p', 'List the files.', '--max-tokens', '450', '-o', 'stream-json'],
      {
        cwd: project.cwd,
        env,
      },
    );
    expect(paused.code).toBe(56);
    expect(server?.requests).toHaveLength(1);
    const lines = parseStreamJson(paused.stdout);
    const init = lines[0];
    if (init?.type !== 'init') throw new Error('no init line');
    expect(lines.filter((l) => l.type === 'tool_result')).toHaveLength(1);
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      status: 'error',
      error: { type: 'BudgetPausedError' },
      stats: { total_tokens: 420, cost_usd: (400 * 1.25 + 20 * 10) / 1e6 },
    });
    const result = lines.at(-1);
    const message = result?.type === 'result' ? (result.error?.message ?? '') : '';
    expect(message).toContain('over --max-tokens 450');
    expect(message).toContain(`gemini-agent -r ${init.session_id} --max-tokens 900`);

    // Continued in a new process: the model gets the tool result it had not seen, no new prompt.
    const continued = await runCli(['-r', init.session_id, '--max-tokens', '5000', '-o', 'json'], {
      cwd: project.cwd,
      env,
    });
    expect(continued.stderr).toBe('');
    expect(continued.code).toBe(0);
    const body = JSON.parse(continued.stdout) as {
      response: string;
      stats: { cost: { totalUsd: number; byModel: Record<string, number | null> } };
    };
    expect(body.response).toBe('Two files.');
    expect(body.stats.cost.byModel).toEqual({ 'gemini-2.5-pro': (600 * 1.25 + 4 * 10) / 1e6 });
    const sent = server?.requests[1]?.body as {
      contents: Array<{ role: string; parts: object[] }>;
    };
    expect(sent.contents.at(-1)?.parts[0]).toHaveProperty('functionResponse');
    expect(JSON.stringify(sent.contents)).not.toContain('"text":""');
  });

  it('--max-cost pauses on dollars; resuming without raising it pauses again at once', async () => {
    const env = await serve(listCall);
    const args = ['-p', 'List the files.', '--max-cost', '0.0006'];
    const paused = await runCli(args, { cwd: project.cwd, env });
    expect(paused.code).toBe(56);
    expect(paused.stderr).toContain('over --max-cost $0.0006');
    const id = /gemini-agent -r (\S+)/.exec(paused.stderr)?.[1];
    expect(id).toBeDefined();
    // The limit is stored with the session: no new model call until it is raised.
    const again = await runCli(['-r', id ?? ''], { cwd: project.cwd, env });
    expect(again.code).toBe(56);
    expect(server?.requests).toHaveLength(1);
  });

  it('-r without a prompt on a session that is not paused is bad input (42); bad amounts are flag errors (1)', async () => {
    const env = await serve(reply([{ text: 'Hi.' }], 10, 2));
    const first = await runCli(['-p', 'Hello', '-o', 'json'], { cwd: project.cwd, env });
    expect(first.code).toBe(0);
    const { session_id: id } = JSON.parse(first.stdout) as { session_id: string };
    const none = await runCli(['-r', id], { cwd: project.cwd, env });
    expect(none.code).toBe(42);
    expect(none.stderr).toContain('no turn paused on its budget');
    for (const [flag, value] of [
      ['--max-cost', '-1'],
      ['--max-cost', 'ten'],
      ['--max-cost', '0'],
      ['--max-tokens', '1.5'],
      ['--max-tokens', '0'],
    ] as const) {
      const bad = await runCli(['-p', 'x', flag, value], { cwd: project.cwd, env });
      expect(bad.code, `${flag} ${value}`).toBe(1);
      expect(bad.stderr).toContain(flag);
    }
  });

  it('--max-cost on a model without a price is a configuration error (52) that says how to add one', async () => {
    const env = await serve(reply([{ text: 'Hi.' }], 10, 2));
    const result = await runCli(['-p', 'Hello', '-m', 'my-tuned-model', '--max-cost', '1'], {
      cwd: project.cwd,
      env,
    });
    expect(result.code).toBe(52);
    expect(result.stderr).toContain('No price for model "my-tuned-model"');
    expect(server?.requests).toHaveLength(0);
  });
});
