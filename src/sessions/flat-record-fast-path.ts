/**
 * Hand-written checks of the flat records read once per session open — a session's metadata
 * (`SessionMetadataRecord`) and its lock file (`SessionLockInfo`) — for the same reason and with the same contract
 * as `record-fast-path.ts`: each accepts only what its zod schema accepts and builds the same output (the schema's
 * keys first in its order, lists copied, then the unknown keys in input order), and leaves anything unusual to the
 * schema. Read once each, but zod compiles a schema on its first parse (4–12 ms measured in a fresh process), which
 * every resume paid. `src/sessions/flat-record-fast-path.test.ts` checks both against zod.
 */
import { copyUnknown, isNum, isPlain, type Plain } from './record-fast-path.js';

/** One field of a flat schema: its key, its check, and whether it is required. */
type Field = readonly [key: string, check: (v: unknown) => boolean, required: boolean];

const isString = (v: unknown): boolean => typeof v === 'string';

function flatRecord(
  json: unknown,
  fields: readonly Field[],
  known: ReadonlySet<string>,
): Plain | undefined {
  if (!isPlain(json)) return undefined;
  let unknown: string[] | undefined;
  for (const key of Object.keys(json)) {
    if (key === '__proto__') return undefined;
    if (!known.has(key)) (unknown ??= []).push(key);
  }
  const out: Plain = {};
  for (const [key, check, required] of fields) {
    if (!Object.prototype.hasOwnProperty.call(json, key)) {
      if (required) return undefined;
      continue;
    }
    const v = json[key];
    if (!check(v)) return undefined;
    out[key] = Array.isArray(v) ? [...(v as unknown[])] : v;
  }
  return copyUnknown(json, unknown, out) ? out : undefined;
}

/** `SessionMetadataRecord`'s fields in the schema's order. */
const METADATA_FIELDS: readonly Field[] = [
  ['sessionId', isString, true],
  ['projectHash', isString, true],
  ['startTime', isString, false],
  ['lastUpdated', isString, false],
  ['kind', (v) => v === 'main' || v === 'subagent', false],
  ['directories', (v) => Array.isArray(v) && v.every((d) => typeof d === 'string'), false],
  ['summary', isString, false],
  ['sdkFormat', isNum, false],
];
const METADATA_KNOWN = new Set(METADATA_FIELDS.map(([key]) => key));

/** The `SessionMetadataRecord` zod would return for `json`; undefined when the schema has to decide. */
export function fastMetadataRecord(json: unknown): Plain | undefined {
  return flatRecord(json, METADATA_FIELDS, METADATA_KNOWN);
}

/** `SessionLockInfo`'s fields in the schema's order. */
const LOCK_INFO_FIELDS: readonly Field[] = [
  ['version', (v) => v === 1, true],
  ['sessionId', isString, true],
  ['pid', isNum, true],
  ['hostname', isString, true],
  ['processStartedAt', isNum, true],
  ['createdAt', isString, true],
  ['token', isString, true],
  ['idle', (v) => typeof v === 'boolean', false],
];
const LOCK_INFO_KNOWN = new Set(LOCK_INFO_FIELDS.map(([key]) => key));

/** The `SessionLockInfo` zod would return for `json`; undefined when the schema has to decide. */
export function fastLockInfo(json: unknown): Plain | undefined {
  return flatRecord(json, LOCK_INFO_FIELDS, LOCK_INFO_KNOWN);
}
