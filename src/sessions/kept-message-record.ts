/**
 * Records kept as parsed, for resuming long sessions (goal P4 in docs/benchmarks.md). A line that `JSON.parse` just
 * built belongs to nobody else, so when it already is what the `MessageRecord` schema would return — every known
 * key in the schema's order before any unknown key, every default present, every value valid — the parsed object
 * itself is the record: no copy of it, its lists or its nested objects (the copy of `record-fast-path.ts`, and the
 * garbage it leaves, was a share of a resume's time). Anything else returns false and the record is copied or
 * checked by zod. This SDK writes its records in the schemas' order (`records-from-entry.ts`); gemini-cli writes
 * `toolCalls` last, so its model messages take the copy. `src/sessions/record-fast-path.test.ts` checks every kept
 * record against zod's output, key order included.
 */
import { isNum, isPart, isPlain, MESSAGE_TYPES, type Plain } from './record-fast-path.js';

/** A part list kept as parsed: a string, a part, or a list of strings and parts. */
function isPartList(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item !== 'string' && !isPart(item)) return false;
    return true;
  }
  return isPart(value);
}

/** `z.record(z.string(), z.unknown())` kept as parsed: a plain object without `undefined` or `__proto__`. */
function isArgs(value: unknown): boolean {
  if (!isPlain(value)) return false;
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || value[key] === undefined) return false;
  }
  return true;
}

/**
 * Checks the own keys of `input` in order: each known one (`rank` > 0) after the previous known one, with a value
 * `valid` accepts; no known key after an unknown one (rank 0), no unknown key holding `undefined`; a rank below 0
 * (`__proto__`) is left to zod. Returns the bit set of the ranks seen, or -1 when the object is not kept.
 */
function ranksInOrder(
  input: Plain,
  rank: (key: string) => number,
  valid: (rank: number, value: unknown) => boolean,
): number {
  let last = 0;
  let seen = 0;
  for (const key of Object.keys(input)) {
    const r = rank(key);
    const v = input[key];
    if (r === 0) {
      if (v === undefined) return -1;
      last = AFTER_KNOWN;
      continue;
    }
    if (r <= last || !valid(r, v)) return -1;
    last = r;
    seen |= 1 << r;
  }
  return seen;
}

/** True when `input` is a plain object whose keys pass {@link ranksInOrder} with every rank of `required`. */
function kept(
  input: unknown,
  rank: (key: string) => number,
  valid: (rank: number, value: unknown) => boolean,
  required: number,
): boolean {
  if (!isPlain(input)) return false;
  const seen = ranksInOrder(input, rank, valid);
  return seen !== -1 && (seen & required) === required;
}

/** Past every known rank: an unknown key was seen, no known key may follow. */
const AFTER_KNOWN = 100;

/** Rank of a tool call's key in `ToolCallRecord` (0: unknown, -1: left to zod). */
function toolCallRank(key: string): number {
  switch (key) {
    case 'id':
      return 1;
    case 'name':
      return 2;
    case 'args':
      return 3;
    case 'result':
      return 4;
    case 'status':
      return 5;
    case 'timestamp':
      return 6;
    case 'agentId':
      return 7;
    case 'displayName':
      return 8;
    case 'description':
      return 9;
    case 'resultDisplay':
      return 10;
    case 'renderOutputAsMarkdown':
      return 11;
    case '__proto__':
      return -1;
    default:
      return 0;
  }
}

function toolCallField(rank: number, v: unknown): boolean {
  switch (rank) {
    case 3:
      return isArgs(v);
    case 4:
      return v === null || isPartList(v);
    case 10:
      return v !== undefined;
    case 11:
      return typeof v === 'boolean';
    default:
      return typeof v === 'string';
  }
}

/** `id`, `name`, `args` (its default added otherwise) and `status`. */
const TOOL_CALL_REQUIRED = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 5);

const isKeptToolCall = (input: unknown): boolean =>
  kept(input, toolCallRank, toolCallField, TOOL_CALL_REQUIRED);

function thoughtRank(key: string): number {
  switch (key) {
    case 'subject':
      return 1;
    case 'description':
      return 2;
    case 'timestamp':
      return 3;
    case '__proto__':
      return -1;
    default:
      return 0;
  }
}

const isString = (_rank: number, v: unknown): boolean => typeof v === 'string';

const isKeptThought = (input: unknown): boolean =>
  kept(input, thoughtRank, isString, (1 << 1) | (1 << 2));

function tokensRank(key: string): number {
  switch (key) {
    case 'input':
      return 1;
    case 'output':
      return 2;
    case 'cached':
      return 3;
    case 'thoughts':
      return 4;
    case 'tool':
      return 5;
    case 'total':
      return 6;
    case '__proto__':
      return -1;
    default:
      return 0;
  }
}

const isCount = (_rank: number, v: unknown): boolean => isNum(v);

/** `input`, `output`, `cached` and `total`. */
const TOKENS_REQUIRED = (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6);

const isKeptTokens = (input: unknown): boolean =>
  input === null || kept(input, tokensRank, isCount, TOKENS_REQUIRED);

function isKeptList(value: unknown, item: (v: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const v of value) if (!item(v)) return false;
  return true;
}

function messageRank(key: string): number {
  switch (key) {
    case 'id':
      return 1;
    case 'timestamp':
      return 2;
    case 'type':
      return 3;
    case 'content':
      return 4;
    case 'displayContent':
      return 5;
    case 'toolCalls':
      return 6;
    case 'thoughts':
      return 7;
    case 'tokens':
      return 8;
    case 'model':
      return 9;
    case 'sdkFormat':
      return 10;
    case 'sdkParts':
      return 11;
    case '__proto__':
      return -1;
    default:
      return 0;
  }
}

function messageField(rank: number, v: unknown): boolean {
  switch (rank) {
    case 3:
      return typeof v === 'string' && MESSAGE_TYPES.has(v);
    case 4:
    case 5:
      return isPartList(v);
    case 6:
      return isKeptList(v, isKeptToolCall);
    case 7:
      return isKeptList(v, isKeptThought);
    case 8:
      return isKeptTokens(v);
    case 10:
      return isNum(v);
    case 11:
      return isKeptList(v, isPart);
    default:
      return typeof v === 'string';
  }
}

/** `id`, `type` and `content` (its default added otherwise). */
const MESSAGE_REQUIRED = (1 << 1) | (1 << 3) | (1 << 4);

/**
 * True when `json` is exactly the `MessageRecord` zod would return for it (same values, keys in the same order,
 * the default `content` present), so a caller that owns `json` — a line it just parsed — can keep it as the record
 * (deep-equal to zod's output; only zod's fresh lists and nested objects are the parsed ones here). False for
 * anything else, which the copy of `record-fast-path.ts` or zod then decides.
 */
export function isKeptMessageRecord(json: unknown): json is Plain {
  return kept(json, messageRank, messageField, MESSAGE_REQUIRED);
}
