/**
 * A hand-written check of a session's metadata (`SessionMetadataRecord`), for the same reason and with the same
 * contract as `record-fast-path.ts`: it accepts only what the zod schema accepts and builds the same output, and
 * leaves anything unusual to the schema. `src/sessions/metadata-fast-path.test.ts` checks the two against each other.
 */
import { copyUnknown, isNum, isPlain, type Plain } from './record-fast-path.js';

/** `SessionMetadataRecord`'s fields in the schema's order, with the check of each. */
const METADATA_FIELDS: ReadonlyArray<readonly [string, (v: unknown) => boolean]> = [
  ['sessionId', (v) => typeof v === 'string'],
  ['projectHash', (v) => typeof v === 'string'],
  ['startTime', (v) => typeof v === 'string'],
  ['lastUpdated', (v) => typeof v === 'string'],
  ['kind', (v) => v === 'main' || v === 'subagent'],
  ['directories', (v) => Array.isArray(v) && v.every((d) => typeof d === 'string')],
  ['summary', (v) => typeof v === 'string'],
  ['sdkFormat', isNum],
];
const METADATA_KNOWN = new Set(METADATA_FIELDS.map(([key]) => key));

/**
 * The `SessionMetadataRecord` that zod would return for `json` (the schema's keys first in its order, lists
 * copied, then the unknown keys in input order); undefined for anything unusual (the caller then runs the schema).
 * Once per session read, but zod compiles a schema on its first parse (4–12 ms measured in a fresh process).
 */
export function fastMetadataRecord(json: unknown): Plain | undefined {
  if (!isPlain(json)) return undefined;
  let unknown: string[] | undefined;
  for (const key of Object.keys(json)) {
    if (key === '__proto__') return undefined;
    if (!METADATA_KNOWN.has(key)) (unknown ??= []).push(key);
  }
  const out: Plain = {};
  for (const [key, check] of METADATA_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(json, key)) {
      if (key === 'sessionId' || key === 'projectHash') return undefined;
      continue;
    }
    const v = json[key];
    if (!check(v)) return undefined;
    out[key] = Array.isArray(v) ? [...(v as unknown[])] : v;
  }
  return copyUnknown(json, unknown, out) ? out : undefined;
}
