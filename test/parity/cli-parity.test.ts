/**
 * gemini-agent's headless output against gemini 0.61's in the same situations (recorded with
 * scripts/gemini-reference/record.ts): `-o text` turn separation, `-o json` response and stats shape (files,
 * roles, errorsByType, decisions), `stream-json` events, and the exit codes of bad flags and missing sessions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { recorded, runOurs } from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
});

/** Replaces every number in a JSON value by 0 where the key measures time (latency, durations). */
function withoutTimes(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    /latency|duration/i.test(key) && typeof v === 'number' ? 0 : v,
  ) as unknown;
}

/**
 * Our documented additions to gemini's stats (docs/cli.md): json `stats.cost` and stream-json `cost_usd`. They are
 * checked to be there, then left out of the comparison.
 */
function withoutCost(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) =>
    key === 'cost' || key === 'cost_usd' ? undefined : v,
  ) as unknown;
}

/** Call ids carry a wall-clock number (`read_file_1796141332280_0`); keep the name and the index. */
function withoutCallTimes(text: string): string {
  return text.replace(/([a-z_]+)_\d{10,}_(\d+)/g, '$1_<ms>_$2');
}

describe('CLI output, as gemini 0.61 prints it', () => {
  it('-o text: each model call ends its line before its tools run', async () => {
    const gemini = recorded('text-turns');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    expect(ours.stdout).toBe(gemini.stdout);
  });

  it('-o json: the last turn as response, stats with files, roles, errorsByType and accept decisions', async () => {
    const gemini = recorded('json-stats-edit');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    const want = JSON.parse(gemini.stdout) as Record<string, unknown>;
    const got = JSON.parse(ours.stdout) as Record<string, unknown>;
    expect(got['response']).toBe(want['response']);
    expect(got['stats']).toHaveProperty('cost.totalUsd');
    expect(withoutCost(withoutTimes(got['stats']))).toEqual(withoutTimes(want['stats']));
    expect(ours.files).toEqual(gemini.files);
  });

  it('-o stream-json: the same events with the same fields', async () => {
    const gemini = recorded('stream-json-tools');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => withoutTimes(JSON.parse(withoutCallTimes(l))) as Record<string, unknown>)
        .map((l): Record<string, unknown> =>
          l['session_id'] === undefined ? l : { ...l, session_id: '<id>' },
        );
    const want = lines(gemini.stdout);
    const got = lines(ours.stdout);
    expect(got.map((l) => l['type'])).toEqual(want.map((l) => l['type']));
    for (const [i, line] of got.entries()) {
      const reference = want[i] ?? {};
      if (line['type'] === 'tool_result' && line['status'] === 'error') {
        // The "Did you mean" names differ: gemini has tools we do not (update_topic).
        expect(Object.keys(line).sort()).toEqual(Object.keys(reference).sort());
        expect((line['error'] as { type: string }).type).toBe(
          (reference['error'] as { type: string }).type,
        );
      } else if (line['type'] === 'result') {
        expect(line).toHaveProperty('stats.cost_usd');
        expect(withoutCost(line)).toEqual(reference);
      } else {
        expect(line).toEqual(reference);
      }
    }
    expect(ours.stderr).toContain('Error executing tool write_file: Tool "write_file" not found.');
  });

  it("bad flags exit with gemini's code (1) and one line naming the flag", async () => {
    const gemini = recorded('cli-usage-errors');
    const ours = await runOurs(gemini.scenario);
    const runs = [
      { gemini: gemini as { exitCode: number | null }, ours, flag: '--bogus-flag' },
      ...gemini.later.map((g, i) => ({ gemini: g, ours: ours.later[i], flag: undefined })),
    ];
    const flags = ['--bogus-flag', '--output-format', '--approval-mode', '--prompt', '--yolo'];
    for (const [i, run] of runs.entries()) {
      expect(run.ours?.exitCode).toBe(run.gemini.exitCode);
      const message = (run.ours?.stderr ?? '').trim();
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(flags[i]);
    }
  });

  it("resuming a session that is not there: gemini's exit codes and its exact error text", async () => {
    const gemini = recorded('session-resume-missing');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    expect(ours.stderr).toBe(gemini.stderr);
    expect(ours.later.map((r) => r.exitCode)).toEqual(gemini.later.map((r) => r.exitCode));
    // An unknown id and an index out of range, with sessions stored: gemini's three lines, the chats folder named.
    expect(ours.later[1]?.stderr).toBe(gemini.later[1]?.stderr);
    expect(ours.later[2]?.stderr).toBe(gemini.later[2]?.stderr);
  });
});
