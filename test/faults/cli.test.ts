/**
 * Fault catalogue — the `gemini-agent` CLI: each retry is shown on stderr as it happens (never a silent wait),
 * and failures exit with gemini-cli's codes: 41 when the API rejects the key, 1 for an API or stream failure.
 *
 * Recorded gemini 0.61 behaviour (fixtures/gemini-0.61-faults.json) differs on purpose where it is a bug: it exits
 * 1 (text) or the HTTP status modulo 256 (json: 144/145/147) for a rejected key, and 0 after an invalid stream.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from '../cli/helpers/run-cli.js';
import { chunk, fakeGemini } from './fault-helpers.js';

let project: TempProject;
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.cleanup();
});

function envFor(baseUrl: string) {
  return cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: baseUrl });
}

const ok = (text: string) => ({ chunks: [chunk([{ text }], 'STOP')] as GenerateContentResponse[] });

describe('gemini-agent under faults', () => {
  it.each([
    ['text', 401],
    ['json', 403],
    ['stream-json', 401],
  ])(
    'exits 41 when the API rejects the key (-o %s, HTTP %i), naming GEMINI_API_KEY',
    async (format, status) => {
      const server = await fakeGemini({ status });
      const result = await runCli(['-p', 'hi', '-o', format], {
        cwd: project.cwd,
        env: envFor(server.baseUrl),
      });
      expect(result.code).toBe(41);
      expect(result.stdout + result.stderr).toContain('GEMINI_API_KEY');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('shows a mid-stream retry on stderr and prints the good answer', async () => {
    const server = await fakeGemini(
      { chunks: [chunk([{ text: 'cut off' }])] },
      ok('Whole answer.'),
    );
    const result = await runCli(['-p', 'hi'], { cwd: project.cwd, env: envFor(server.baseUrl) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /Attempt 1\/4 failed: NO_FINISH_REASON \(Model stream ended without a finish reason\.\)\. Re-sending the request in 1 s; the partial answer above is replaced…/,
    );
    expect(result.stdout).toContain('Whole answer.');
  });

  it('shows a connection retry on stderr with the cause and the endpoint', async () => {
    const server = await fakeGemini({ resetBeforeResponse: true }, ok('Connected.'));
    const result = await runCli(['-p', 'hi'], { cwd: project.cwd, env: envFor(server.baseUrl) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(
        `Attempt 1/10 failed: \\w+ at ${server.baseUrl.replace(/\./g, '\\.')} \\(.*\\)\\. Retrying in [\\d.]+ s…`,
      ),
    );
    expect(result.stdout).toBe('Connected.\n');
  }, 30_000);

  it('exits 1 after an invalid stream, with the reason in the error', async () => {
    const cut = { chunks: [chunk([{ text: 'cut' }])] };
    const server = await fakeGemini(cut, cut, cut, cut);
    const result = await runCli(['-p', 'hi', '-o', 'stream-json'], {
      cwd: project.cwd,
      env: envFor(server.baseUrl),
    });
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        type: 'error',
        message: 'Model stream ended without a finish reason.',
      }),
    );
    expect(lines.at(-1)).toMatchObject({ type: 'result', status: 'error' });
    expect(result.stderr.match(/Attempt \d\/4 failed: NO_FINISH_REASON/g)).toHaveLength(3);
  }, 30_000);

  it('the recorded gemini 0.61 behaviour these tests deliberately improve on', async () => {
    const recorded = JSON.parse(
      await readFile(join(ROOT, 'test', 'faults', 'fixtures', 'gemini-0.61-faults.json'), 'utf8'),
    ) as Record<string, { exitCode: number }>;
    expect(recorded['400 API_KEY_INVALID, -o text']?.exitCode).toBe(1);
    expect(recorded['401, -o json']?.exitCode).toBe(145);
    expect(recorded['no finish reason x4, -o text']?.exitCode).toBe(0);
  });
});
