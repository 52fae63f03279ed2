/**
 * Hand-written checks of the common shapes of message and `$set` records, for resuming long sessions (goal P4 in
 * docs/benchmarks.md: a 10,000-message file is about 22,000 lines, and validating each with zod was the largest
 * share of a resume). Each accepts only records its zod schema accepts and builds the same output: the shape's
 * keys first, in the schema's order, with its defaults (`content: ''`, `args: {}`), then the unknown keys in input
 * order; parts are kept by reference. Anything unusual — a wrong type, `undefined`, a `__proto__` key, an object
 * that is not a plain object — returns undefined, and the caller falls back to the zod schema, which decides and
 * reports. `src/sessions/record-fast-path.test.ts` checks both against each other.
 */

/** A plain JSON object. */
export type Plain = Record<string, unknown>;

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);
const MESSAGE_KEYS = [
  'id',
  'timestamp',
  'type',
  'content',
  'displayContent',
  'toolCalls',
  'thoughts',
  'tokens',
  'model',
  'sdkFormat',
  'sdkParts',
];
const TOOL_CALL_KEYS = [
  'id',
  'name',
  'args',
  'result',
  'status',
  'timestamp',
  'agentId',
  'displayName',
  'description',
  'resultDisplay',
  'renderOutputAsMarkdown',
];
const THOUGHT_KEYS = ['subject', 'description', 'timestamp'];
const TOKEN_KEYS = ['input', 'output', 'cached', 'thoughts', 'tool', 'total'];
const MESSAGE_KNOWN = new Set(MESSAGE_KEYS);
const TOOL_CALL_KNOWN = new Set(TOOL_CALL_KEYS);
const THOUGHT_KNOWN = new Set(THOUGHT_KEYS);
const TOKEN_KNOWN = new Set(TOKEN_KEYS);

/** Marks a value the fast path does not decide (the zod schema does). */
const NO = Symbol('not decided here');

function isPlain(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype;
}

const isPart = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `PartListRecord`: a string, one part (kept), or a list of strings and parts (a new list, as zod returns). */
function partList(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item !== 'string' && !isPart(item)) return NO;
    return [...value];
  }
  return isPart(value) ? value : NO;
}

const str = (v: unknown): unknown => (typeof v === 'string' ? v : NO);
const num = (v: unknown): unknown => (typeof v === 'number' && Number.isFinite(v) ? v : NO);

/**
 * Builds `{ shape keys in order, then unknown keys }` from `input`, or NO. `fields[key]` maps a present value
 * (or NO); `defaults[key]` supplies a missing one; a missing key without a default is left out.
 */
function object(
  input: Plain,
  keys: readonly string[],
  known: ReadonlySet<string>,
  fields: Readonly<Record<string, (v: unknown) => unknown>>,
  required: ReadonlySet<string>,
  defaults: Readonly<Record<string, () => unknown>> = {},
): Plain | typeof NO {
  if (Object.prototype.hasOwnProperty.call(input, '__proto__')) return NO;
  const out: Plain = {};
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(input, key)) {
      if (required.has(key)) return NO;
      const fallback = defaults[key];
      if (fallback !== undefined) out[key] = fallback();
      continue;
    }
    const mapped = (fields[key] as (v: unknown) => unknown)(input[key]);
    if (mapped === NO || mapped === undefined) return NO;
    out[key] = mapped;
  }
  for (const key of Object.keys(input)) {
    if (known.has(key)) continue;
    const value = input[key];
    if (value === undefined) return NO;
    out[key] = value;
  }
  return out;
}

function args(value: unknown): unknown {
  if (!isPlain(value) || Object.prototype.hasOwnProperty.call(value, '__proto__')) return NO;
  for (const key of Object.keys(value)) if (value[key] === undefined) return NO;
  return { ...value };
}

const TOOL_CALL_FIELDS: Record<string, (v: unknown) => unknown> = {
  id: str,
  name: str,
  args,
  result: (v) => (v === null ? null : partList(v)),
  status: str,
  timestamp: str,
  agentId: str,
  displayName: str,
  description: str,
  resultDisplay: (v) => v,
  renderOutputAsMarkdown: (v) => (typeof v === 'boolean' ? v : NO),
};
const TOOL_CALL_REQUIRED = new Set(['id', 'name', 'status']);

function list(value: unknown, item: (v: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return NO;
  const out: unknown[] = [];
  for (const v of value) {
    const mapped = item(v);
    if (mapped === NO) return NO;
    out.push(mapped);
  }
  return out;
}

const toolCall = (v: unknown): unknown =>
  isPlain(v)
    ? object(v, TOOL_CALL_KEYS, TOOL_CALL_KNOWN, TOOL_CALL_FIELDS, TOOL_CALL_REQUIRED, {
        args: () => ({}),
      })
    : NO;

const THOUGHT_FIELDS = { subject: str, description: str, timestamp: str };
const THOUGHT_REQUIRED = new Set(['subject', 'description']);
const thought = (v: unknown): unknown =>
  isPlain(v) ? object(v, THOUGHT_KEYS, THOUGHT_KNOWN, THOUGHT_FIELDS, THOUGHT_REQUIRED) : NO;

const TOKEN_FIELDS = { input: num, output: num, cached: num, thoughts: num, tool: num, total: num };
const TOKEN_REQUIRED = new Set(['input', 'output', 'cached', 'total']);
const tokens = (v: unknown): unknown =>
  v === null
    ? null
    : isPlain(v)
      ? object(v, TOKEN_KEYS, TOKEN_KNOWN, TOKEN_FIELDS, TOKEN_REQUIRED)
      : NO;

const MESSAGE_FIELDS: Record<string, (v: unknown) => unknown> = {
  id: str,
  timestamp: str,
  type: (v) => (typeof v === 'string' && MESSAGE_TYPES.has(v) ? v : NO),
  content: partList,
  displayContent: partList,
  toolCalls: (v) => list(v, toolCall),
  thoughts: (v) => list(v, thought),
  tokens,
  model: str,
  sdkFormat: num,
  sdkParts: (v) => (Array.isArray(v) && v.every(isPart) ? [...v] : NO),
};
const MESSAGE_REQUIRED = new Set(['id', 'type']);

/**
 * The `MessageRecord` that zod would return for `json`, built without zod; undefined when `json` is not in the
 * common shape (the caller then runs the schema).
 */
export function fastMessageRecord(json: unknown): Plain | undefined {
  if (!isPlain(json)) return undefined;
  const out = object(json, MESSAGE_KEYS, MESSAGE_KNOWN, MESSAGE_FIELDS, MESSAGE_REQUIRED, {
    content: () => '',
  });
  return out === NO ? undefined : out;
}

/** The string fields of a `$set`, in `SetRecord`'s order. */
const SET_STRING_KEYS = ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'summary'];
const SET_STRING_KNOWN = new Set(SET_STRING_KEYS);

/**
 * The `SetRecord` that zod would return for the common `{"$set": {"lastUpdated": "…"}}` (string fields only, no
 * other top-level key); undefined for anything else (the caller then runs the schema).
 */
export function fastSetRecord(json: unknown): { $set: Plain } | undefined {
  if (!isPlain(json)) return undefined;
  const set = json['$set'];
  if (!isPlain(set) || Object.keys(json).length !== 1) return undefined;
  const keys = Object.keys(set);
  for (const key of keys) {
    if (!SET_STRING_KNOWN.has(key) || typeof set[key] !== 'string') return undefined;
  }
  const out: Plain = {};
  for (const key of SET_STRING_KEYS) if (keys.includes(key)) out[key] = set[key];
  return { $set: out };
}
