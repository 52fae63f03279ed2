/**
 * `gemini-agent skills list | enable | disable` against gemini 0.61's recording of the same commands on the same
 * files: the same listings, the same confirmation lines (stderr, as gemini), the same settings written.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { recorded, runOurs } from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
});

/** gemini's own lines about the skills (its stderr also carries unrelated startup notes). */
const skillLines = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => line.startsWith('Skill "'));

describe('gemini-agent skills, as gemini 0.61 skills', () => {
  it('skills-command: listings, messages and settings files match', async () => {
    const gemini = recorded('skills-command');
    const ours = await runOurs(gemini.scenario);
    const runs = [
      { gemini, ours },
      ...gemini.later.map((g, i) => ({ gemini: g, ours: ours.later[i] })),
    ];
    for (const [i, run] of runs.entries()) {
      const args = [gemini.scenario.args, ...(gemini.scenario.then ?? [])][i]?.join(' ');
      expect({ args, code: run.ours?.exitCode }).toEqual({ args, code: run.gemini.exitCode });
      expect({ args, stdout: run.ours?.stdout }).toEqual({ args, stdout: run.gemini.stdout });
      expect({ args, stderr: skillLines(run.ours?.stderr ?? '') }).toEqual({
        args,
        stderr: skillLines(run.gemini.stderr),
      });
    }
    for (const [file, text] of Object.entries(gemini.files)) {
      expect({ file, value: JSON.parse(ours.files[file] ?? 'null') as unknown }).toEqual({
        file,
        value: JSON.parse(text ?? 'null') as unknown,
      });
    }
  });
});
