/**
 * Records gemini 0.61's configuration facts for the matrix of test/parity/config-matrix.ts — model, generationConfig,
 * tools declared, the GEMINI.md context and where it is placed, the `<session_context>`, trust refusals and the
 * answers to the model's tool calls — into test/fixtures/gemini-0.61/config-matrix/<cell>.json. The tests compare
 * gemini-agent against these files, so they do not need gemini installed; this script does.
 *
 *   npx tsx scripts/gemini-reference/record-config-matrix.ts [name-filter]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONFIG_MATRIX,
  configFacts,
  type MatrixRecording,
} from '../../test/parity/config-matrix.js';
import { recordGemini } from './run-gemini.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT_DIR = join(REPO, 'test', 'fixtures', 'gemini-0.61', 'config-matrix');
const filter = process.argv[2];

mkdirSync(OUT_DIR, { recursive: true });
for (const scenario of CONFIG_MATRIX) {
  if (filter !== undefined && !scenario.name.includes(filter)) continue;
  const recording: MatrixRecording = { scenario, facts: configFacts(await recordGemini(scenario)) };
  writeFileSync(join(OUT_DIR, `${scenario.name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
  const { facts } = recording;
  process.stdout.write(
    `${scenario.name}: exit ${String(facts.exitCode)}, model ${facts.model ?? '-'}, ` +
      `${facts.tools.length} tools, ${facts.contextFiles.length} context files\n`,
  );
}
