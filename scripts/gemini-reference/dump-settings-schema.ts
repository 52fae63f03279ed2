/**
 * Writes gemini 0.61's settings schema (every key path with its type, merge strategy, scalar default and enum
 * values) to test/fixtures/gemini-0.61/settings-schema.json, read from the installed bundle. The settings tests
 * check our key catalogue and merge strategies against it.
 *
 *   npx tsx scripts/gemini-reference/dump-settings-schema.ts
 *
 * GEMINI_BUNDLE overrides the bundle chunk that exports getSettingsSchema.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Definition {
  type?: string;
  mergeStrategy?: string;
  default?: unknown;
  properties?: Record<string, Definition>;
  additionalProperties?: { mergeStrategy?: string };
  options?: Array<{ value: unknown }>;
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHUNK =
  process.env['GEMINI_BUNDLE'] ??
  '/work/ref/gemini/node_modules/@google/gemini-cli/bundle/chunk-2YTYPKEZ.js';
const bundle = (await import(CHUNK)) as { getSettingsSchema(): Record<string, Definition> };

const entries: object[] = [];
const walk = (prefix: string, schema: Record<string, Definition>): void => {
  for (const [key, def] of Object.entries(schema)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    entries.push({
      path,
      type: def.type,
      ...(def.properties ? { hasProperties: true } : {}),
      ...(def.mergeStrategy ? { mergeStrategy: def.mergeStrategy } : {}),
      ...(def.additionalProperties?.mergeStrategy
        ? { additionalMergeStrategy: def.additionalProperties.mergeStrategy }
        : {}),
      ...(def.default !== undefined &&
      (typeof def.default !== 'object' || Array.isArray(def.default))
        ? { default: def.default }
        : {}),
      ...(def.options ? { options: def.options.map((o) => o.value) } : {}),
    });
    if (def.properties) walk(path, def.properties);
  }
};
walk('', bundle.getSettingsSchema());
const out = join(REPO, 'test', 'fixtures', 'gemini-0.61', 'settings-schema.json');
writeFileSync(out, `${JSON.stringify({ gemini: '0.61.0', entries }, null, 1)}\n`);
process.stdout.write(`${entries.length} keys written to ${out}\n`);
