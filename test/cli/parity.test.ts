import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';
import { parseStreamJson } from './helpers/stream-json-schema.js';

const FIXTURE = join(
  ROOT,
  'test',
  'fixtures',
  'gemini-cli-sdk-test-data',
  'agent-static-instructions.json',
);
/** Line 1 of the recording, chunk texts joined: what `gemini -p "Say hello."` printed when it was recorded. */
const RECORDED = 'Ahoy, matey! Ready to chart a course through the code?';

let project: TempProject;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.cleanup();
});

describe('parity with a gemini-cli recording', () => {
  it('agent-static-instructions gives the recorded assistant text in every format', async () => {
    const args = ['-p', 'Say hello.', '--fake-responses', FIXTURE];
    const options = { cwd: project.cwd, env: cleanEnv(project) };

    const text = await runCli(args, options);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${RECORDED}\n`);

    const json = await runCli([...args, '-o', 'json'], options);
    expect((JSON.parse(json.stdout) as { response: string }).response).toBe(RECORDED);

    const stream = parseStreamJson((await runCli([...args, '-o', 'stream-json'], options)).stdout);
    const deltas = stream.flatMap((l) =>
      l.type === 'message' && l.role === 'assistant' ? [l] : [],
    );
    expect(deltas.map((d) => d.content)).toEqual([
      'Ah',
      'oy, matey! Ready to chart a course through the code?',
    ]);
    expect(deltas.every((d) => d.delta === true)).toBe(true);
    // The recorded usage of the final chunk: 7095 prompt + 15 candidates.
    expect(stream.at(-1)).toMatchObject({
      type: 'result',
      stats: { input_tokens: 7095, output_tokens: 15, total_tokens: 7110 },
    });
  });
});
