/**
 * Records how the reference `gemini` CLI (0.61) behaves in the scenarios of test/parity/scenarios.ts, so the
 * parity tests compare gemini-agent against gemini without gemini installed (CI does not have it).
 *
 * For each scenario: a temp root (`home/` is HOME, the project folders), our FakeGeminiServer on loopback
 * with the scenario's model turns, gemini run with GEMINI_API_KEY + GOOGLE_GEMINI_BASE_URL pointing at it;
 * the result (exit code, stdout, stderr, every API request body, session files, checked files) is written,
 * normalised, to test/fixtures/gemini-0.61/<scenario>.json.
 *
 *   npx tsx scripts/gemini-reference/record.ts [name-filter]
 *
 * GEMINI_BIN overrides the binary (default /work/ref/gemini/node_modules/.bin/gemini).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS } from '../../test/parity/scenarios.js';
import { recordGemini } from './run-gemini.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT_DIR = join(REPO, 'test', 'fixtures', 'gemini-0.61');
const filter = process.argv[2];

mkdirSync(OUT_DIR, { recursive: true });
for (const scenario of SCENARIOS) {
  if (filter !== undefined && !scenario.name.includes(filter)) continue;
  const recording = await recordGemini(scenario);
  writeFileSync(join(OUT_DIR, `${scenario.name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
  process.stdout.write(
    `${scenario.name}: exit ${[recording, ...recording.later].map((r) => String(r.exitCode)).join(', ')}, ` +
      `${recording.requests.length} request(s)\n`,
  );
}
