/**
 * The configuration matrix against gemini 0.61's recorded facts (test/fixtures/gemini-0.61/config-matrix, made by
 * scripts/gemini-reference/record-config-matrix.ts): each cell's files and command line run through gemini-agent
 * — its requests must show the same model, generationConfig, tools, GEMINI.md context (placed where gemini places
 * it), `<session_context>` and answers to tool calls — and through `gemini-agent --show-config`, whose dump must
 * report the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShownConfig } from '../../src/cli/show-config.js';
import { DEFAULT_MODEL } from '../../src/model/models.js';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin/create-builtin-tools.js';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { CONFIG_MATRIX, configFacts, type MatrixRecording } from './config-matrix.js';
import { loadedContext, runOurs } from './run-ours.js';

const DIR = new URL('../fixtures/gemini-0.61/config-matrix/', import.meta.url);
const recordings = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as MatrixRecording);

/** gemini's tools that gemini-agent has too (gemini 0.61 has a few more: update_topic, enter_plan_mode, …). */
const ours = new Set<string>(BUILTIN_TOOL_NAMES);
const shared = (tools: readonly string[]) => tools.filter((t) => ours.has(t)).sort();

beforeAll(async () => {
  await ensureBuilt();
});

describe('the configuration matrix, as gemini 0.61 applies it', () => {
  it('has a recording for every cell, made from the cell as it is now', () => {
    expect(recordings.map((r) => r.scenario.name).sort()).toEqual(
      CONFIG_MATRIX.map((s) => s.name).sort(),
    );
    for (const cell of CONFIG_MATRIX) {
      expect(recordings.find((r) => r.scenario.name === cell.name)?.scenario).toEqual(
        JSON.parse(JSON.stringify(cell)),
      );
    }
  });

  it.each(recordings.map((r) => [r.scenario.name, r] as const))(
    '%s: the run sends what gemini sends, and --show-config reports it',
    async (_name, { scenario: recorded, facts: want }) => {
      // gemini-agent never makes gemini's routing call: the turns that answered it are not ours to take.
      const scenario = { ...recorded, turns: recorded.turns?.slice(want.routingCalls) };
      const run = await runOurs(scenario);
      const got = configFacts(run);
      const shown = JSON.parse((await runOurs(scenario, ['--show-config'])).stdout) as ShownConfig;

      if (want.refusedUntrusted) {
        // gemini refuses a headless run in an untrusted folder (exit 55); gemini-agent runs it without the
        // folder's own configuration (docs/decisions.md D30). The trust decision is the same.
        expect(shown.trust.trusted).toBe(false);
        expect(got.exitCode).toBe(0);
        expect(got.contextFiles.filter((f) => f.placedIn === 'sessionContext')).toEqual([]);
        expect(shown.settings.files.find((f) => f.scope === 'workspace')?.loaded).toBe(false);
        return;
      }
      expect(shown.trust.trusted).toBe(true);
      expect(got.exitCode).toBe(want.exitCode);
      if (shown.model.source === 'default') {
        // No model configured: gemini routes its default `auto` (a routing call first); gemini-agent sends
        // DEFAULT_MODEL (docs/decisions.md D16), so model and generationConfig differ by design.
        expect(want.routingCalls).toBeGreaterThan(0);
        expect(got.model).toBe(DEFAULT_MODEL);
        expect(shown.model.name).toBe(DEFAULT_MODEL);
      } else {
        expect(got.model).toBe(want.model);
        expect(got.generationConfig).toEqual(want.generationConfig);
        expect(shown.model.name).toBe(want.model);
        expect(shown.generationConfig).toEqual(want.generationConfig);
      }
      expect(shared(got.tools)).toEqual(shared(want.tools));
      expect(got.systemContext).toBe(want.systemContext);
      expect(got.sessionContext).toBe(want.sessionContext);
      expect(got.contextFiles).toEqual(want.contextFiles);
      expect(got.toolOutcomes).toEqual(want.toolOutcomes);
      expect(got.files).toEqual(want.files);

      expect(shared(shown.tools)).toEqual(shared(want.tools));
      expect(shown.contextFiles).toEqual(want.contextFiles);
      expect(shown.sessionContext).toBe(want.sessionContext);
      expect(loadedContext(shown.systemInstruction)).toBe(want.systemContext);
      const policyFiles = Object.keys(recorded.files ?? {})
        .filter((p) => p.endsWith('.toml'))
        .map((p) => `<ROOT>/${p}`);
      expect(shown.policy.files.sort()).toEqual(policyFiles.sort());
    },
  );
});
